import { analyzeRuleSet } from './analysis';
import { aParameter, aRule, cond } from './testing/builders';
import type { EngineParameter, Finding } from './types';

const atCutPoints = (findings: Finding[]): Finding[] =>
  findings.filter((f) => f.code === 'cut_point_gap' || f.code === 'cut_point_overlap');

const hba1c = (decimals?: number): EngineParameter =>
  aParameter('hba1c', 'lab_range', { display_name: 'HbA1c', units: '%', validation_rules: decimals === undefined ? {} : { decimals } });

const normalAndPre = () => [aRule('Normal', [cond('p-hba1c', '<=', 5.6)]), aRule('Prediabetes', [cond('p-hba1c', '>=', 5.7)])];

describe('analyzeRuleSet: gaps and overlaps on the grid a parameter is recorded at', () => {
  it('"<= 5.6" and ">= 5.7" meet when HbA1c is recorded to one decimal', () => {
    expect(atCutPoints(analyzeRuleSet(normalAndPre(), [hba1c(1)]))).toEqual([]);
  });

  it('"<= 5.6" and ">= 5.7" leave 5.61 to 5.69 when HbA1c is recorded to two decimals', () => {
    const rules = normalAndPre();
    expect(atCutPoints(analyzeRuleSet(rules, [hba1c(2)]))).toEqual([
      {
        code: 'cut_point_gap',
        severity: 'warning',
        rule_ids: [rules[0].id, rules[1].id],
        parameter_id: 'p-hba1c',
        message:
          'HbA1c from 5.61 to 5.69 (recorded to 2 decimals) matches neither rule "Normal" (5.6 or below) nor rule "Prediabetes" (5.7 or above).',
      },
    ]);
  });

  it('without declared decimals, reads the parameter at the precision its thresholds are written at', () => {
    expect(atCutPoints(analyzeRuleSet(normalAndPre(), [hba1c()]))).toEqual([]);
  });

  it('a third rule covering the in-between values closes the gap', () => {
    const rules = [...normalAndPre(), aRule('Borderline', [cond('p-hba1c', '>', 5.6), cond('p-hba1c', '<', 5.7)])];
    expect(atCutPoints(analyzeRuleSet(rules, [hba1c(2)]))).toEqual([]);
  });

  it('bands far apart ("< 5.7" and ">= 6.5") are a deliberate hole, not a gap', () => {
    const rules = [aRule('Normal', [cond('p-hba1c', '<', 5.7)]), aRule('Diabetes', [cond('p-hba1c', '>=', 6.5)])];
    expect(atCutPoints(analyzeRuleSet(rules, [hba1c(2)]))).toEqual([]);
  });

  it('"< 6.5" and "> 6.5" leave no gap when the value is recorded in whole units (6.5 cannot be recorded)', () => {
    const rules = [aRule('Below', [cond('p-hba1c', '<', 6.5)]), aRule('Above', [cond('p-hba1c', '>', 6.5)])];
    expect(atCutPoints(analyzeRuleSet(rules, [hba1c(0)]))).toEqual([]);
    expect(atCutPoints(analyzeRuleSet(rules, [hba1c(1)])).map((f) => f.code)).toEqual(['cut_point_gap']);
  });

  it('"<= 130" and ">= 130" overlap at 130 mmHg; "< 130" and ">= 130" do not', () => {
    const sbp = aParameter('sbp', 'vitals', {
      display_name: 'Systolic Blood Pressure',
      units: 'mm[Hg]',
      validation_rules: { decimals: 0 },
    });
    const overlapping = [aRule('Target', [cond(sbp.id, '<=', 130)]), aRule('Stage 1', [cond(sbp.id, '>=', 130)])];
    expect(atCutPoints(analyzeRuleSet(overlapping, [sbp]))).toEqual([
      expect.objectContaining({
        code: 'cut_point_overlap',
        message: 'Systolic Blood Pressure of exactly 130 matches both rule "Target" (130 or below) and rule "Stage 1" (130 or above).',
      }),
    ]);
    const halfOpen = [aRule('Target', [cond(sbp.id, '<', 130)]), aRule('Stage 1', [cond(sbp.id, '>=', 130)])];
    expect(atCutPoints(analyzeRuleSet(halfOpen, [sbp]))).toEqual([]);
  });
});
