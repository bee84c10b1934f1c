import { isAnyOf, prepareCriterionSpec, type CriterionSpec, type PreparedSpec } from '../criteria/any-of';
import type { CriterionResult } from '../criteria/types';
import { buildParameterIndex } from '../parameters';
import { evaluatePreparedRule, prepareRule, type PreparedRule } from '../evaluate';
import type { ParameterScale, UnitConversion } from '../record';
import type { Answers, EngineParameter, EngineRule, Tri } from '../types';

/**
 * A quality measure in the product's own model (issue 21): a rule set whose parameters read the
 * record through criteria, and whose rules say who is in each population. The same rules, criteria
 * and engine answer a PCP's form and the panel's measure.
 */
export const POPULATION_CODES = [
  'initial-population',
  'denominator',
  'denominator-exclusion',
  'denominator-exception',
  'numerator',
  'numerator-exclusion',
] as const;
export type PopulationCode = (typeof POPULATION_CODES)[number];

export interface MeasureModel {
  parameters: readonly EngineParameter[];
  rules: readonly EngineRule[];
  /** The rules of each population: a patient is in it when one of them holds. */
  populations: Partial<Record<PopulationCode, readonly string[]>>;
}

/** One patient's populations (proportion scoring), each three-valued, with the answers that decided them. */
export interface MeasureOutcome {
  populations: Record<PopulationCode, Tri>;
  answers: Answers;
  inputs: Record<string, CriterionResult>;
}

/**
 * How much of the record an input was read from, when not all of it (a hook call reads the EHR's record
 * by searches that can fail or stop at a page): `unread` leaves the input unknown; `partial` keeps a
 * positive answer but makes "none found" (false) unknown, never a no.
 */
export type RecordCoverage = 'unread' | 'partial';

export interface PreparedMeasure {
  evaluate(
    resources: readonly unknown[],
    period: { start: string; end: string },
    now: number,
    coverage?: ReadonlyMap<string, RecordCoverage>,
    options?: MeasureEvaluationOptions,
  ): MeasureOutcome;
}

export interface MeasureEvaluationOptions {
  /**
   * Read the initial population's inputs first and stop when it does not hold (every population is then
   * false, as a whole evaluation gives): `answers` and `inputs` hold only what was read. For callers that
   * need only the populations of a patient outside the measure (a hook call's gap cards), not its answers.
   */
  stopOutside?: boolean;
}

/** How a numeric parameter's record values are read: its unit, plausible limits and accepted units. */
export function scaleOf(p: EngineParameter): ParameterScale {
  const r = (p.validation_rules ?? {}) as { min?: unknown; max?: unknown; units_accepted?: unknown };
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return {
    unit: p.units ?? null,
    min: num(r.min),
    max: num(r.max),
    conversions: Array.isArray(r.units_accepted) ? (r.units_accepted as UnitConversion[]) : [],
  };
}

const not3 = (a: Tri): Tri => (a === 'unknown' ? 'unknown' : !a);
const and3 = (a: Tri, b: Tri): Tri => (a === false || b === false ? false : a === 'unknown' || b === 'unknown' ? 'unknown' : true);
const or3 = (list: readonly Tri[]): Tri => (list.includes(true) ? true : list.includes('unknown') ? 'unknown' : false);

/**
 * Prepared once per measure version (criteria resolved against the value sets, rules compiled),
 * then evaluated per patient. Proportion scoring: the denominator is the initial population (and
 * its own rules, if any), exclusions and exceptions are taken from it, and the numerator counts
 * only denominator patients neither excluded nor excepted.
 */
export function prepareMeasure(model: MeasureModel, valueSets: ReadonlyMap<string, readonly string[]>): PreparedMeasure {
  const index = buildParameterIndex(model.parameters);
  const inputs: { parameter: EngineParameter; spec: PreparedSpec; types: string[] }[] = [];
  for (const p of model.parameters) {
    const spec = (p.validation_rules as { criterion?: CriterionSpec } | undefined)?.criterion;
    if (!spec) continue;
    const types = [...new Set((isAnyOf(spec) ? spec.any_of : [spec]).map((c) => c.resource_type))];
    inputs.push({ parameter: p, spec: prepareCriterionSpec(spec, { valueSets, scale: scaleOf(p) }), types });
  }
  const byId = new Map(model.rules.map((r) => [r.id, prepareRule(r, index)] as const));
  const rulesOf = (code: PopulationCode): PreparedRule[] =>
    (model.populations[code] ?? []).map((id) => byId.get(id)).filter((r): r is PreparedRule => !!r);
  const population = Object.fromEntries(POPULATION_CODES.map((c) => [c, rulesOf(c)])) as Record<PopulationCode, PreparedRule[]>;
  // The inputs the initial population's rules read (a condition's key is the parameter id it looks up).
  const ipKeys = new Set(population['initial-population'].flatMap((r) => r.conditions.map((c) => c.key)));
  const ipInputs = inputs.filter((i) => ipKeys.has(i.parameter.id));
  const outside = Object.fromEntries(POPULATION_CODES.map((c) => [c, false])) as Record<PopulationCode, Tri>;

  return {
    evaluate(resources, period, now, coverage, options) {
      let answers: Answers = {};
      let results: Record<string, CriterionResult> = {};
      // Each criterion reads only its own resource type: the record is sorted by type once per patient.
      const byType = new Map<string, unknown[]>();
      for (const r of resources) {
        const type = (r as { resourceType?: unknown }).resourceType;
        if (typeof type !== 'string') continue;
        const list = byType.get(type);
        if (list) list.push(r);
        else byType.set(type, [r]);
      }
      const read = ({ parameter, spec, types }: (typeof inputs)[number]) => {
        const own = types.length === 1 ? (byType.get(types[0]) ?? []) : resources;
        const r = spec.evaluate(own, { now, period, record: resources });
        const covered = coverage?.get(parameter.id);
        if (covered === 'unread' || (covered === 'partial' && r.value === false)) r.value = 'unknown';
        results[parameter.id] = r;
        answers[parameter.id] = r.value === 'unknown' ? 'unknown' : r.value;
      };
      const holds = (code: PopulationCode, none: Tri): Tri =>
        population[code].length ? or3(population[code].map((r) => evaluatePreparedRule(r, answers).result)) : none;
      if (options?.stopOutside) {
        for (const i of ipInputs) read(i);
        if (holds('initial-population', false) === false) return { populations: { ...outside }, answers, inputs: results };
        // In the measure: the rest read, and both kept in the inputs' order, as a whole evaluation keeps them.
        for (const i of inputs) if (!(i.parameter.id in results)) read(i);
        const [a, r] = [answers, results];
        answers = {};
        results = {};
        for (const { parameter: p } of inputs) [answers[p.id], results[p.id]] = [a[p.id], r[p.id]];
      } else for (const i of inputs) read(i);
      const ip = holds('initial-population', false);
      const den = and3(ip, holds('denominator', true));
      const denex = and3(den, holds('denominator-exclusion', false));
      const remaining = and3(den, not3(denex));
      const denexcep = and3(and3(remaining, not3(holds('numerator', false))), holds('denominator-exception', false));
      const num = and3(remaining, holds('numerator', false));
      const numex = and3(num, holds('numerator-exclusion', false));
      return {
        populations: {
          'initial-population': ip,
          denominator: den,
          'denominator-exclusion': denex,
          'denominator-exception': denexcep,
          numerator: and3(num, not3(numex)),
          'numerator-exclusion': numex,
        },
        answers,
        inputs: results,
      };
    },
  };
}
