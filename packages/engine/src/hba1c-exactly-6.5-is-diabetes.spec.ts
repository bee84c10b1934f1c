import { clinicalOptions } from './clinical';
import { assess, aRule, band, cond, HBA1C } from './testing/builders';

/**
 * ADA Standards of Care 2026, Section 2: A1C ≥ 6.5 % is diabetes, 5.7–6.4 % prediabetes, written
 * as half-open ranges. On main an A1C of exactly 6.5 % fitted only the band "5.7-6.5" and was
 * recorded as prediabetes (issue 9).
 */
describe('HbA1c of exactly 6.5 % is diabetes', () => {
  const diabetes = aRule('Diabetes (A1C)', [cond(HBA1C.id, '>=', 6.5)], {
    actions: [{ type: 'recommendation', severity: 'high', message: 'Diagnose diabetes; confirm with a second test' }],
  });
  const prediabetes = aRule('Prediabetes (A1C)', [cond(HBA1C.id, '>=', 5.7), cond(HBA1C.id, '<', 6.5)], {
    actions: [{ type: 'lifestyle', severity: 'medium', message: 'Refer to a diabetes prevention programme' }],
  });
  const rules = [diabetes, prediabetes];

  it('gives the diabetes rule, and not prediabetes, for a typed 6.5', () => {
    const { final } = assess(rules, [HBA1C], { [HBA1C.id]: 6.5 });
    expect(final.findings.map((f) => f.rule_name)).toEqual(['Diabetes (A1C)']);
    expect(final.recommendation).toMatchObject({
      rule_name: 'Diabetes (A1C)',
      severity: 'high',
      basis: [{ operator: 'greater_equal', threshold: 6.5, value: 6.5 }],
    });
  });

  it('gives prediabetes for the band "5.7 to < 6.5 %"', () => {
    const prediabetesBand = clinicalOptions(HBA1C, rules).find((o) => o.label === 'HbA1c 5.7 to < 6.5 %')!;
    expect(prediabetesBand.value).toEqual(band(5.7, 6.5, true, false));
    const { final } = assess(rules, [HBA1C], { [HBA1C.id]: prediabetesBand.value });
    expect(final.findings.map((f) => f.rule_name)).toEqual(['Prediabetes (A1C)']);
  });

  it('puts 6.5 in the upper band, never in "5.7 to < 6.5"', () => {
    const options = clinicalOptions(HBA1C, rules);
    expect(options.map((o) => o.label)).toEqual(['HbA1c < 5.7 %', 'HbA1c 5.7 to < 6.5 %', 'HbA1c ≥ 6.5 %', 'Not available']);
    expect(options[2].value).toEqual(band(6.5, null, true, false));
  });

  it('gives diabetes for the band "≥ 6.5 %" and nothing for "< 5.7 %"', () => {
    expect(assess(rules, [HBA1C], { [HBA1C.id]: band(6.5, null, true, false) }).final.recommendation?.rule_name).toBe('Diabetes (A1C)');
    expect(assess(rules, [HBA1C], { [HBA1C.id]: band(null, 5.7, false, false) }).final).toMatchObject({
      recommendation: null,
      findings: [],
      undetermined_rules: [],
    });
  });
});
