import { clinicalStep } from './clinical';
import { anAction, aRule, cond, HBA1C, TSH } from './testing/builders';

describe('Clinical assessment: "A win completes the session with that recommendation."', () => {
  it('completes with the rule, its actions and the answers it was based on', () => {
    const actions = [anAction('Start levothyroxine', { severity: 'high' })];
    const rule = aRule('Overt hypothyroidism', [cond('TSH', '>', 10)], { actions, version: 3 });
    const step = clinicalStep([rule, aRule('Raised A1c', [cond(HBA1C.id, '>', 7)])], [TSH, HBA1C], { [TSH.id]: 12 });
    expect(step).toMatchObject({ status: 'completed', undetermined_rules: [] });
    if (step.status !== 'completed') return;
    expect(step.recommendation).toEqual({
      rule_id: rule.id,
      rule_name: 'Overt hypothyroidism',
      rule_version: 3,
      actions,
      severity: 'high',
      basis: [{ parameter_id: TSH.id, parameter_name: 'TSH', operator: 'greater_than', threshold: 10, value: 12 }],
    });
    expect(step.log.at(-1)).toEqual({ type: 'success', message: 'Rule "Overt hypothyroidism" matched', data: { rule_id: rule.id } });
  });

  it('bases the recommendation only on the branch that was satisfied', () => {
    const rule = aRule('Either', [cond(TSH.id, '>', 10, 'OR'), cond(HBA1C.id, '>', 7)]);
    const step = clinicalStep([rule], [TSH, HBA1C], { [TSH.id]: 2, [HBA1C.id]: 8 });
    expect(step.status === 'completed' && step.recommendation?.basis.map((b) => b.parameter_id)).toEqual([HBA1C.id]);
  });
});
