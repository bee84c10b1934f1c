import { clinicalStep } from './clinical';
import { anAction, aRule, cond, HBA1C, TSH } from './testing/builders';

describe('Clinical assessment: completes with every fired rule as a finding (issue 9 replaces "a win completes")', () => {
  it('completes with the rule, its actions and the answers it was based on', () => {
    const actions = [anAction('Start levothyroxine', { severity: 'high' })];
    const rule = aRule('Overt hypothyroidism', [cond('TSH', '>', 10)], { actions, version: 3, source: 'ATA 2014' });
    const step = clinicalStep([rule, aRule('Raised A1c', [cond(HBA1C.id, '>', 7)])], [TSH, HBA1C], { [TSH.id]: 12, [HBA1C.id]: 6 });
    expect(step).toMatchObject({ status: 'completed', undetermined_rules: [] });
    if (step.status !== 'completed') return;
    const finding = {
      rule_id: rule.id,
      rule_name: 'Overt hypothyroidism',
      rule_version: 3,
      description: null,
      priority: 0,
      actions,
      severity: 'high',
      source: 'ATA 2014',
      basis: [
        {
          parameter_id: TSH.id,
          parameter_name: 'TSH',
          display_name: 'Thyroid Stimulating Hormone',
          units: 'mIU/L',
          operator: 'greater_than',
          operator_symbol: '>',
          threshold: 10,
          value: 12,
        },
      ],
    };
    expect(step.recommendation).toEqual(finding);
    expect(step.findings).toEqual([finding]);
    expect(step.log.at(-1)).toEqual({ type: 'success', message: 'Rule "Overt hypothyroidism" matched (high)', data: { rule_id: rule.id } });
  });

  it('does not complete while a question could still fire another rule', () => {
    const step = clinicalStep(
      [aRule('Overt hypothyroidism', [cond(TSH.id, '>', 10)]), aRule('Raised A1c', [cond(HBA1C.id, '>', 7)])],
      [TSH, HBA1C],
      {
        [TSH.id]: 12,
      },
    );
    expect(step).toMatchObject({ status: 'question', parameter_id: HBA1C.id });
  });

  it('bases the finding only on the branch that was satisfied', () => {
    const rule = aRule('Either', [cond(TSH.id, '>', 10, 'OR'), cond(HBA1C.id, '>', 7)]);
    const step = clinicalStep([rule], [TSH, HBA1C], { [TSH.id]: 2, [HBA1C.id]: 8 });
    expect(step.status === 'completed' && step.recommendation?.basis.map((b) => b.parameter_id)).toEqual([HBA1C.id]);
  });

  it('shows a band in the basis as the band given, never a stand-in value', () => {
    const rule = aRule('Diabetes', [cond(HBA1C.id, '>=', 6.5)]);
    const given = { type: 'range' as const, min: 6.5, max: null, min_inclusive: true, max_inclusive: false };
    const step = clinicalStep([rule], [HBA1C], { [HBA1C.id]: given });
    expect(step.status === 'completed' && step.recommendation?.basis[0].value).toEqual(given);
  });
});
