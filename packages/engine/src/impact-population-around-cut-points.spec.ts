import { runVignette } from './vignettes';
import { generatePopulation, ImpactComparer, seededRandom } from './impact';
import { aParameter, aRule, cond, ANTIBODIES, GLUCOSE, HBA1C } from './testing/builders';

/**
 * The generated population of the impact preview: deterministic for a seed, drawn on both sides
 * of every cut-point at the parameter's recorded precision, with unanswered questions, and
 * classified by the compiled engine exactly as the interpreter classifies it.
 */
describe('impact preview population drawn around the cut-points', () => {
  const TYPE = aParameter('dtype', 'select', { display_name: 'Diabetes type' });
  const EXAM = aParameter('eye_exam', 'date', { display_name: 'Last eye exam' });
  const BOUNDED = { ...GLUCOSE, validation_rules: { min: 40, max: 600, decimals: 0 } };
  const rules = [
    aRule('T2D', [cond(HBA1C.id, '>=', 6.5)], { actions: [{ type: 'recommendation', severity: 'high', message: 'T2D' }] }),
    aRule('Prediabetes', [cond(HBA1C.id, '>=', 5.7), cond(HBA1C.id, '<', 6.5)]),
    aRule('IFG', [cond(BOUNDED.id, '>=', 100), cond(BOUNDED.id, '<', 126)]),
    aRule('Low glucose', [cond(BOUNDED.id, '<', 41)], { actions: [{ type: 'referral', severity: 'critical', message: 'Treat' }] }),
    aRule('Autoimmune', [cond(ANTIBODIES.id, '=', true), cond(TYPE.id, '=', 'Type 1')], { priority: 5 }),
    aRule('Eye exam overdue', [cond(EXAM.id, 'within_days', 365)]),
  ];
  const parameters = [HBA1C, BOUNDED, ANTIBODIES, TYPE, EXAM];
  const now = '2026-11-23';
  const population = generatePopulation(rules, parameters, { size: 2_000, seed: 13, now });

  it('is the same population for the same seed, and another for another seed', () => {
    expect(generatePopulation(rules, parameters, { size: 2_000, seed: 13, now })).toEqual(population);
    expect(generatePopulation(rules, parameters, { size: 2_000, seed: 14, now })).not.toEqual(population);
  });

  it('draws A1C below, on and above 6.5 and 5.7 at one decimal, and leaves some unanswered', () => {
    const a1c = population.map((p) => p.answers[HBA1C.id]);
    for (const v of [5.6, 5.7, 5.8, 6.4, 6.5, 6.6]) expect(a1c).toContain(v);
    expect(a1c.filter((v) => v === undefined).length).toBeGreaterThan(100);
    expect(a1c.every((v) => v === undefined || (typeof v === 'number' && Math.abs(v * 10 - Math.round(v * 10)) < 1e-9))).toBe(true);
  });

  it("keeps drawn values within the parameter's plausible range (glucose never below 40)", () => {
    const glucose = population.map((p) => p.answers[BOUNDED.id]).filter((v): v is number => typeof v === 'number');
    expect(Math.min(...glucose)).toBe(40);
    expect(glucose).toContain(125);
    expect(glucose).toContain(126);
  });

  it('draws booleans, the named option and another one, and eye exams either side of 365 days', () => {
    const values = (id: string) => new Set(population.map((p) => p.answers[id]));
    expect(values(ANTIBODIES.id)).toEqual(new Set([true, false, undefined]));
    expect(values(TYPE.id)).toEqual(new Set(['Type 1', 'not Type 1', undefined]));
    expect(values(EXAM.id)).toEqual(new Set(['2025-11-23', '2025-11-22', undefined]));
  });

  it('gives every patient the primary recommendation the interpreter gives (three-valued, unanswered unknown)', () => {
    const draft = rules.map((r) => (r.name === 'T2D' ? { ...r, conditions: [cond(HBA1C.id, '>=', 7)] } : r));
    const result = new ImpactComparer(rules, draft, parameters).compare(population, { examples: Infinity });
    let changed = 0;
    population.forEach((patient, i) => {
      const before = runVignette(rules, parameters, patient.answers, { now: patient.now }).primary;
      const after = runVignette(draft, parameters, patient.answers, { now: patient.now }).primary;
      if (before === after) return;
      changed++;
      expect(result.transitions.find((t) => t.examples.includes(i))).toMatchObject({ from: before, to: after });
    });
    expect(result.changed).toBe(changed);
    expect(changed).toBeGreaterThan(0);
  });

  it('seededRandom is uniform enough to reach both ends of [0, 1)', () => {
    const random = seededRandom(1);
    const draws = Array.from({ length: 1_000 }, random);
    expect(Math.min(...draws)).toBeLessThan(0.01);
    expect(Math.max(...draws)).toBeGreaterThan(0.99);
  });
});
