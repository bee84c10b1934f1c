import { analyzeRuleSet, runVignette, type EngineParameter, type EngineRule } from '@cds/engine';
import { DIABETES_TEMPLATES } from '../../parameters/diabetes-templates';
import { ADA_2026_PACK, packParameterKeys } from './ada-2026';

/** The shipped pack against the shipped templates, without a database: what install relies on. */
const parameters: EngineParameter[] = DIABETES_TEMPLATES.map((t) => ({
  id: t.name,
  name: t.name,
  display_name: t.display_name,
  data_type: t.data_type,
  units: t.units,
  validation_rules: t.validation_rules,
  is_active: true,
}));
const byName = new Map(parameters.map((p) => [p.name, p]));
const rules: EngineRule[] = ADA_2026_PACK.rules.map((r) => ({ ...r, id: r.key, rule_set_id: 'pack' }));

describe('the ADA 2026 pack', () => {
  it('reads only shipped templates, and every numeric cut-point lies within the template limits at its precision', () => {
    for (const key of packParameterKeys(ADA_2026_PACK)) expect(byName.has(key)).toBe(true);
    for (const r of ADA_2026_PACK.rules) {
      for (const c of r.conditions) {
        const rules = byName.get(c.parameter)!.validation_rules as { min?: number; max?: number; decimals?: number };
        if (typeof c.value !== 'number') continue;
        expect(c.value).toBeGreaterThanOrEqual(rules.min!);
        expect(c.value).toBeLessThanOrEqual(rules.max!);
        expect(Number(c.value.toFixed(rules.decimals!))).toBe(c.value);
      }
    }
  });

  it('every rule cites its source and has actions with a severity; rule keys and names are unique', () => {
    for (const r of ADA_2026_PACK.rules) {
      expect(r.source).toMatch(/ADA Standards of Care in Diabetes—2026|KDIGO 2024|ACC\/AHA 2017/);
      expect(r.actions.length).toBeGreaterThan(0);
      for (const a of r.actions) expect(['low', 'medium', 'high', 'critical']).toContain(a.severity);
    }
    expect(new Set(ADA_2026_PACK.rules.map((r) => r.key)).size).toBe(ADA_2026_PACK.rules.length);
    expect(new Set(ADA_2026_PACK.rules.map((r) => r.name)).size).toBe(ADA_2026_PACK.rules.length);
  });

  it('static analysis finds nothing to report', () => {
    expect(analyzeRuleSet(rules, parameters).filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it.each(ADA_2026_PACK.vignettes.map((v) => [v.name, v] as const))('vignette: %s', (_name, v) => {
    const result = runVignette(rules, parameters, v.answers, { now: new Date('2026-11-26T12:00:00Z') });
    expect([...result.fired].sort()).toEqual([...v.fired].sort());
  });
});
