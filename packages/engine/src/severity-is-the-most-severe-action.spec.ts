import { clinicalStep } from './clinical';
import { ruleSeverity } from './findings';
import { anAction, aRule, cond, TSH } from './testing/builders';
import type { Action } from './types';

/**
 * Issue 9: a finding's severity is the most severe of its rule's actions. Product-spec §4 took
 * the first action's, which could hide a critical action behind a low first one.
 */
describe("A finding's severity is the most severe of its actions", () => {
  const severityFor = (actions: Action[]): string | undefined => {
    const step = clinicalStep([aRule('High TSH', [cond(TSH.id, '>', 4.5)], { actions })], [TSH], { [TSH.id]: 6 });
    return step.status === 'completed' ? step.recommendation?.severity : undefined;
  };

  it('is not hidden by a low first action', () => {
    expect(severityFor([anAction('Recheck', { severity: 'low' }), anAction('Call 911', { severity: 'critical' })])).toBe('critical');
    expect(severityFor([anAction('Refer', { severity: 'high' }), anAction('Recheck', { severity: 'low' })])).toBe('high');
    expect(severityFor([anAction('Recheck', { severity: 'Medium' })])).toBe('medium');
  });

  it('counts an action without a severity as medium, and a rule with no action as low', () => {
    expect(severityFor([{ type: 'recommendation', message: 'Recheck' }, anAction('Diet', { severity: 'low' })])).toBe('medium');
    expect(ruleSeverity({ actions: [] })).toBe('low');
    expect(severityFor([])).toBe('low');
  });

  it('gives every action of the card its own severity, medium by default', () => {
    const step = clinicalStep(
      [aRule('High TSH', [cond(TSH.id, '>', 4.5)], { actions: [{ type: 'recommendation', message: 'Recheck' }] })],
      [TSH],
      {
        [TSH.id]: 6,
      },
    );
    expect(step.status === 'completed' && step.recommendation?.actions).toEqual([
      { type: 'recommendation', severity: 'medium', message: 'Recheck' },
    ]);
  });
});
