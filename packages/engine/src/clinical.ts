import { OPERATOR_SYMBOL } from './operators';
import {
  compareRules,
  decidingParameters,
  DEFAULT_RESULT_SEVERITY,
  evaluatePrepared,
  rankRules,
  standingOf,
  type Evaluated,
} from './findings';
import { preparedFor, prepareRuleSet, type PreparedRuleSet } from './prepared';
import { questionFor, questionOptions } from './questions';
import { noFindingMessage, ruledOutOf } from './ruled-out';
import type {
  AnswerOption,
  Answers,
  ClinicalCompletedStep,
  ClinicalStep,
  ClinicalStepOptions,
  ConditionTrace,
  EngineParameter,
  EngineRule,
  LogEntry,
} from './types';
import { unitDisplay } from './units';
import { answerFor, isBlank } from './values';

export { DEFAULT_RESULT_SEVERITY };

/** docs/product-spec.md section 4 and 9: these are asked first, in this order, when rules use them. */
export const CLINICAL_FIXED_ORDER: readonly string[] = ['TSH', 'Antibodies', 'Wt_lb'];
export const CLINICAL_NO_MATCH = 'Assessment completed without finding a matching rule';

/**
 * The ranking: priority (high first), then number of conditions (most first), then name, then id.
 * Product-spec §4 ranks by conditions then name and ignores priority, which §9 says is
 * "evaluated first"; issue 9 restores priority so a critical rule is never outranked by a chance
 * of authoring.
 */
export function clinicalRuleOrder(rules: readonly EngineRule[]): EngineRule[] {
  return rankRules(rules);
}

function conditionCount(rule: EngineRule): number {
  return Array.isArray(rule.conditions) ? rule.conditions.length : 0;
}

/** Parameters the rules use, in first-use order (rules taken in ranking order). */
function usedParameters(set: PreparedRuleSet): EngineParameter[] {
  const seen = new Map<string, EngineParameter>();
  for (const rule of set.ranked) {
    for (const { parameter } of rule.conditions) {
      if (parameter && parameter.is_active !== false && !seen.has(parameter.id)) seen.set(parameter.id, parameter);
    }
  }
  return [...seen.values()];
}

/** docs/product-spec.md section 4: TSH, Antibodies, Wt_lb first, then the other parameters the rules use. */
export function clinicalQuestionOrder(rules: readonly EngineRule[], parameters: readonly EngineParameter[]): EngineParameter[] {
  return questionOrderOf(prepareRuleSet(rules, parameters));
}

function questionOrderOf(set: PreparedRuleSet): EngineParameter[] {
  const used = usedParameters(set);
  const fixed: EngineParameter[] = [];
  for (const name of CLINICAL_FIXED_ORDER) {
    const match = used.find((p) => !fixed.includes(p) && p.name.trim().toLowerCase() === name.toLowerCase());
    if (match) fixed.push(match);
  }
  return [...fixed, ...used.filter((p) => !fixed.includes(p))];
}

/**
 * The clinical form's options: the same as the chat's (issue 9 replaces product-spec §4's
 * derivation): partition bands for numbers, Yes / No for booleans, configured options for selects,
 * always ending with Not available.
 */
