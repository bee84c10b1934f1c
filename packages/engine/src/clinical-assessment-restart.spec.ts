import { clinicalStart, clinicalStep } from './clinical';
import { ANTIBODIES, aRule, cond, TSH } from './testing/builders';

describe('Clinical assessment: "Restart resets everything."', () => {
  it('starts again from the first question with nothing carried over', () => {
    const rules = [aRule("Hashimoto's", [cond(TSH.id, '>', 4.5), cond(ANTIBODIES.id, 'equals', true)])];
    const done = clinicalStep(rules, [TSH, ANTIBODIES], { [TSH.id]: 8, [ANTIBODIES.id]: true });
    expect(done.status).toBe('completed');
    const restarted = clinicalStart(rules, [TSH, ANTIBODIES]);
    expect(restarted).toMatchObject({ status: 'question', parameter_id: TSH.id });
    expect(restarted.log.some((e) => e.type === 'success')).toBe(false);
  });
});
