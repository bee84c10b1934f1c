import { evaluatePreparedCondition, prepareCondition, type PreparedCondition } from './condition';
import { toParameterIndex, type ParameterIndex } from './parameters';
import type { Answers, ConditionTrace, EngineParameter, EngineRule, EvaluationOptions, RuleEvaluation, Tri } from './types';
import { answerFor, referenceDay } from './values';

export interface PreparedRule {
  rule: EngineRule;
  conditions: PreparedCondition[];
  /** Condition indexes per AND group; the groups are joined by OR. */
  groups: number[][];
}

/**
 * `condition.logic` links a condition to the next one and AND binds tighter than OR,
 * so `a AND b OR c AND d` is `(a AND b) OR (c AND d)`. The last condition's logic links to
 * nothing and is ignored (the editor does not show it).
 */
export function groupConditions(conditions: readonly { orNext: boolean }[]): number[][] {
  const groups: number[][] = [];
  let current: number[] = [];
  conditions.forEach((condition, i) => {
    current.push(i);
    if (condition.orNext && i < conditions.length - 1) {
      groups.push(current);
      current = [];
    }
  });
  if (current.length > 0) groups.push(current);
  return groups;
}

export function prepareRule(rule: EngineRule, parameters: ParameterIndex): PreparedRule {
  const raw = Array.isArray(rule.conditions) ? rule.conditions : [];
  const conditions = raw.map((condition, i) => prepareCondition(condition, i, parameters));
  return { rule, conditions, groups: groupConditions(conditions) };
}

/** Kleene AND: false wins, then unknown. */
export function and3(a: Tri, b: Tri): Tri {
  if (a === false || b === false) return false;
  if (a === 'unknown' || b === 'unknown') return 'unknown';
  return true;
}

/** Kleene OR: true wins, then unknown. */
export function or3(a: Tri, b: Tri): Tri {
  if (a === true || b === true) return true;
  if (a === 'unknown' || b === 'unknown') return 'unknown';
  return false;
}

/**
 * Combines condition results. Skipped conditions (chat assistant, unanswered) drop out of
 * their group, a group with nothing checked drops out of the OR, and a rule with nothing
 * checked at all does not match: a rule needs at least one condition.
 */
export function combine(results: readonly (Tri | 'skipped')[], groups: readonly number[][]): Tri {
  let rule: Tri | null = null;
  for (const group of groups) {
    let value: Tri | null = null;
    for (const i of group) {
      const r = results[i];
      if (r === 'skipped') continue;
      value = value === null ? r : and3(value, r);
    }
    if (value !== null) rule = rule === null ? value : or3(rule, value);
  }
  return rule ?? false;
}

export function evaluatePreparedRule(prepared: PreparedRule, answers: Answers, options: EvaluationOptions = {}): RuleEvaluation {
  const skip = options.unanswered === 'skip';
  const day = referenceDay(options.now);
  const trace: ConditionTrace[] = [];
  const results: (Tri | 'skipped')[] = [];
  prepared.groups.forEach((group, g) => {
    for (const i of group) {
      const c = prepared.conditions[i];
      const answer = answerFor(answers, c.key);
      const outcome = evaluatePreparedCondition(c, answer, skip, day);
      results[i] = outcome.result;
      trace[i] = {
        index: i,
        group: g,
        parameter: c.reference,
        parameter_id: c.parameter?.id ?? null,
        parameter_name: c.parameter?.name ?? null,
        operator: c.operator,
        canonical_operator: c.op,
        threshold: c.threshold,
        value: answer === undefined ? null : answer,
        result: outcome.result,
        ...(outcome.reason ? { reason: outcome.reason } : {}),
      };
    }
  });
  return { result: combine(results, prepared.groups), trace };
}

/**
 * The plain interpreter: one rule, one set of answers, with a trace of every condition.
 * `parameters` may be a prebuilt index (buildParameterIndex) when many rules are evaluated.
 */
export function evaluateRule(
  rule: EngineRule,
  answers: Answers,
  parameters: readonly EngineParameter[] | ParameterIndex,
  options: EvaluationOptions = {},
): RuleEvaluation {
  return evaluatePreparedRule(prepareRule(rule, toParameterIndex(parameters)), answers, options);
}