export function clinicalOptions(
  parameter: EngineParameter,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[] = [parameter],
): AnswerOption[] {
  return questionOptions(parameter, rules, parameters);
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

/** Why the parameter is asked again: the band given lies on both sides of a threshold. */
function exactValueReason(entry: Evaluated, trace: ConditionTrace): string {
  const parameter = entry.prepared.conditions[trace.index].parameter;
  const name = parameter ? parameter.display_name || parameter.name : trace.parameter;
  const unit = unitDisplay(parameter?.units ?? null);
  const symbol = trace.canonical_operator ? OPERATOR_SYMBOL[trace.canonical_operator] : trace.operator;
  return `The band given spans ${name} ${symbol} ${String(trace.threshold)}${unit ? ` ${unit}` : ''} (rule "${entry.prepared.rule.name}"); enter the exact value.`;
}

/**
 * One step of the clinical assessment (issue 9; product-spec §4's "first full match wins" is
 * replaced, see the README's "Clinical semantics"):
 *  - every rule is evaluated after each answer, three-valued: a missing or Not available answer,
 *    or a band across a threshold, is unknown, never false;
 *  - the next question is the next unanswered parameter, in the spec's clinical order, that some
 *    undecided rule uses in a part that could still decide it; other questions are skipped;
 *  - a band that straddles a threshold of an undecided rule is asked again once for the exact value;
 *  - it ends when no unanswered question can change which rules fire, with every fired rule as a
 *    finding (critical, then high, then the rest, each in ranking order), the first one as the
 *    recommendation, and every rule still undecided with its missing inputs.
 */
export function clinicalStep(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  answers: Answers,
  options: ClinicalStepOptions = {},
): ClinicalStep {
  const { exactValueRequested = [], prepared, ...evaluation } = options;
  const set = preparedFor(rules, parameters, prepared);
  const order = questionOrderOf(set);
  const log: LogEntry[] = [];
  const answered = order.filter((p) => !isBlank(answerFor(answers, p.id))).length;
  log.push({ type: 'info', message: `Evaluating ${rules.length} rules with ${answered} of ${order.length} questions answered` });

  const evaluated = evaluatePrepared(set.ranked, answers, evaluation);
  for (const entry of evaluated) {
    logAuthoringProblems(entry, log);
    const { rule } = entry.prepared;
    const count = conditionCount(rule);
    log.push({
      type: 'info',
      message: `Rule "${rule.name}" (priority ${Number(rule.priority) || 0}, ${count} condition${count === 1 ? '' : 's'}): ${RESULT_WORDS[String(entry.evaluation.result) as keyof typeof RESULT_WORDS]}`,
      data: { rule_id: rule.id, result: entry.evaluation.result, trace: entry.evaluation.trace },
    });
  }

  const standing = standingOf(evaluated);
  const reasked = new Set(exactValueRequested);
  const { unanswered, straddled } = decidingParameters(standing.undecided, answers, (id) => !reasked.has(id));
  const next = order.find((p) => unanswered.has(p.id) || straddled.has(p.id));
  if (next) {
    const question = questionFor(next, rules, parameters, set);
    const straddle = unanswered.has(next.id) ? undefined : straddled.get(next.id);
    if (straddle) {
      question.exact_value_requested = true;
      question.exact_value_reason = exactValueReason(straddle.entry, straddle.trace);
      log.push({
        type: 'warning',
        message: question.exact_value_reason,
        data: { parameter_id: next.id, rule_id: straddle.entry.prepared.rule.id },
      });
    }
    log.push({ type: 'info', message: `Next question: ${next.display_name || next.name}`, data: { parameter_id: next.id } });
    return {
      status: 'question',
      parameter_id: question.parameter_id,
      parameter_name: question.name,
      display_name: question.display_name,
      text: question.text,
      options: question.options,
      question,
      ...(question.input ? { input: question.input } : {}),
      ...(straddle ? { exact_value_requested: true, exact_value_reason: question.exact_value_reason } : {}),
      log,
    };
  }
  return complete(standing, log);
}

function complete(standing: ReturnType<typeof standingOf>, log: LogEntry[]): ClinicalCompletedStep {
  const { findings, undetermined } = standing;
  const first = findings[0];
  for (const finding of findings) {
    log.push({ type: 'success', message: `Rule "${finding.rule_name}" matched (${finding.severity})`, data: { rule_id: finding.rule_id } });
  }
  if (undetermined.length > 0) {
    log.push({
      type: 'warning',
      message: `Could not be evaluated: ${undetermined.map((r) => `"${r.rule_name}"`).join(', ')}`,
      data: { undetermined_rules: undetermined },
    });
  }
  if (!first) {
    const ruledOut = ruledOutOf(standing.evaluated);
    log.push({
      type: 'info',
      message: noFindingMessage(
        ruledOut.map((r) => r.statement),
        undetermined.length,
      ),
    });
    log.push({ type: 'warning', message: CLINICAL_NO_MATCH });
    return { status: 'completed', recommendation: null, findings: [], undetermined_rules: undetermined, ruled_out: ruledOut, log };
  }
  const firstEntry = standing.fired[0];
  const higher = standing.undecided.filter((e) => compareRules(e.prepared.rule, firstEntry.prepared.rule) < 0);
  const higherRules = undetermined.filter((u) => higher.some((e) => e.prepared.rule.id === u.rule_id));
  const recommendation = higherRules.length > 0 ? { ...first, undetermined_higher_rules: higherRules } : first;
  return {
    status: 'completed',
    recommendation,
    findings: [recommendation, ...findings.slice(1)],
    undetermined_rules: undetermined,
    ruled_out: [],
    log,
  };
}

/** The first step of a fresh (or restarted) assessment: nothing is answered yet. */
export function clinicalStart(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  options: ClinicalStepOptions = {},
): ClinicalStep {
  return clinicalStep(rules, parameters, {}, options);
}
