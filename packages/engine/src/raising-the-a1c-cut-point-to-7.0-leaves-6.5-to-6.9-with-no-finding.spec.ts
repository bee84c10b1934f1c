import { uncoveredBands } from './analysis-uncovered';
import { aRule, anAction, cond, GLUCOSE, HBA1C } from './testing/builders';
import type { EngineParameter } from './types';

/**
 * Issue 20: a draft that raises the A1C diabetes cut-point from 6.5 to 7.0 % without moving
 * prediabetes leaves 6.5 to < 7 % with no finding at all. The publish check warns, in words a
 * physician-administrator reads without the rule designer open.
 */
describe('raising the A1C cut-point to 7.0 without moving prediabetes leaves 6.5–6.9 % with no finding', () => {
  const A1C: EngineParameter = { ...HBA1C, validation_rules: { min: 3, max: 20, decimals: 1 } };
  const diabetes = aRule('Diabetes (A1C)', [cond(A1C.id, '>=', 6.5)], { actions: [anAction('Diagnose', { severity: 'high' })] });
  const prediabetes = aRule('Prediabetes (A1C)', [cond(A1C.id, '>=', 5.7), cond(A1C.id, '<', 6.5)]);
  const published = { rules: [diabetes, prediabetes], parameters: [A1C] };
  const raised = { ...diabetes, conditions: [cond(A1C.id, '>=', 7.0)] };

  it('warns that HbA1c 6.5 to < 7 % no longer gives any finding, naming the rule that gave one', () => {
    expect(uncoveredBands(published, { rules: [raised, prediabetes], parameters: [A1C] })).toEqual([
      {
        code: 'uncovered_band',
        severity: 'warning',
        rule_ids: [diabetes.id],
        parameter_id: A1C.id,
        message:
          'HbA1c 6.5 to < 7 %: no rule gives a finding in this range any more. The published version gave "Diabetes (A1C)"; ' +
          'after publishing, patients with these values get no finding from HbA1c. Extend a rule to cover the range, or acknowledge if the change is intended.',
      },
    ]);
  });

  it('no warning when prediabetes is widened to < 7.0 % with it', () => {
    const widened = { ...prediabetes, conditions: [cond(A1C.id, '>=', 5.7), cond(A1C.id, '<', 7.0)] };
    expect(uncoveredBands(published, { rules: [raised, widened], parameters: [A1C] })).toEqual([]);
  });

  it('no warning for the range that never had a finding (below 5.7 %: a healthy result)', () => {
    expect(uncoveredBands(published, published)).toEqual([]);
  });

  it('a rule that also needs another value still covers the range: the finding is possible', () => {
    const both = aRule('Diabetes (A1C and glucose)', [cond(A1C.id, '>=', 6.5), cond(GLUCOSE.id, '>=', 126)]);
    expect(uncoveredBands(published, { rules: [raised, prediabetes, both], parameters: [A1C, GLUCOSE] })).toEqual([]);
  });

  it('removing prediabetes too merges the ranges into one warning naming both rules', () => {
    const [finding] = uncoveredBands(published, { rules: [raised], parameters: [A1C] });
    expect(finding).toMatchObject({ rule_ids: [prediabetes.id, diabetes.id] });
    expect(finding.message).toMatch(/^HbA1c 5\.7 to < 7 %: no rule gives a finding/);
  });

  it('a range outside the plausible limits is not reported', () => {
    const implausible = aRule('Implausible A1C', [cond(A1C.id, '>', 25)]);
    expect(uncoveredBands({ rules: [implausible], parameters: [A1C] }, { rules: [], parameters: [A1C] })).toEqual([]);
  });
});
