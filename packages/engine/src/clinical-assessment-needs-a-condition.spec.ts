import { clinicalStep } from './clinical';
import { aRule, cond, TSH } from './testing/builders';

describe('Clinical assessment: "A rule needs at least one condition"', () => {
  it('never recommends a rule without conditions', () => {
    const empty = aRule('Always', []);
    const step = clinicalStep([empty, aRule('High TSH', [cond(TSH.id, '>', 4.5)])], [TSH], { [TSH.id]: 2 });
    expect(step).toMatchObject({ status: 'completed', recommendation: null });
  });

  it('completes at once with no recommendation when the only rule has no conditions', () => {
    expect(clinicalStep([aRule('Always', [])], [TSH], {})).toMatchObject({ status: 'completed', recommendation: null });
  });
});
