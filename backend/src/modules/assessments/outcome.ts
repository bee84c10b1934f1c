import { randomUUID } from 'node:crypto';
import {
  type ActionJson,
  type AnswerDetailJson,
  type AssessmentResultJson,
  type BasisJson,
  type FindingJson,
  type RuledOutJson,
  type UndeterminedRuleJson,
} from '@cds/contracts';
import {
  noFindingMessage,
  normalizeAction,
  ruledOutStatement,
  type BasisItem,
  type EngineRule,
  type LogEntry,
  type RuledOutItem,
  type RuleFinding,
  type UndeterminedRule,
} from '@cds/engine';
import type { DebugLogEntry } from './assessment.entity';
import type { MatchedRule } from './chat-session.entity';
import type { Knowledge } from './published-rules';

/** The engine's results in the shapes that are stored and returned, with display names and the answers as entered. */

/** A jsonb query parameter; null stays SQL NULL (not the JSON value null). */
export const jsonb = (value: unknown) => (value === null ? null : JSON.stringify(value));

export function toActions(actions: readonly unknown[] | undefined): ActionJson[] {
  return (actions ?? []).map((raw) => {
    const a = normalizeAction(raw);
    return { type: a.type, severity: a.severity ?? 'medium', message: a.message, value: a.value ?? null };
  });
}

/** Answers as entered, by parameter id: the basis shows these, never a stand-in. */
export type Entered = ReadonlyMap<string, AnswerDetailJson>;
export const enteredOf = (details: readonly AnswerDetailJson[]): Entered => new Map(details.map((d) => [d.parameter_id, d]));

export function toBasis(items: readonly BasisItem[], k: Knowledge, entered: Entered): BasisJson[] {
  return items.map((b) => {
    const p = b.parameter_id ? k.parameterById.get(b.parameter_id) : undefined;
    const given = b.parameter_id ? entered.get(b.parameter_id) : undefined;
    return {
      parameter_id: b.parameter_id,
      parameter_name: b.parameter_name,
      display_name: b.display_name ?? p?.display_name ?? null,
      units: b.units ?? p?.units ?? null,
      operator: b.operator,
      threshold: b.threshold,
      value: given ? given.value : b.value,
      label: given?.label ?? null,
      unit: given?.unit ?? p?.units ?? null,
    };
  });
}

function ruleSetOf(rule: Pick<EngineRule, 'rule_set_id'>, k: Knowledge) {
  const v = rule.rule_set_id ? k.versionOfRuleSet.get(rule.rule_set_id) : undefined;
  if (!v) throw new Error(`Rule set ${String(rule.rule_set_id)} is not among the versions evaluated`);
  return v;
}

/** The rule's citation, else its rule set's, else none. */
function sourceOf(rule: EngineRule, k: Knowledge, given?: string | null): string | null {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);
  const own = text(given) ?? text(rule.source);
  return own ?? (rule.rule_set_id ? (k.sourceOfRuleSet.get(rule.rule_set_id) ?? null) : null);
}

export function toFinding(r: RuleFinding, k: Knowledge, entered: Entered): FindingJson {
  const rule = k.ruleById.get(r.rule_id)!;
  const v = ruleSetOf(rule, k);
  return {
    rule_id: r.rule_id,
    rule_name: r.rule_name,
    rule_version: r.rule_version ?? rule.version ?? v.version,
    rule_set_id: v.rule_set_id,
    rule_set_name: v.name,
    rule_set_version_id: v.version_id,
    description: r.description ?? rule.description ?? '',
    priority: r.priority ?? (Number(rule.priority) || 0),
    severity: r.severity,
    actions: toActions(r.actions),
    basis: toBasis(r.basis, k, entered),
    source: sourceOf(rule, k, r.source),
  };
}

export function toUndetermined(u: UndeterminedRule, k: Knowledge): UndeterminedRuleJson {
  const rule = k.ruleById.get(u.rule_id);
  const v = rule?.rule_set_id ? k.versionOfRuleSet.get(rule.rule_set_id) : undefined;
  return {
    rule_id: u.rule_id,
    rule_name: u.rule_name,
    rule_version: u.rule_version ?? rule?.version ?? v?.version,
    ...(v ? { rule_set_name: v.name } : {}),
    severity: u.severity,
    unknown_parameters: u.unknown_parameters.map((m) => {
      const p = m.parameter_id ? k.parameterById.get(m.parameter_id) : undefined;
      return {
        parameter_id: m.parameter_id,
        parameter_name: m.parameter_name,
        display_name: m.display_name ?? p?.display_name ?? m.parameter_name,
        reason: m.reason,
      };
    }),
  };
}

/**
 * What the engine decided at completion: every fired rule in the engine's order (the first is the
 * primary recommendation) and the rules it could not decide.
 */
export interface EngineCompletion {
  findings: RuleFinding[];
  undetermined_rules: UndeterminedRule[];
  ruled_out?: RuledOutItem[];
}

/**
 * What the answers ruled out, each sentence with the answer as the clinician gave it ("Fasting
 * glucose 5 mmol/L (90 mg/dL) is below 100 mg/dL"). A band keeps the engine's reading: its
 * label repeats the parameter's name.
 */
export function toRuledOut(items: readonly RuledOutItem[], k: Knowledge, entered: Entered): RuledOutJson[] {
  return items.map((item) => {
    const given = item.parameter_id ? entered.get(item.parameter_id) : undefined;
    const label = given?.label ?? null;
    const parameter = item.parameter_id ? (k.parameterById.get(item.parameter_id) ?? null) : null;
    const valueText = label !== null && given?.entered_as !== 'band' ? label : undefined;
    return {
      parameter_id: item.parameter_id,
      display_name: item.display_name,
      units: item.units,
      operator: item.operator,
      threshold: item.threshold,
      value: given ? given.value : item.value,
      label,
      rule_names: item.rule_names,
      statement: ruledOutStatement(item, parameter, valueText),
    };
  });
}

/** The message of a result with no finding, from the sentences the physician is shown. */
export function noFindingText(ruledOut: readonly RuledOutJson[], undetermined: number): string {
  return noFindingMessage(
    ruledOut.map((r) => r.statement),
    undetermined,
  );
}

export function toResult(done: EngineCompletion, k: Knowledge, entered: Entered): AssessmentResultJson & { ruled_out: RuledOutJson[] } {
  const findings = done.findings.map((f) => toFinding(f, k, entered));
  return {
    recommendation: findings[0] ?? null,
    findings,
    undetermined_rules: done.undetermined_rules.map((u) => toUndetermined(u, k)),
    ruled_out: findings.length === 0 ? toRuledOut(done.ruled_out ?? [], k, entered) : [],
  };
}

export function toMatchedRule(finding: RuleFinding, k: Knowledge, entered: Entered, selected: boolean): MatchedRule {
  return { ...toFinding(finding, k, entered), selected };
}

export function logEntries(entries: readonly LogEntry[], at: Date): DebugLogEntry[] {
  const timestamp = at.toISOString();
  return entries.map((e) => ({ id: randomUUID(), timestamp, type: e.type, message: e.message, data: e.data ?? null }));
}
