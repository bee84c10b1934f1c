import { prepareRule, type PreparedRule } from './evaluate';
import { compareRules } from './findings';
import { buildParameterIndex, type ParameterIndex } from './parameters';
import type { EngineParameter, EngineRule } from './types';

/**
 * Rules and parameters read, resolved and ranked once. A published rule-set version never changes,
 * so a service can prepare it once and pass it with every step instead of the engine re-reading
 * every condition on every answer (about a tenth of an answer's CPU; docs/benchmarks.md).
 */
export interface PreparedRuleSet {
  readonly rules: readonly EngineRule[];
  readonly parameters: readonly EngineParameter[];
  readonly index: ParameterIndex;
  /** Each rule prepared, in the order given. */
  readonly inOrder: readonly PreparedRule[];
  /** The same prepared rules in ranking order (compareRules). */
  readonly ranked: readonly PreparedRule[];
}

export function prepareRuleSet(rules: readonly EngineRule[], parameters: readonly EngineParameter[]): PreparedRuleSet {
  const index = buildParameterIndex(parameters);
  const inOrder = rules.map((rule) => prepareRule(rule, index));
  const ranked = [...inOrder].sort((a, b) => compareRules(a.rule, b.rule));
  return { rules, parameters, index, inOrder, ranked };
}

/**
 * `prepared` when it was made from exactly these rules and parameters (the same arrays), otherwise
 * prepared now: a caller passing a stale or foreign preparation gets the right answer, only slower.
 */
export function preparedFor(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  prepared: PreparedRuleSet | undefined,
): PreparedRuleSet {
  return prepared && prepared.rules === rules && prepared.parameters === parameters ? prepared : prepareRuleSet(rules, parameters);
}
