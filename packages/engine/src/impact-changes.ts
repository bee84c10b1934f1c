import { ruleSeverity } from './findings';
import { parseLogic } from './normalize';
import { canonicalOperator, OPERATOR_SYMBOL, typeClassOf } from './operators';
import { buildParameterIndex, resolveParameter, type ParameterIndex } from './parameters';
import { answerText } from './questions';
import { toNumber } from './values';
import type { Condition, EngineParameter, EngineRule } from './types';

/**
 * What publishing changes in a rule set's rules, in words an admin checks against the guideline:
 * "BMI ≥ 30 kg/m² → BMI ≥ 27.5 kg/m²", priority 10 → 5, severity high → critical.
 */
export type RuleChangeField = 'name' | 'conditions' | 'priority' | 'severity' | 'actions' | 'description' | 'source';

export interface RuleChangeDetail {
  field: RuleChangeField;
  /** Null: the rule did not exist on that side. */
  before: string | null;
  after: string | null;
}

export interface RuleChange {
  rule_id: string;
  /** The name it will have (a removed rule: the name it had). */
  rule_name: string;
  /** `parameters`: the rule is the same but reads differently, a parameter it uses changed (units, name). */
  kind: 'added' | 'removed' | 'edited' | 'parameters';
  details: RuleChangeDetail[];
}

/** One condition as a clinician reads it: "BMI ≥ 30 kg/m²", "Smoker = Yes", "Last eye exam within 365 days". */
export function conditionText(c: Condition, index: ParameterIndex): string {
  const parameter = resolveParameter(c.parameter, index)?.parameter ?? null;
  const name = parameter ? parameter.display_name || parameter.name : String(c.parameter);
  const op = canonicalOperator(c.operator);
  if (op === 'within_days') return `${name} within ${String(c.value)} days`;
  const symbol = op ? OPERATOR_SYMBOL[op] : String(c.operator);
  const n = toNumber(c.value);
  const numeric = !!parameter && typeClassOf(parameter.data_type) === 'numeric' && !Number.isNaN(n);
  const value = parameter ? answerText(parameter, numeric ? n : c.value) : String(c.value);
  return `${name} ${symbol} ${value}`;
}

/** The conditions joined as the engine reads them: each one's logic links it to the next, AND binding tighter. */
export function conditionsText(conditions: readonly Condition[], index: ParameterIndex): string {
  if (!conditions.length) return 'no conditions';
  return conditions
    .map((c, i) => (i === 0 ? '' : ` ${parseLogic(conditions[i - 1].logic).toLowerCase()} `) + conditionText(c, index))
    .join('');
}

function actionsText(rule: EngineRule): string {
  const actions = Array.isArray(rule.actions) ? rule.actions : [];
  if (!actions.length) return 'none';
  return actions.map((a) => `${a.severity ? `${a.severity}: ` : ''}${a.message}`).join('; ');
}

function fieldsOf(rule: EngineRule, index: ParameterIndex): Record<RuleChangeField, string> {
  return {
    name: rule.name,
    conditions: conditionsText(rule.conditions ?? [], index),
    priority: String(rule.priority ?? 0),
    severity: ruleSeverity(rule),
    actions: actionsText(rule),
    description: rule.description ?? '',
    source: rule.source ?? '',
  };
}

const ORDER: readonly RuleChangeField[] = ['name', 'conditions', 'priority', 'severity', 'actions', 'description', 'source'];
/** A new or removed rule is described by what decides its finding, not by its prose. */
const WHOLE: readonly RuleChangeField[] = ['conditions', 'priority', 'severity', 'actions'];

/**
 * Rules matched by id: removed ones, then edited ones in their new order, then added ones, each
 * with the fields that read differently before → after. Each side is read with its own
 * parameters, so a unit changed in the catalogue shows in the condition that uses it.
 */
export function ruleChanges(
  before: readonly EngineRule[],
  after: readonly EngineRule[],
  parametersBefore: readonly EngineParameter[],
  parametersAfter: readonly EngineParameter[] = parametersBefore,
): RuleChange[] {
  const indexBefore = buildParameterIndex(parametersBefore);
  const indexAfter = buildParameterIndex(parametersAfter);
  const old = new Map(before.map((r) => [r.id, r]));
  const ids = new Set(after.map((r) => r.id));
  const out: RuleChange[] = [];
  for (const r of before) {
    if (ids.has(r.id)) continue;
    const f = fieldsOf(r, indexBefore);
    out.push({
      rule_id: r.id,
      rule_name: r.name,
      kind: 'removed',
      details: WHOLE.map((field) => ({ field, before: f[field], after: null })),
    });
  }
  const added: RuleChange[] = [];
  for (const r of after) {
    const was = old.get(r.id);
    const a = fieldsOf(r, indexAfter);
    if (!was) {
      added.push({
        rule_id: r.id,
        rule_name: r.name,
        kind: 'added',
        details: WHOLE.map((field) => ({ field, before: null, after: a[field] })),
      });
      continue;
    }
    const b = fieldsOf(was, indexBefore);
    const details = ORDER.filter((field) => a[field] !== b[field]).map((field) => ({ field, before: b[field], after: a[field] }));
    if (!details.length) continue;
    const same =
      JSON.stringify([was.name, was.priority, was.conditions, was.actions, was.description ?? null, was.source ?? null]) ===
      JSON.stringify([r.name, r.priority, r.conditions, r.actions, r.description ?? null, r.source ?? null]);
    out.push({ rule_id: r.id, rule_name: r.name, kind: same ? 'parameters' : 'edited', details });
  }
  return [...out, ...added];
}
