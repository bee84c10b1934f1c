import { CLINICAL_NO_MATCH, clinicalStep } from './clinical';
import { assess, aRule, cond, HBA1C, TSH } from './testing/builders';

describe('Clinical assessment: "If none remain, it completes with no recommendation."', () => {
  const rules = [aRule('High TSH', [cond(TSH.id, '>', 4.5)]), aRule('High A1c', [cond(HBA1C.id, '>', 7)])];

  it('completes with no recommendation once every question is answered without a match', () => {
    const { asked, final } = assess(rules, [TSH, HBA1C], { [TSH.id]: 2, [HBA1C.id]: 5.5 });
    expect(asked).toEqual(['TSH', 'hba1c']);
    expect(final).toMatchObject({ status: 'completed', recommendation: null, undetermined_rules: [] });
  });

  it("logs exactly 'Assessment completed without finding a matching rule' as a warning", () => {
    const step = clinicalStep(rules, [TSH, HBA1C], { [TSH.id]: 2, [HBA1C.id]: 5.5 });
    expect(step.log.at(-1)).toEqual({ type: 'warning', message: 'Assessment completed without finding a matching rule' });
    expect(CLINICAL_NO_MATCH).toBe('Assessment completed without finding a matching rule');
  });

  it('completes at once when no rule uses any parameter', () => {
    expect(clinicalStep([], [TSH, HBA1C], {})).toMatchObject({ status: 'completed', recommendation: null });
  });
});
