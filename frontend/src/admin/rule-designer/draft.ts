import type { Action, Condition, DraftRule, ParameterJson, RuleJson } from '@cds/contracts';
import {
  canonicalOperator,
  operatorsFor,
  rawValue,
  selectOptions,
  typedValue,
  valueKind,
  valueProblem,
  type ConditionDraft,
} from './conditionRules';

export interface ActionDraft {
  key: string;
  id?: string;
  type: string;
  severity: string;
  message: string;
  /** Kept as loaded; the editor writes the message. */
  value?: string;
}

export interface RuleDraft {
  name: string;
  description: string;
  /** Citation of the guideline the rule follows (optional). */
  source?: string;
  /** As typed; spec: a number 0 to 100, non-numeric becomes 0. */
  priority: string;
  conditions: ConditionDraft[];
  actions: ActionDraft[];
}

let counter = 0;
export const newKey = () => `k${++counter}`;

export const EMPTY_DRAFT: RuleDraft = { name: '', description: '', priority: '0', conditions: [], actions: [] };

export function newCondition(parameters: ParameterJson[]): ConditionDraft {
  const first = parameters[0];
  return { key: newKey(), parameter: first?.id ?? '', operator: operatorsFor(first?.data_type)[0], value: '', logic: 'AND' };
}

export function newAction(): ActionDraft {
  // docs/product-spec.md section 9: default action severity medium.
  return { key: newKey(), type: 'recommendation', severity: 'medium', message: '' };
}

function conditionParameter(c: Condition & { parameter_id?: string; parameterId?: string; field?: string; name?: string }): string {
  return c.parameter || c.parameter_id || c.parameterId || c.field || c.name || '';
}

/** A parameter by id, else by name or display name ignoring case (older rows name it). */
export function findParameter(parameters: ParameterJson[], ref: string): ParameterJson | undefined {
  const lower = ref.toLowerCase();
  return (
    parameters.find((p) => p.id === ref) ??
    parameters.find((p) => p.name.toLowerCase() === lower) ??
    parameters.find((p) => p.display_name.toLowerCase() === lower)
  );
}

export function draftFromRule(rule: RuleJson, parameters: ParameterJson[]): RuleDraft {
  return {
    name: rule.name,
    description: rule.description ?? '',
    ...(rule.source ? { source: rule.source } : {}),
    priority: String(rule.priority ?? 0),
    conditions: (rule.conditions ?? []).map((c) => {
      const ref = conditionParameter(c);
      const p = findParameter(parameters, ref);
      const logic = (c.logic ?? (c as { logicOperator?: string }).logicOperator ?? 'AND').toString().toUpperCase() === 'OR' ? 'OR' : 'AND';
      return {
        key: newKey(),
        id: c.id,
        parameter: p?.id ?? ref,
        operator: canonicalOperator(String(c.operator ?? '')),
        value: rawValue(c.value),
        logic,
      };
    }),
    actions: (rule.actions ?? []).map((a) => ({
      key: newKey(),
      id: a.id,
      type: a.type || 'recommendation',
      severity: a.severity || 'medium',
      message: a.message ?? a.value ?? '',
      ...(a.value !== undefined ? { value: a.value } : {}),
    })),
  };
}

/** docs/product-spec.md section 5: non-numeric becomes 0. */
export function priorityOf(raw: string): number {
  const n = Number(raw);
  return raw.trim() === '' || !Number.isFinite(n) ? 0 : n;
}

export interface DraftProblem {
  /** 'name', 'priority', 'conditions.0.value', 'actions.1.message' ... */
  field: string;
  message: string;
}

