import { evaluatePreparedRule, type PreparedRule } from './evaluate';
import { normalizeAction } from './normalize';
import { OPERATOR_SYMBOL } from './operators';
import type {
  Action,
  Answers,
  BasisItem,
  ConditionTrace,
  EngineRule,
  EvaluationOptions,
  MissingInput,
  MissingReason,
  RuleEvaluation,
  RuleFinding,
  SeverityLevel,
  UndeterminedRule,
} from './types';
import { answerFor, isBlank } from './values';

const SEVERITY_RANK: Readonly<Record<SeverityLevel, number>> = { critical: 0, high: 1, medium: 2, low: 3 };

/** Spec §9: the result icon defaults to low (a rule with no actions at all). */
export const DEFAULT_RESULT_SEVERITY: SeverityLevel = 'low';
/** Spec §9: an action's severity defaults to medium. */
const DEFAULT_ACTION_LEVEL: SeverityLevel = 'medium';

export function severityLevel(value: unknown): SeverityLevel | null {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return Object.prototype.hasOwnProperty.call(SEVERITY_RANK, text) ? (text as SeverityLevel) : null;
}

/**
 * A rule's severity is the most severe of its actions (an action without a recognised severity is
 * medium). Not the first action's, as product-spec §4 has it: that could hide a critical action
 * behind a low first one (issue 9).
 */
