import { clinicalRuleOrder, clinicalStep } from './clinical';
import { ANTIBODIES, aRule, cond, TSH, WT_LB } from './testing/builders';

describe('Clinical assessment: "After each answer all rules are evaluated, ordered by number of conditions (most first), then by name."', () => {
  const one = aRule('Zeta single', [cond(TSH.id, '>', 4.5)], { priority: 100 });
  const twoB = aRule('Beta pair', [cond(TSH.id, '>', 4.5), cond(WT_LB.id, '>', 200)]);
  const twoA = aRule('Alpha pair', [cond(TSH.id, '>', 4.5), cond(ANTIBODIES.id, 'equals', true)]);
  const three = aRule('Gamma triple', [cond(TSH.id, '>', 4.5), cond(ANTIBODIES.id, 'equals', true), cond(WT_LB.id, '>', 200)]);

  it('ranks by number of conditions, then name; priority does not rank', () => {
    expect(clinicalRuleOrder([one, twoB, twoA, three])).toEqual([three, twoA, twoB, one]);
  });

  it('evaluates every rule after each answer, in that order (debug log)', () => {
    const { log } = clinicalStep([one, twoB, twoA, three], [TSH, ANTIBODIES, WT_LB], { [TSH.id]: 6 });
    const evaluated = log.filter((e) => e.message.startsWith('Rule "') && e.type === 'info').map((e) => e.message);
    expect(evaluated).toEqual([
      'Rule "Gamma triple" (3 conditions): undetermined',
      'Rule "Alpha pair" (2 conditions): undetermined',
      'Rule "Beta pair" (2 conditions): undetermined',
      'Rule "Zeta single" (1 condition): satisfied',
    ]);
  });

  it('uses priority, then id, only to break a tie of count and name', () => {
    const low = aRule('Same', [cond(TSH.id, '>', 4.5)], { priority: 1 });
    const high = aRule('Same', [cond(TSH.id, '>', 4.5)], { priority: 2 });
    expect(clinicalRuleOrder([low, high])).toEqual([high, low]);
  });
});