/** Everything the server would refuse that the designer can see first. */
export function draftProblems(draft: RuleDraft, parameters: ParameterJson[]): DraftProblem[] {
  const out: DraftProblem[] = [];
  if (!draft.name.trim()) out.push({ field: 'name', message: 'Please provide a rule name.' });
  if (draft.name.length > 200) out.push({ field: 'name', message: 'The rule name may hold at most 200 characters.' });
  if (draft.description.length > 2000) out.push({ field: 'description', message: 'The description may hold at most 2000 characters.' });
  if ((draft.source ?? '').length > 500) out.push({ field: 'source', message: 'The source may hold at most 500 characters.' });
  const priority = priorityOf(draft.priority);
  if (!Number.isInteger(priority) || priority < 0 || priority > 100) {
    out.push({ field: 'priority', message: 'Priority must be a whole number from 0 to 100.' });
  }
  draft.conditions.forEach((c, i) => {
    const p = parameters.find((x) => x.id === c.parameter);
    if (!p) {
      out.push({ field: `conditions.${i}.parameter`, message: `Condition ${i + 1}: choose a parameter.` });
      return;
    }
    if (!operatorsFor(p.data_type).includes(c.operator)) {
      out.push({ field: `conditions.${i}.operator`, message: `Condition ${i + 1}: choose an operator.` });
      return;
    }
    const problem = valueProblem(c.value, valueKind(p, c.operator));
    if (problem) out.push({ field: `conditions.${i}.value`, message: `Condition ${i + 1}: ${problem}` });
  });
  draft.actions.forEach((a, i) => {
    if (!a.message.trim())
      out.push({ field: `actions.${i}.message`, message: `Action ${i + 1}: enter the message the clinician will read.` });
    if (a.message.length > 2000) out.push({ field: `actions.${i}.message`, message: `Action ${i + 1}: at most 2000 characters.` });
  });
  return out;
}

export function conditionsPayload(draft: RuleDraft, parameters: ParameterJson[]): Condition[] {
  return draft.conditions.map((c) => {
    const p = parameters.find((x) => x.id === c.parameter);
    const kind = valueKind(p, c.operator);
    return {
      ...(c.id ? { id: c.id } : {}),
      type: 'parameter',
      parameter: c.parameter,
      operator: c.operator,
      value: typedValue(c.value, kind, selectOptions(p)),
      logic: c.logic,
    };
  });
}

export function actionsPayload(draft: RuleDraft): Action[] {
  return draft.actions.map((a) => ({
    ...(a.id ? { id: a.id } : {}),
    type: a.type,
    severity: a.severity,
    message: a.message.trim(),
    ...(a.value !== undefined ? { value: a.value } : {}),
  }));
}

/** The saved payload (docs/product-spec.md section 3): name, description (default empty), rule_set_id, priority, conditions, actions. */
export function rulePayload(draft: RuleDraft, ruleSetId: string, parameters: ParameterJson[]) {
  return {
    name: draft.name.trim(),
    description: draft.description.trim(),
    // Sent once the field was loaded or typed in; an emptied field clears the source.
    ...(draft.source === undefined ? {} : { source: draft.source.trim() || null }),
    rule_set_id: ruleSetId,
    priority: priorityOf(draft.priority),
    conditions: conditionsPayload(draft, parameters),
    actions: actionsPayload(draft),
  };
}

/** For live analysis: the draft as one rule, with only complete conditions (the rest are still being typed). */
export function analysisRule(draft: RuleDraft, parameters: ParameterJson[], ruleId?: string): DraftRule {
  const complete = draft.conditions.filter((c) => {
    const p = parameters.find((x) => x.id === c.parameter);
    return p && operatorsFor(p.data_type).includes(c.operator) && !valueProblem(c.value, valueKind(p, c.operator));
  });
  return {
    ...(ruleId ? { id: ruleId } : {}),
    name: draft.name.trim() || 'Untitled rule',
    description: draft.description,
    priority: Math.min(100, Math.max(0, Math.round(priorityOf(draft.priority)))),
    conditions: conditionsPayload({ ...draft, conditions: complete }, parameters),
    actions: actionsPayload({ ...draft, actions: draft.actions.filter((a) => a.message.trim()) }),
  };
}