export function ruleSeverity(rule: Pick<EngineRule, 'actions'>): SeverityLevel {
  const actions = Array.isArray(rule.actions) ? rule.actions : [];
  if (actions.length === 0) return DEFAULT_RESULT_SEVERITY;
  let best: SeverityLevel = 'low';
  for (const action of actions) {
    const level = severityLevel((action as { severity?: unknown } | null)?.severity) ?? DEFAULT_ACTION_LEVEL;
    if (SEVERITY_RANK[level] < SEVERITY_RANK[best]) best = level;
  }
  return best;
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function conditionCount(rule: EngineRule): number {
  return Array.isArray(rule.conditions) ? rule.conditions.length : 0;
}

function priorityOf(rule: EngineRule): number {
  const n = Number(rule.priority);
  return Number.isFinite(n) ? n : 0;
}

/** Ranking (issue 9, spec §9 "higher is evaluated first"): priority, conditions (most first), name, id. */
export function compareRules(a: EngineRule, b: EngineRule): number {
  return (
    priorityOf(b) - priorityOf(a) ||
    conditionCount(b) - conditionCount(a) ||
    byCodeUnits(String(a.name ?? ''), String(b.name ?? '')) ||
    byCodeUnits(String(a.id), String(b.id))
  );
}

export function rankRules(rules: readonly EngineRule[]): EngineRule[] {
  return [...rules].sort(compareRules);
}

/** Cards: critical first, then high, then the rest; each tier keeps the ranking order it is given. */
export function orderFindings<T extends { severity: SeverityLevel }>(ranked: readonly T[]): T[] {
  const tier = (f: T): number => (f.severity === 'critical' ? 0 : f.severity === 'high' ? 1 : 2);
  return ranked
    .map((finding, position) => ({ finding, position }))
    .sort((a, b) => tier(a.finding) - tier(b.finding) || a.position - b.position)
    .map((e) => e.finding);
}

export interface Evaluated {
  prepared: PreparedRule;
  evaluation: RuleEvaluation;
}

/** Every rule, in the order given (ranked: see prepareRuleSet), evaluated with unanswered conditions unknown. */
export function evaluatePrepared(
  ranked: readonly PreparedRule[],
  answers: Answers,
  options: Omit<EvaluationOptions, 'unanswered'>,
): Evaluated[] {
  const unknown: EvaluationOptions = { ...options, unanswered: 'unknown' };
  return ranked.map((prepared) => ({ prepared, evaluation: evaluatePreparedRule(prepared, answers, unknown) }));
}

/**
 * Conditions still unknown in a part of the rule (an AND group) that nothing has made false:
 * only these can still decide the rule.
 */
export function openConditions({ prepared, evaluation }: Evaluated): ConditionTrace[] {
  const open: ConditionTrace[] = [];
  for (const group of prepared.groups) {
    const traces = group.map((i) => evaluation.trace[i]);
    if (traces.some((t) => t.result === false)) continue;
    open.push(...traces.filter((t) => t.result === 'unknown'));
  }
  return open;
}

/** A question can be put to the clinician only for an existing, active parameter. */
export function isAskable(entry: Evaluated, trace: ConditionTrace): boolean {
  const parameter = entry.prepared.conditions[trace.index].parameter;
  return parameter !== null && parameter.is_active !== false;
}

function missingReason(entry: Evaluated, t: ConditionTrace): MissingReason {
  if (!isAskable(entry, t)) return 'cannot_be_asked';
  switch (t.reason) {
    case 'unknown_answer':
    case 'uninterpretable_answer':
    case 'straddles_threshold':
    case 'no_reference_time':
      return t.reason;
    default:
      return 'missing_answer';
  }
}

export function undeterminedOf(entry: Evaluated): UndeterminedRule {
  const { rule } = entry.prepared;
  const seen = new Set<string>();
  const inputs: MissingInput[] = [];
  for (const t of openConditions(entry)) {
    const key = t.parameter_id ?? `?${t.parameter}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const parameter = entry.prepared.conditions[t.index].parameter;
    inputs.push({
      parameter_id: t.parameter_id,
      parameter_name: t.parameter_name ?? t.parameter,
      display_name: parameter ? parameter.display_name || parameter.name : t.parameter,
      reason: missingReason(entry, t),
    });
  }
  return {
    rule_id: rule.id,
    rule_name: rule.name,
    ...(typeof rule.version === 'number' ? { rule_version: rule.version } : {}),
    priority: priorityOf(rule),
    severity: ruleSeverity(rule),
    unknown_parameters: inputs,
  };
}

/** Every condition that held, in the groups that made the rule true, with the answer as given. */
export function basisOf({ prepared, evaluation }: Evaluated): BasisItem[] {
  return prepared.groups
    .filter((group) => group.every((i) => evaluation.trace[i].result === true))
    .flat()
    .map((i) => {
      const t = evaluation.trace[i];
      const parameter = prepared.conditions[i].parameter;
      return {
        parameter_id: t.parameter_id,
        parameter_name: t.parameter_name,
        display_name: parameter ? parameter.display_name || parameter.name : null,
        units: parameter && typeof parameter.units === 'string' && parameter.units !== '' ? parameter.units : null,
        operator: t.canonical_operator ?? t.operator,
        operator_symbol: t.canonical_operator ? OPERATOR_SYMBOL[t.canonical_operator] : t.operator,
        threshold: t.threshold,
        value: t.value,
      };
    });
}

export function findingOf(entry: Evaluated): RuleFinding {
  const { rule } = entry.prepared;
  const actions: Action[] = (Array.isArray(rule.actions) ? rule.actions : []).map(normalizeAction);
  return {
    rule_id: rule.id,
    rule_name: rule.name,
    ...(typeof rule.version === 'number' ? { rule_version: rule.version } : {}),
    ...(typeof rule.rule_set_id === 'string' ? { rule_set_id: rule.rule_set_id } : {}),
    description: typeof rule.description === 'string' && rule.description.trim() !== '' ? rule.description : null,
    priority: priorityOf(rule),
    severity: ruleSeverity(rule),
    actions,
    basis: basisOf(entry),
    source: typeof rule.source === 'string' && rule.source.trim() !== '' ? rule.source : null,
  };
}

/** Where an assessment stands: what fired, what is still undecided, and which inputs could decide it. */
export interface Standing {
  /** In ranking order. */
  evaluated: Evaluated[];
  /** Fired rules as cards: critical, high, then the rest. */
  findings: RuleFinding[];
  fired: Evaluated[];
  undecided: Evaluated[];
  undetermined: UndeterminedRule[];
}

export function standingOf(evaluated: Evaluated[]): Standing {
  const cards = orderFindings(
    evaluated
      .filter((e) => e.evaluation.result === true)
      .map((entry) => ({ entry, finding: findingOf(entry), severity: ruleSeverity(entry.prepared.rule) })),
  );
  const undecided = evaluated.filter((e) => e.evaluation.result === 'unknown');
  return {
    evaluated,
    findings: cards.map((c) => c.finding),
    fired: cards.map((c) => c.entry),
    undecided,
    undetermined: undecided.map(undeterminedOf),
  };
}

/**
 * Parameters an unanswered question about could still change which rules fire: used in an open
 * part of an undecided rule, askable, and not answered yet. With `reask`, also parameters answered
 * with a band that straddles an open condition's threshold (the exact value would decide it).
 */
export function decidingParameters(
  undecided: readonly Evaluated[],
  answers: Answers,
  reask: (parameterId: string) => boolean = () => false,
): { unanswered: Set<string>; straddled: Map<string, { entry: Evaluated; trace: ConditionTrace }> } {
  const unanswered = new Set<string>();
  const straddled = new Map<string, { entry: Evaluated; trace: ConditionTrace }>();
  for (const entry of undecided) {
    for (const t of openConditions(entry)) {
      if (!t.parameter_id || !isAskable(entry, t)) continue;
      if (t.reason === 'missing_answer' && isBlank(answerFor(answers, t.parameter_id))) unanswered.add(t.parameter_id);
      else if (t.reason === 'straddles_threshold' && reask(t.parameter_id) && !straddled.has(t.parameter_id)) {
        straddled.set(t.parameter_id, { entry, trace: t });
      }
    }
  }
  return { unanswered, straddled };
}
