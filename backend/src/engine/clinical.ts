import { defaultQuestionText } from './chat';
import { evaluatePreparedRule, prepareRule, type PreparedRule } from './evaluate';
import { readCondition } from './normalize';
import { canonicalOperator, typeClassOf } from './operators';
import { buildParameterIndex, resolveParameter, type ParameterIndex } from './parameters';
import type {
  AnswerOption,
  AnswerValue,
  Answers,
  BasisItem,
  ClinicalCompletedStep,
  ClinicalStep,
  ConditionTrace,
  EngineParameter,
  EngineRule,
  EvaluationOptions,
  LogEntry,
  Recommendation,
  RuleEvaluation,
  UndeterminedRule,
} from './types';
import { answerFor, isBlank, toNumber } from './values';

/** Spec section 4 and 9: these are asked first, in this order, when rules use them. */
export const CLINICAL_FIXED_ORDER: readonly string[] = ['TSH', 'Antibodies', 'Wt_lb'];
export const CLINICAL_NO_MATCH = 'Assessment completed without finding a matching rule';
export const DEFAULT_RESULT_SEVERITY = 'low';

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function conditionCount(rule: EngineRule): number {
  return Array.isArray(rule.conditions) ? rule.conditions.length : 0;
}

/**
 * The clinical ranking: most conditions first (the most specific rule), then by name.
 * Priority and id only break exact ties so the order never depends on how rows were loaded.
 */
export function clinicalRuleOrder(rules: readonly EngineRule[]): EngineRule[] {
  return [...rules].sort(
    (a, b) =>
      conditionCount(b) - conditionCount(a) ||
      byCodeUnits(String(a.name ?? ''), String(b.name ?? '')) ||
      (Number(b.priority) || 0) - (Number(a.priority) || 0) ||
      byCodeUnits(String(a.id), String(b.id)),
  );
}

/** Parameters the rules use, in first-use order (rules taken highest priority first). */
function usedParameters(rules: readonly EngineRule[], index: ParameterIndex): EngineParameter[] {
  const byPriority = rules
    .map((rule, position) => ({ rule, position }))
    .sort((a, b) => (Number(b.rule.priority) || 0) - (Number(a.rule.priority) || 0) || a.position - b.position);
  const seen = new Map<string, EngineParameter>();
  for (const { rule } of byPriority) {
    for (const raw of Array.isArray(rule.conditions) ? rule.conditions : []) {
      const parameter = resolveParameter(readCondition(raw).parameter, index)?.parameter;
      if (parameter && parameter.is_active !== false && !seen.has(parameter.id)) seen.set(parameter.id, parameter);
    }
  }
  return [...seen.values()];
}

/** Spec section 4: TSH, Antibodies, Wt_lb first, then the other parameters the rules use. */
export function clinicalQuestionOrder(rules: readonly EngineRule[], parameters: readonly EngineParameter[]): EngineParameter[] {
  const used = usedParameters(rules, buildParameterIndex(parameters));
  const fixed: EngineParameter[] = [];
  for (const name of CLINICAL_FIXED_ORDER) {
    const match = used.find((p) => !fixed.includes(p) && p.name.trim().toLowerCase() === name.toLowerCase());
    if (match) fixed.push(match);
  }
  return [...fixed, ...used.filter((p) => !fixed.includes(p))];
}

