import { clinicalStep } from './clinical';
import { evaluateRule } from './evaluate';
import { ANTIBODIES, aParameter, aRule, cond, TSH } from './testing/builders';

describe('Clinical assessment: "A missing answer fails the rule"', () => {
  const hashimoto = aRule("Hashimoto's thyroiditis", [cond(TSH.id, '>', 4.5), cond(ANTIBODIES.id, 'equals', true)]);

  it('never recommends a rule while one of its answers is missing', () => {
    const step = clinicalStep([hashimoto], [TSH, ANTIBODIES], { [TSH.id]: 7 });
    expect(step.status).toBe('question');
  });

  it('holds the rule as undetermined, not false: the missing answer could still satisfy it', () => {
    expect(evaluateRule(hashimoto, { [TSH.id]: 7 }, [TSH, ANTIBODIES]).result).toBe('unknown');
  });

  it('fails the rule in the end when the answer can never be given', () => {
    // The rule's second parameter does not exist, so it is never asked.
    const broken = aRule('Broken', [cond(TSH.id, '>', 4.5), cond('p-deleted', 'equals', true)]);
    const step = clinicalStep([broken], [TSH, ANTIBODIES], { [TSH.id]: 7 });
    expect(step).toMatchObject({ status: 'completed', recommendation: null });
  });

  it('fails it too when the parameter has been retired', () => {
    const retired = aParameter('retired', 'boolean', { is_active: false });
    const rule = aRule('Uses retired', [cond(TSH.id, '>', 4.5), cond(retired.id, 'equals', true)]);
    expect(clinicalStep([rule], [TSH, retired], { [TSH.id]: 7 })).toMatchObject({ status: 'completed', recommendation: null });
  });
});
