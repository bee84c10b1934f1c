import { clinicalStep } from './clinical';
import { aRule, cond, HBA1C, TSH } from './testing/builders';

describe('Clinical assessment: "An unknown operator logs a warning and fails."', () => {
  const broken = aRule('Broken', [cond(TSH.id, 'approximately', 4.5), cond(HBA1C.id, '>', 7)]);
  const fallback = aRule('Raised A1c', [cond(HBA1C.id, '>', 7)]);

  it('logs a warning naming the rule and the operator', () => {
    const step = clinicalStep([broken, fallback], [TSH, HBA1C], {});
    expect(step.log).toContainEqual({
      type: 'warning',
      message: 'Rule "Broken", condition 1: unknown operator "approximately"; the condition fails',
      data: { rule_id: broken.id },
    });
  });

  it('fails the condition, so the rule never wins and is not waited on', () => {
    const step = clinicalStep([broken, fallback], [TSH, HBA1C], { [HBA1C.id]: 8 });
    expect(step).toMatchObject({ status: 'completed', recommendation: { rule_id: fallback.id } });
  });

  it('does not ask a question that only a broken condition uses', () => {
    expect(clinicalStep([broken, fallback], [TSH, HBA1C], {})).toMatchObject({ status: 'question', parameter_id: HBA1C.id });
  });
});
