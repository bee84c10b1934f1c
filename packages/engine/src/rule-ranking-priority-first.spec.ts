import { clinicalRuleOrder, clinicalStep } from './clinical';
import { ANTIBODIES, aRule, cond, SBP, TSH, WT_LB } from './testing/builders';

/**
 * Issue 9 ranks by priority (high first), then number of conditions, then name, then id.
 * Product-spec §4 ranked by conditions then name and ignored priority, which §9 says is
 * "evaluated first".
 */
describe('Rule ranking: priority first, then number of conditions, then name', () => {
  const one = aRule('Zeta single', [cond(TSH.id, '>', 4.5)], { priority: 100 });
  const twoB = aRule('Beta pair', [cond(TSH.id, '>', 4.5), cond(WT_LB.id, '>', 200)]);
  const twoA = aRule('Alpha pair', [cond(TSH.id, '>', 4.5), cond(ANTIBODIES.id, 'equals', true)]);
  const three = aRule('Gamma triple', [cond(TSH.id, '>', 4.5), cond(ANTIBODIES.id, 'equals', true), cond(WT_LB.id, '>', 200)]);

  it('ranks by priority, then number of conditions, then name', () => {
    expect(clinicalRuleOrder([one, twoB, twoA, three])).toEqual([one, three, twoA, twoB]);
  });

  it('evaluates every rule after each answer, in that order (debug log)', () => {
    const { log } = clinicalStep([one, twoB, twoA, three], [TSH, ANTIBODIES, WT_LB], { [TSH.id]: 6 });
    const evaluated = log.filter((e) => e.message.startsWith('Rule "') && e.type === 'info').map((e) => e.message);
    expect(evaluated).toEqual([
      'Rule "Zeta single" (priority 100, 1 condition): satisfied',
      'Rule "Gamma triple" (priority 0, 3 conditions): undetermined',
      'Rule "Alpha pair" (priority 0, 2 conditions): undetermined',
      'Rule "Beta pair" (priority 0, 2 conditions): undetermined',
    ]);
  });

  it('uses the id only to break a tie of priority, count and name', () => {
    const a = { ...aRule('Same', [cond(TSH.id, '>', 4.5)]), id: 'b' };
    const b = { ...aRule('Same', [cond(TSH.id, '>', 4.5)]), id: 'a' };
    expect(clinicalRuleOrder([a, b])).toEqual([b, a]);
  });

  it('does not let "Annual BP review" (SBP ≥ 90) beat "Hypertensive crisis" for SBP 200', () => {
    const review = aRule('Annual BP review', [cond(SBP.id, '>=', 90)], { priority: 10 });
    const crisis = aRule('Hypertensive crisis', [cond(SBP.id, '>=', 180)], {
      priority: 100,
      actions: [{ type: 'alert', severity: 'critical', message: 'Same-day evaluation' }],
    });
    const step = clinicalStep([review, crisis], [SBP], { [SBP.id]: 200 });
    expect(step.status === 'completed' && step.findings.map((f) => f.rule_name)).toEqual(['Hypertensive crisis', 'Annual BP review']);
    expect(step).toMatchObject({ recommendation: { rule_name: 'Hypertensive crisis', severity: 'critical' } });
  });
});
