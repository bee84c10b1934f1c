import { analyzeRuleSet } from './analysis';
import { aParameter, aRule, cond, HBA1C, NOTES } from './testing/builders';
import type { Condition, Finding } from './types';

const find = (findings: Finding[], code: Finding['code']): Finding[] => findings.filter((f) => f.code === code);

describe('analyzeRuleSet: conditions on missing or inactive parameters', () => {
  it('reports a parameter that does not exist as an error', () => {
    const rule = aRule('R', [cond('p-deleted', '>', 1)]);
    expect(find(analyzeRuleSet([rule], [HBA1C]), 'missing_parameter')).toEqual([
      {
        code: 'missing_parameter',
        severity: 'error',
        rule_ids: [rule.id],
        message: 'Rule "R": condition 1 uses the parameter "p-deleted", which does not exist, so it can never be answered.',
      },
    ]);
  });

  it('reports an inactive parameter as a warning', () => {
    const retired = aParameter('old_a1c', 'number', { display_name: 'Old A1c', is_active: false });
    const rule = aRule('R', [cond(retired.id, '>', 7)]);
    expect(find(analyzeRuleSet([rule], [retired]), 'inactive_parameter')).toEqual([
      {
        code: 'inactive_parameter',
        severity: 'warning',
        rule_ids: [rule.id],
        parameter_id: retired.id,
        message: 'Rule "R": condition 1 uses the inactive parameter Old A1c, which is no longer asked.',
      },
    ]);
  });

  it('warns about a reference that fits two parameters, and notes references by name', () => {
    const a = aParameter('weight', 'number', { id: 'p-a', display_name: 'Weight (kg)' });
    const b = aParameter('Weight', 'number', { id: 'p-b', display_name: 'Weight (lb)' });
    const rule = aRule('R', [cond('WEIGHT', '>', 100)]);
    const findings = analyzeRuleSet([rule], [a, b]);
    expect(find(findings, 'ambiguous_parameter')[0]).toMatchObject({ severity: 'warning', parameter_id: 'p-a' });
    expect(find(findings, 'parameter_by_name')[0]).toMatchObject({ severity: 'info' });
  });
});

describe('analyzeRuleSet: operators and values', () => {
  it('reports an unknown operator as an error', () => {
    const rule = aRule('R', [cond(HBA1C.id, 'about', 7)]);
    expect(find(analyzeRuleSet([rule], [HBA1C]), 'unknown_operator')).toEqual([
      {
        code: 'unknown_operator',
        severity: 'error',
        rule_ids: [rule.id],
        parameter_id: HBA1C.id,
        message: 'Rule "R": condition 1 uses the unknown operator "about" on HbA1c; it always fails.',
      },
    ]);
  });

  it('reports an operator invalid for the data type', () => {
    const rule = aRule('R', [cond(NOTES.id, '>', 5)]);
    expect(find(analyzeRuleSet([rule], [NOTES]), 'operator_invalid_for_type')[0]).toMatchObject({
      severity: 'error',
      message: 'Rule "R": condition 1 compares Clinical Notes (text) with "greater_than", which does not apply to that kind of value.',
    });
  });

  it('reports a value the condition can never use as an error', () => {
    const rule = aRule('R', [cond(HBA1C.id, '>', 'high')]);
    expect(find(analyzeRuleSet([rule], [HBA1C]), 'invalid_value')).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: 'Rule "R": condition 1 can never be true: HbA1c is compared with a number; "high" is not a number.',
      }),
    ]);
  });

  it('warns about a number stored as text, which works but is not what the editor saves', () => {
    const rule = aRule('R', [cond(HBA1C.id, '>', '7')]);
    expect(find(analyzeRuleSet([rule], [HBA1C]), 'invalid_value')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message:
          'Rule "R": condition 1 is read as above 7, but it is stored in the wrong form: HbA1c is compared with a number; "7" is not a number.',
      }),
    ]);
  });

  it('warns about logic that is neither AND nor OR', () => {
    const rule = aRule('R', [{ ...cond(HBA1C.id, '>', 7), logic: 'XOR' } as unknown as Condition, cond(HBA1C.id, '<', 9)]);
    expect(find(analyzeRuleSet([rule], [HBA1C]), 'invalid_logic')[0]).toMatchObject({
      severity: 'warning',
      message: 'Rule "R": condition 1 is joined to the next by "XOR", which is read as AND.',
    });
  });

  it('warns about a rule with no actions', () => {
    const rule = aRule('R', [cond(HBA1C.id, '>', 7)], { actions: [] });
    expect(find(analyzeRuleSet([rule], [HBA1C]), 'no_actions')[0]).toMatchObject({
      severity: 'warning',
      message: 'Rule "R" has no actions: when it fires, the clinician is given no advice.',
    });
  });

  it('lists errors before warnings before information', () => {
    const rules = [
      aRule('Info', [cond('hba1c', '>', 7)]),
      aRule('Warn', [cond(HBA1C.id, '>', 8)], { actions: [] }),
      aRule('Err', [cond(HBA1C.id, '??', 7)]),
    ];
    const severities = analyzeRuleSet(rules, [HBA1C]).map((f) => f.severity);
    expect(severities).toEqual(
      [...severities].sort((a, b) => ['error', 'warning', 'info'].indexOf(a) - ['error', 'warning', 'info'].indexOf(b)),
    );
    expect(severities[0]).toBe('error');
    expect(severities.at(-1)).toBe('info');
  });

  it('has nothing to say about a clean rule set', () => {
    const rules = [
      aRule('Diabetes', [cond(HBA1C.id, '>=', 6.5)]),
      aRule('Prediabetes', [cond(HBA1C.id, '>=', 5.7), cond(HBA1C.id, '<', 6.5)]),
    ];
    expect(analyzeRuleSet(rules, [HBA1C])).toEqual([]);
  });
});
