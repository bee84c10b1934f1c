import { decimalsFor, Grid } from './analysis-precision';
import { prepareRule, evaluatePreparedRule } from './evaluate';
import { orderFindings, rankRules, ruleSeverity } from './findings';
import { buildParameterIndex } from './parameters';
import type { Answers, EngineParameter, EngineRule, EvaluationOptions } from './types';

/**
 * Patient vignettes: a set of answers run through every rule a clinician would get, giving the
 * rules that fire and the primary recommendation. Rule-set test cases are vignettes, and the
 * sandbox generates them at each cut-point.
 */

export interface VignetteResult {
  /** Ids of the rules that fired, in ranking order (the first is the primary recommendation). */
  fired: string[];
  primary: string | null;
  /** Ids of rules that could not be decided with these answers. */
  undetermined: string[];
}

/**
 * The order findings are shown in, the same as the assessment's: critical first, then high, then
 * the rest; within a tier priority high first, then more conditions, then name (engine ranking).
 */
export function rankFindings<T extends EngineRule>(rules: readonly T[]): T[] {
  return orderFindings(rankRules(rules).map((rule) => ({ rule: rule as T, severity: ruleSeverity(rule) }))).map((e) => e.rule);
}

/** Every rule against one set of answers; unanswered conditions are unknown, never satisfied. */
export function runVignette(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  answers: Answers,
  options: EvaluationOptions = {},
): VignetteResult {
  const index = buildParameterIndex(parameters);
  const fired: EngineRule[] = [];
  const undetermined: string[] = [];
  for (const rule of rules) {
    const { result } = evaluatePreparedRule(prepareRule(rule, index), answers, { ...options, unanswered: 'unknown' });
    if (result === true) fired.push(rule);
    else if (result === 'unknown') undetermined.push(rule.id);
  }
  const ranked = rankFindings(fired).map((r) => r.id);
  return { fired: ranked, primary: ranked[0] ?? null, undetermined };
}

/** A vignette passes when exactly the expected rules fire and the expected one is primary. */
export function vignettePasses(expected: { fired: readonly string[]; primary: string | null }, actual: VignetteResult): boolean {
  const want = [...new Set(expected.fired)].sort();
  const got = [...actual.fired].sort();
  return want.length === got.length && want.every((id, i) => id === got[i]) && expected.primary === actual.primary;
}

export interface BoundaryVignette {
  parameter_id: string;
  parameter_name: string;
  display_name: string;
  /** The parameter's unit as stored (a UCUM code); the caller shows it in its display form. */
  units: string | null;
  cut_point: number;
  /** -1: one recorded step below the cut-point, 0: on it, 1: one step above. */
  position: -1 | 0 | 1;
  value: number;
  /** Decimal places the parameter is recorded at, and so the size of the step. */
  decimals: number;
  answers: Answers;
  result: VignetteResult;
}

const CUT_OPERATORS = new Set(['greater_than', 'greater_equal', 'less_than', 'less_equal', 'equals', 'not_equals']);

function limits(p: EngineParameter): { min: number; max: number } {
  const r = (p.validation_rules ?? {}) as { min?: unknown; max?: unknown };
  return {
    min: typeof r.min === 'number' && Number.isFinite(r.min) ? r.min : -Infinity,
    max: typeof r.max === 'number' && Number.isFinite(r.max) ? r.max : Infinity,
  };
}

/**
 * For every cut-point a numeric condition uses, the values one recorded step below it, on it and
 * one step above (the step is 10^-decimals: validation_rules.decimals, or the precision the rules
 * are written at), each run through every rule with `base` answers for the other parameters.
 * A cut-point between recorded values (6.55 at one decimal) gives the two values around it;
 * values outside the parameter's plausible min/max are left out.
 */
export function boundaryVignettes(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  options: EvaluationOptions & { base?: Answers } = {},
): BoundaryVignette[] {
  const index = buildParameterIndex(parameters);
  const cuts = new Map<string, { parameter: EngineParameter; thresholds: Set<number> }>();
  for (const rule of rules) {
    const prepared = prepareRule(rule, index);
    for (const c of prepared.conditions) {
      if (!c.parameter || c.domain !== 'numeric' || c.failure !== null) continue;
      if (!c.op || !CUT_OPERATORS.has(c.op)) continue;
      const t = c.num;
      if (!Number.isFinite(t)) continue;
      const entry = cuts.get(c.parameter.id) ?? { parameter: c.parameter, thresholds: new Set<number>() };
      entry.thresholds.add(t);
      cuts.set(c.parameter.id, entry);
    }
  }
  const out: BoundaryVignette[] = [];
  const { base = {}, ...evaluation } = options;
  for (const { parameter, thresholds } of cuts.values()) {
    const sorted = [...thresholds].sort((a, b) => a - b);
    const decimals = decimalsFor(parameter, sorted);
    const grid = new Grid(decimals);
    const { min, max } = limits(parameter);
    for (const t of sorted) {
      const points: [-1 | 0 | 1, number][] = [[-1, grid.floor(t, true)]];
      if (grid.onGrid(t)) points.push([0, grid.ceil(t)]);
      points.push([1, grid.ceil(t, true)]);
      for (const [position, units] of points) {
        const value = grid.value(units);
        if (value < min || value > max) continue;
        const answers: Answers = { ...base, [parameter.id]: value };
        out.push({
          parameter_id: parameter.id,
          parameter_name: parameter.name,
          display_name: parameter.display_name || parameter.name,
          units: parameter.units ?? null,
          cut_point: t,
          position,
          value,
          decimals,
          answers,
          result: runVignette(rules, parameters, answers, evaluation),
        });
      }
    }
  }
  return out;
}