function isAnswerValue(value: unknown): value is AnswerValue {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function configuredOptions(parameter: EngineParameter): AnswerOption[] {
  const list = parameter.validation_rules?.options;
  if (!Array.isArray(list)) return [];
  const options: AnswerOption[] = [];
  for (const entry of list) {
    const isObject = typeof entry === 'object' && entry !== null;
    const value: unknown = isObject ? (entry as { value?: unknown }).value : entry;
    if (!isAnswerValue(value)) continue;
    const label = isObject ? (entry as { label?: unknown }).label : undefined;
    options.push({
      label: typeof label === 'string' && label.trim() !== '' ? label : `${parameter.name} = ${String(value)}`,
      value,
    });
  }
  return options;
}

function format(n: number): string {
  return String(n);
}

/**
 * Spec section 4, clinical option derivation, in the spec's order of precedence.
 * `parameters` resolves references written as names.
 */
export function clinicalOptions(
  parameter: EngineParameter,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[] = [parameter],
): AnswerOption[] {
  const configured = configuredOptions(parameter);
  if (configured.length > 0) return configured;

  const index = buildParameterIndex(parameters.includes(parameter) ? parameters : [parameter, ...parameters]);
  const mentions = rules
    .flatMap((rule) => (Array.isArray(rule.conditions) ? rule.conditions : []).map(readCondition))
    .filter((c) => resolveParameter(c.parameter, index)?.parameter.id === parameter.id);
  const name = parameter.name;
  if (mentions.length === 0) {
    return [
      { label: `Normal (${name})`, value: 'normal' },
      { label: `Abnormal (${name})`, value: 'abnormal' },
    ];
  }

  const typeClass = typeClassOf(parameter.data_type);
  if (typeClass === 'boolean') {
    // Both answers are always offered. Read literally ("using the values that appear") a rule
    // on Positive alone would offer only Positive, forcing a false answer for a negative patient.
    return [
      { label: `Positive (${name})`, value: true },
      { label: `Negative (${name})`, value: false },
    ];
  }

  if (typeClass === 'numeric') {
    const thresholds = [
      ...new Set(
        mentions
          .filter((c) => canonicalOperator(c.operator) !== null)
          .map((c) => toNumber(c.value))
          .filter((t) => !Number.isNaN(t)),
      ),
    ].sort((a, b) => a - b);
    if (thresholds.length === 0) return [{ label: `${name} (no specific range)`, value: 'unknown' }];
    const first = thresholds[0];
    const last = thresholds[thresholds.length - 1];
    if (thresholds.length === 1) {
      return [
        { label: `${name} < ${format(first)}`, value: first - 1 },
        { label: `${name} ≥ ${format(first)}`, value: first + 1 },
      ];
    }
    const options: AnswerOption[] = [{ label: `${name} < ${format(first)}`, value: first - 1 }];
    for (let i = 0; i + 1 < thresholds.length; i++) {
      const a = thresholds[i];
      const b = thresholds[i + 1];
      options.push({ label: `${name} ${format(a)}-${format(b)}`, value: (a + b) / 2 });
    }
    options.push({ label: `${name} > ${format(last)}`, value: last + 1 });
    return options;
  }

  const seen = new Set<string>();
  const options: AnswerOption[] = [];
  for (const c of mentions) {
    if (!isAnswerValue(c.value) || c.value === null) continue;
    const key = `${typeof c.value}\u0000${String(c.value)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    options.push({ label: `${name} = ${String(c.value)}`, value: c.value });
  }
  return options.length > 0 ? options : [{ label: `${name} (no specific range)`, value: 'unknown' }];
}

interface Evaluated {
  prepared: PreparedRule;
  evaluation: RuleEvaluation;
}

/**
 * Conditions still unknown in a part of the rule (an AND group) that nothing has made false:
 * only these can still decide the rule.
 */
function openConditions({ prepared, evaluation }: Evaluated): ConditionTrace[] {
  const open: ConditionTrace[] = [];
  for (const group of prepared.groups) {
    const traces = group.map((i) => evaluation.trace[i]);
    if (traces.some((t) => t.result === false)) continue;
    open.push(...traces.filter((t) => t.result === 'unknown'));
  }
  return open;
}

function undetermined(entry: Evaluated): UndeterminedRule {
  const seen = new Set<string>();
  const unknownParameters: UndeterminedRule['unknown_parameters'] = [];
  for (const t of openConditions(entry)) {
    const key = t.parameter_id ?? `?${t.parameter}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unknownParameters.push({ parameter_id: t.parameter_id, parameter_name: t.parameter_name ?? t.parameter });
  }
  return { rule_id: entry.prepared.rule.id, rule_name: entry.prepared.rule.name, unknown_parameters: unknownParameters };
}

function basisOf({ prepared, evaluation }: Evaluated): BasisItem[] {
  return prepared.groups
    .filter((group) => group.every((i) => evaluation.trace[i].result === true))
    .flat()
    .map((i) => {
      const t = evaluation.trace[i];
      return {
        parameter_id: t.parameter_id,
        parameter_name: t.parameter_name,
        operator: t.canonical_operator ?? t.operator,
        threshold: t.threshold,
        value: t.value,
      };
    });
}

function severityOf(rule: EngineRule): string {
  const first = Array.isArray(rule.actions) ? rule.actions[0] : undefined;
  const severity = first?.severity;
  return typeof severity === 'string' && severity.trim() !== '' ? severity.trim().toLowerCase() : DEFAULT_RESULT_SEVERITY;
}

function recommendationFor(entry: Evaluated, higher: UndeterminedRule[]): Recommendation {
  const { rule } = entry.prepared;
  return {
    rule_id: rule.id,
    rule_name: rule.name,
    ...(typeof rule.version === 'number' ? { rule_version: rule.version } : {}),
    actions: Array.isArray(rule.actions) ? rule.actions : [],
    severity: severityOf(rule),
    basis: basisOf(entry),
    ...(higher.length > 0 ? { undetermined_higher_rules: higher } : {}),
  };
}

const RESULT_WORDS = { true: 'satisfied', false: 'not satisfied', unknown: 'undetermined' } as const;

function logAuthoringProblems(entry: Evaluated, log: LogEntry[]): void {
  const { rule } = entry.prepared;
  for (const c of entry.prepared.conditions) {
    const where = `Rule "${rule.name}", condition ${c.index + 1}`;
    if (c.failure === 'unknown_operator') {
      log.push({ type: 'warning', message: `${where}: unknown operator "${c.operator}"; the condition fails`, data: { rule_id: rule.id } });
    } else if (c.failure === 'invalid_threshold') {
      log.push({
        type: 'warning',
        message: `${where}: the value ${JSON.stringify(c.threshold) ?? String(c.threshold)} cannot be compared with "${c.operator}"; the condition fails`,
        data: { rule_id: rule.id },
      });
    }
    if (!c.parameter) {
      log.push({
        type: 'error',
        message: `${where}: parameter "${c.reference}" does not exist, so it can never be asked`,
        data: { rule_id: rule.id },
      });
    }
  }
}

/**
 * One step of the clinical assessment.
 *
 * Rules are ranked as the spec says (most conditions, then name), and each is true, false or
 * undetermined; an unanswered parameter makes a condition unknown, never false.
 * Deliberate correction of the spec, for patient safety: read literally, a one-condition rule
 * would win at the first answer while a more specific rule ranked above it still waits on an
 * unanswered parameter. Instead:
 *  - a rule wins once it is satisfied and every rule ranked above it is false;
 *  - otherwise the next question is the first unanswered parameter (in clinical order) used
 *    in an open part of an undetermined rule that could still win, so no question is asked
 *    that cannot change the outcome;
 *  - when no question can change the outcome (higher rules undetermined only because an answer
 *    was "unknown", or their parameter cannot be asked), the highest-ranked satisfied rule wins
 *    and the recommendation lists those undetermined higher rules for the clinician;
 *  - if no rule is satisfied, the assessment completes with no recommendation.
 */
export function clinicalStep(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  answers: Answers,
  options: Omit<EvaluationOptions, 'unanswered'> = {},
): ClinicalStep {
  const index = buildParameterIndex(parameters);
  const ranked = clinicalRuleOrder(rules);
  const order = clinicalQuestionOrder(rules, parameters);
  const log: LogEntry[] = [];
  const answered = order.filter((p) => !isBlank(answerFor(answers, p.id))).length;
  log.push({ type: 'info', message: `Evaluating ${ranked.length} rules with ${answered} of ${order.length} questions answered` });

  const evaluated: Evaluated[] = ranked.map((rule) => {
    const prepared = prepareRule(rule, index);
    const evaluation = evaluatePreparedRule(prepared, answers, { ...options, unanswered: 'unknown' });
    return { prepared, evaluation };
  });
  for (const entry of evaluated) {
    logAuthoringProblems(entry, log);
    const { rule } = entry.prepared;
    const count = conditionCount(rule);
    log.push({
      type: 'info',
      message: `Rule "${rule.name}" (${count} condition${count === 1 ? '' : 's'}): ${RESULT_WORDS[String(entry.evaluation.result) as keyof typeof RESULT_WORDS]}`,
      data: { rule_id: rule.id, result: entry.evaluation.result, trace: entry.evaluation.trace },
    });
  }

  const firstSatisfied = evaluated.findIndex((e) => e.evaluation.result === true);
  const contenders = evaluated.filter(
    (e, i) => e.evaluation.result === 'unknown' && (firstSatisfied === -1 || i < firstSatisfied),
  );

  const complete = (winner: Evaluated | null, open: Evaluated[]): ClinicalCompletedStep => {
    const openRules = open.map(undetermined);
    if (winner) {
      if (openRules.length > 0) {
        log.push({
          type: 'warning',
          message: `Rule "${winner.prepared.rule.name}" is recommended, but higher-ranked rules could not be determined: ${openRules.map((r) => `"${r.rule_name}"`).join(', ')}`,
          data: { undetermined_higher_rules: openRules },
        });
      }
      log.push({ type: 'success', message: `Rule "${winner.prepared.rule.name}" matched`, data: { rule_id: winner.prepared.rule.id } });
      return { status: 'completed', recommendation: recommendationFor(winner, openRules), undetermined_rules: openRules, log };
    }
    log.push({ type: 'warning', message: CLINICAL_NO_MATCH, ...(openRules.length > 0 ? { data: { undetermined_rules: openRules } } : {}) });
    return { status: 'completed', recommendation: null, undetermined_rules: openRules, log };
  };

  if (firstSatisfied !== -1 && contenders.length === 0) return complete(evaluated[firstSatisfied], []);

  const wanted = new Set<string>();
  for (const entry of contenders) {
    for (const t of openConditions(entry)) if (t.reason === 'missing_answer' && t.parameter_id) wanted.add(t.parameter_id);
  }
  const next = order.find((p) => wanted.has(p.id) && isBlank(answerFor(answers, p.id)));
  if (next) {
    log.push({ type: 'info', message: `Next question: ${next.display_name || next.name}`, data: { parameter_id: next.id } });
    return {
      status: 'question',
      parameter_id: next.id,
      parameter_name: next.name,
      display_name: next.display_name,
      text: defaultQuestionText(next),
      options: clinicalOptions(next, rules, parameters),
      log,
    };
  }
  return complete(firstSatisfied === -1 ? null : evaluated[firstSatisfied], contenders);
}

/** The first step of a fresh (or restarted) assessment: nothing is answered yet. */
export function clinicalStart(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  options: Omit<EvaluationOptions, 'unanswered'> = {},
): ClinicalStep {
  return clinicalStep(rules, parameters, {}, options);
}
