import { analyzeRuleSet } from './analysis';
import { aRule, cond, HBA1C, SMOKER } from './testing/builders';
import type { Finding } from './types';

const atCutPoints = (findings: Finding[]): Finding[] =>
  findings.filter((f) => f.code === 'cut_point_gap' || f.code === 'cut_point_overlap');

describe("analyzeRuleSet: gaps and overlaps at a parameter's cut-points", () => {
  it('finds the value that matches neither "< 6.5" nor "> 6.5"', () => {
    const below = aRule('Prediabetes', [cond(HBA1C.id, '<', 6.5)]);
    const above = aRule('Diabetes', [cond(HBA1C.id, '>', 6.5)]);
    expect(atCutPoints(analyzeRuleSet([above, below], [HBA1C]))).toEqual([
      {
        code: 'cut_point_gap',
        severity: 'warning',
        rule_ids: [below.id, above.id],
        parameter_id: HBA1C.id,
        message: 'HbA1c of exactly 6.5 matches neither rule "Prediabetes" (below 6.5) nor rule "Diabetes" (above 6.5).',
      },
    ]);
  });

  it('finds the value that matches both "<= 6.5" and ">= 6.5"', () => {
    const below = aRule('Prediabetes', [cond(HBA1C.id, '<=', 6.5)]);
    const above = aRule('Diabetes', [cond(HBA1C.id, '>=', 6.5)]);
    expect(atCutPoints(analyzeRuleSet([below, above], [HBA1C]))).toEqual([
      expect.objectContaining({
        code: 'cut_point_overlap',
        severity: 'warning',
        message: 'HbA1c of exactly 6.5 matches both rule "Prediabetes" (6.5 or below) and rule "Diabetes" (6.5 or above).',
      }),
    ]);
  });

  it('is quiet when the bands meet properly', () => {
    const rules = [
      aRule('Normal', [cond(HBA1C.id, '<', 5.7)]),
      aRule('Pre', [cond(HBA1C.id, '>=', 5.7), cond(HBA1C.id, '<', 6.5)]),
      aRule('Diabetes', [cond(HBA1C.id, '>=', 6.5)]),
    ];
    expect(atCutPoints(analyzeRuleSet(rules, [HBA1C]))).toEqual([]);
  });

  it('is quiet when another rule covers the cut-point', () => {
    const rules = [
      aRule('Below', [cond(HBA1C.id, '<', 6.5)]),
      aRule('Above', [cond(HBA1C.id, '>', 6.5)]),
      aRule('Exactly', [cond(HBA1C.id, '==', 6.5)]),
    ];
    expect(atCutPoints(analyzeRuleSet(rules, [HBA1C]))).toEqual([]);
  });

  it('is quiet when the two rules are about different patients', () => {
    const rules = [
      aRule('Smoker below', [cond(HBA1C.id, '<', 6.5), cond(SMOKER.id, 'equals', true)]),
      aRule('Non-smoker above', [cond(HBA1C.id, '>', 6.5), cond(SMOKER.id, 'equals', false)]),
    ];
    expect(atCutPoints(analyzeRuleSet(rules, [HBA1C, SMOKER]))).toEqual([]);
  });
});
