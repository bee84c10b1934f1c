import { clinicalStep } from './clinical';
import { anAction, aRule, cond, TSH } from './testing/builders';
import type { Action } from './types';

describe('Clinical assessment: "Result: severity icon and badge from the first action\'s severity (high red, medium yellow, low green; low by default)."', () => {
  const severityFor = (actions: Action[]): string | undefined => {
    const step = clinicalStep([aRule('High TSH', [cond(TSH.id, '>', 4.5)], { actions })], [TSH], { [TSH.id]: 6 });
    return step.status === 'completed' ? step.recommendation?.severity : undefined;
  };

  it("takes the first action's severity", () => {
    expect(severityFor([anAction('Refer', { severity: 'high' }), anAction('Recheck', { severity: 'low' })])).toBe('high');
    expect(severityFor([anAction('Recheck', { severity: 'Medium' })])).toBe('medium');
  });

  it('is low when the first action has none, or there is no action', () => {
    expect(severityFor([{ type: 'recommendation', message: 'Recheck' }])).toBe('low');
    expect(severityFor([])).toBe('low');
  });
});
