import { prepareCriterion, type PreparedCriterion, type PrepareOptions } from './evaluate';
import type { Criterion, CriterionResult } from './types';

/**
 * What binds an input to the record: one criterion, or `any_of` several (CQL's `exists A or exists
 * B`: hospice shown by a discharge, an encounter, an order, a procedure or a diagnosis). `any_of`
 * is true when one of them is, unknown when none is and one is unknown, false otherwise.
 */
export type CriterionSpec = Criterion | { any_of: Criterion[] };

export const isAnyOf = (spec: CriterionSpec): spec is { any_of: Criterion[] } => 'any_of' in spec;

/** Takes that answer yes or no, so that several can be joined by `any_of`. */
export const BOOLEAN_TAKES: readonly string[] = ['exists', 'latest_is', 'latest_without_value'];

export interface PreparedSpec {
  evaluate: PreparedCriterion['evaluate'];
}

export function prepareCriterionSpec(spec: CriterionSpec, options: PrepareOptions = {}): PreparedSpec {
  if (!isAnyOf(spec)) return prepareCriterion(spec, options);
  const parts = spec.any_of.map((c) => prepareCriterion(c, options));
  return {
    evaluate(resources, context): CriterionResult {
      const results = parts.map((p) => p.evaluate(resources, context));
      const value = results.some((r) => r.value === true) ? true : results.some((r) => r.value === 'unknown') ? 'unknown' : false;
      return {
        value,
        evidence: results.flatMap((r) => r.evidence),
        set_aside: results.flatMap((r) => r.set_aside),
        future: results.flatMap((r) => r.future),
      };
    },
  };
}
