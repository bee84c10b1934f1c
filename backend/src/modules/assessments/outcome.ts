import { randomUUID } from 'node:crypto';
import { normalizeAction, type BasisItem, type ConditionTrace, type EngineRule, type LogEntry, type Recommendation } from '../../engine';
import type { ActionJson, BasisJson, DebugLogEntry, RecommendationJson } from './assessment.entity';
import type { MatchedRule } from './chat-session.entity';
import type { Knowledge } from './published-rules';

/** The engine's results in the shapes that are stored and returned. */

/** A jsonb query parameter; null stays SQL NULL (not the JSON value null). */
export const jsonb = (value: unknown) => (value === null ? null : JSON.stringify(value));

export function toActions(actions: readonly unknown[] | undefined): ActionJson[] {
  return (actions ?? []).map((raw) => {
    const a = normalizeAction(raw);
    return { type: a.type, severity: a.severity ?? 'medium', message: a.message, value: a.value ?? null };
  });
}

export function toBasis(items: readonly BasisItem[], k: Knowledge): BasisJson[] {
  return items.map((b) => {
    const p = b.parameter_id ? k.parameterById.get(b.parameter_id) : undefined;
    return {
      parameter_id: b.parameter_id, parameter_name: b.parameter_name, display_name: p?.display_name ?? null, units: p?.units ?? null,
      operator: b.operator, threshold: b.threshold, value: b.value,
    };
  });
}

/** The conditions of a chat match that were checked and held. */
export function traceBasis(trace: readonly ConditionTrace[], k: Knowledge): BasisJson[] {
  return toBasis(
    trace.filter((t) => t.result === true).map((t) => ({
      parameter_id: t.parameter_id, parameter_name: t.parameter_name, operator: t.canonical_operator ?? t.operator, threshold: t.threshold, value: t.value,
    })),
    k,
  );
}

function ruleSetOf(rule: Pick<EngineRule, 'rule_set_id'>, k: Knowledge) {
  const v = rule.rule_set_id ? k.versionOfRuleSet.get(rule.rule_set_id) : undefined;
  if (!v) throw new Error(`Rule set ${String(rule.rule_set_id)} is not among the versions evaluated`);
  return v;
}

export function toRecommendation(r: Recommendation, k: Knowledge): RecommendationJson {
  const rule = k.rules.find((x) => x.id === r.rule_id)!;
  const v = ruleSetOf(rule, k);
  return {
    rule_id: r.rule_id, rule_name: r.rule_name, rule_version: r.rule_version ?? v.version,
    rule_set_id: v.rule_set_id, rule_set_name: v.name, rule_set_version_id: v.version_id,
    description: rule.description ?? '', severity: r.severity, actions: toActions(r.actions), basis: toBasis(r.basis, k),
    undetermined_higher_rules: r.undetermined_higher_rules ?? [],
  };
}

export function toMatchedRule(rule: EngineRule, trace: readonly ConditionTrace[], k: Knowledge, selected: boolean): MatchedRule {
  const v = ruleSetOf(rule, k);
  return {
    rule_id: rule.id, rule_name: rule.name, rule_version: rule.version ?? v.version, rule_set_id: v.rule_set_id, rule_set_name: v.name,
    basis: traceBasis(trace, k), selected,
  };
}

export function logEntries(entries: readonly LogEntry[], at: Date): DebugLogEntry[] {
  const timestamp = at.toISOString();
  return entries.map((e) => ({ id: randomUUID(), timestamp, type: e.type, message: e.message, data: e.data ?? null }));
}
