import { evaluatePreparedRule, prepareRule } from './evaluate';
import { readCondition } from './normalize';
import { canonicalOperator, OPERATOR_SYMBOL } from './operators';
import { buildParameterIndex, resolveParameter, type ParameterIndex } from './parameters';
import type {
  AnswerOption,
  AnswerValue,
  Answers,
  ChatMatch,
  ChatQuestion,
  ChatStep,
  EngineParameter,
  EngineRule,
  EvaluationOptions,
} from './types';
import { answerFor, isBlank, toNumber } from './values';

export const CHAT_MULTIPLE_MATCHES = 'Multiple recommendations are available. Which would you like to follow?';
export const CHAT_NO_MATCH =
  'Based on your responses, no specific recommendations are available at this time. Please consult with your healthcare provider.';

/** The fallback wording when the polishing service gives nothing. */
export function defaultQuestionText(parameter: Pick<EngineParameter, 'display_name' | 'name'>): string {
  return `What is your ${(parameter.display_name || parameter.name || '').toLowerCase()}?`;
}

/** Each condition of each rule, with the parameter it resolves to (if any). */
function* conditionsOf(rules: readonly EngineRule[], index: ParameterIndex) {
  for (const rule of rules) {
    for (const raw of Array.isArray(rule.conditions) ? rule.conditions : []) {
      const condition = readCondition(raw);
      yield { rule, condition, parameter: resolveParameter(condition.parameter, index)?.parameter ?? null };
    }
  }
}

function isAskable(parameter: EngineParameter): boolean {
  return parameter.is_active !== false;
}

/**
 * Spec section 4: parameters ranked by how often the rules use them (each condition counts),
 * most used first, ties in loaded order; when no rule uses any, all parameters in loaded order.
 * Callers pass the active rules of the published, active rule sets.
 */
export function chatQuestionOrder(rules: readonly EngineRule[], parameters: readonly EngineParameter[]): EngineParameter[] {
  const index = buildParameterIndex(parameters);
  const uses = new Map<string, number>();
  for (const { parameter } of conditionsOf(rules, index)) {
    if (parameter) uses.set(parameter.id, (uses.get(parameter.id) ?? 0) + 1);
  }
  const askable = parameters.filter(isAskable);
  const used = askable.filter((p) => (uses.get(p.id) ?? 0) > 0);
  if (used.length === 0) return askable;
  return used
    .map((parameter, position) => ({ parameter, position, count: uses.get(parameter.id) ?? 0 }))
    .sort((a, b) => b.count - a.count || a.position - b.position)
    .map((entry) => entry.parameter);
}

const NOT_MENTIONED: readonly AnswerOption[] = [
  { label: 'Normal', value: 'normal' },
  { label: 'Abnormal', value: 'abnormal' },
  { label: 'Not Sure', value: 'unknown' },
];
const NONE_VALID: readonly AnswerOption[] = [
  { label: 'Low', value: 'low' },
  { label: 'Normal', value: 'normal' },
  { label: 'High', value: 'high' },
];

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * Spec section 4, chat option derivation: one option per distinct condition on the parameter,
 * submitting threshold - 1 for < and <=, threshold + 1 for > and >=, the threshold for ==,
 * sorted ascending by value. `parameters` resolves references written as names.
 */
export function chatOptions(
  parameter: EngineParameter,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[] = [parameter],
): AnswerOption[] {
  const index = buildParameterIndex(parameters.includes(parameter) ? parameters : [parameter, ...parameters]);
  const mentions = [...conditionsOf(rules, index)].filter((entry) => entry.parameter?.id === parameter.id);
  if (mentions.length === 0) return NOT_MENTIONED.map((o) => ({ ...o }));

  const seen = new Set<string>();
  const options: { option: AnswerOption; order: number }[] = [];
  for (const { condition } of mentions) {
    const op = canonicalOperator(condition.operator);
    const threshold = condition.value;
    const key = `${op}\u0000${typeof threshold}\u0000${String(threshold)}`;
    if (op === null || seen.has(key)) continue;
    seen.add(key);
    const t = toNumber(threshold);
    let value: AnswerValue;
    if ((op === 'less_than' || op === 'less_equal') && !Number.isNaN(t)) value = t - 1;
    else if ((op === 'greater_than' || op === 'greater_equal') && !Number.isNaN(t)) value = t + 1;
    else if (op === 'equals' && isScalar(threshold)) value = threshold;
    else continue;
    const label = `${parameter.name} ${OPERATOR_SYMBOL[op]} ${String(threshold)}`;
    options.push({ option: { label, value }, order: options.length });
  }
  if (options.length === 0) return NONE_VALID.map((o) => ({ ...o }));
  // Numbers ascending; values that are not numbers keep their order after them.
  const rank = (value: AnswerValue | 'unknown'): number => (typeof value === 'number' ? value : Infinity);
  return options.sort((a, b) => rank(a.option.value) - rank(b.option.value) || a.order - b.order).map((o) => o.option);
}

function questionFor(parameter: EngineParameter, rules: readonly EngineRule[], parameters: readonly EngineParameter[]): ChatQuestion {
  return {
    parameter_id: parameter.id,
    parameter_name: parameter.name,
    display_name: parameter.display_name,
    text: defaultQuestionText(parameter),
    options: chatOptions(parameter, rules, parameters),
  };
}

/** The first unanswered parameter in question order, or null when every one has an answer. */
export function chatNextQuestion(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  answers: Answers,
): ChatQuestion | null {
  const next = chatQuestionOrder(rules, parameters).find((p) => isBlank(answerFor(answers, p.id)));
  return next ? questionFor(next, rules, parameters) : null;
}

/**
 * Rules that match the answers, checking only conditions whose parameter has an answer
 * (a rule with nothing checked does not match). Highest priority first, then as given.
 */
export function chatEvaluate(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  answers: Answers,
  options: Omit<EvaluationOptions, 'unanswered'> = {},
): ChatMatch[] {
  const index = buildParameterIndex(parameters);
  const matches: { match: ChatMatch; position: number }[] = [];
  rules.forEach((rule, position) => {
    const { result, trace } = evaluatePreparedRule(prepareRule(rule, index), answers, { ...options, unanswered: 'skip' });
    if (result === true) matches.push({ match: { rule, trace }, position });
  });
  return matches
    .sort((a, b) => (Number(b.match.rule.priority) || 0) - (Number(a.match.rule.priority) || 0) || a.position - b.position)
    .map((m) => m.match);
}

function completedWith(rule: EngineRule, matches: ChatMatch[]): ChatStep {
  const description = typeof rule.description === 'string' ? rule.description.trim() : '';
  return {
    status: 'completed',
    message: `Based on your responses: ${description || rule.name}`,
    rule,
    final_recommendations: Array.isArray(rule.actions) ? rule.actions : [],
    matches,
  };
}

/** What the chat assistant does next: ask, offer a choice between matches, or complete. */
export function chatStep(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  answers: Answers,
  options: Omit<EvaluationOptions, 'unanswered'> = {},
): ChatStep {
  const question = chatNextQuestion(rules, parameters, answers);
  if (question) return { status: 'question', question };
  const matches = chatEvaluate(rules, parameters, answers, options);
  if (matches.length > 1) {
    return {
      status: 'choice',
      message: CHAT_MULTIPLE_MATCHES,
      options: matches.map((m) => ({ label: m.rule.name, value: m.rule.id })),
      matches,
    };
  }
  if (matches.length === 1) return completedWith(matches[0].rule, matches);
  return { status: 'completed', message: CHAT_NO_MATCH, rule: null, final_recommendations: [], matches };
}

/**
 * Completes a multiple-match choice. Null when the chosen rule is not one of the matches
 * for these answers (the caller turns that into its own error).
 */
export function chatChoose(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  answers: Answers,
  ruleId: string,
  options: Omit<EvaluationOptions, 'unanswered'> = {},
): ChatStep | null {
  const matches = chatEvaluate(rules, parameters, answers, options);
  const chosen = matches.find((m) => m.rule.id === ruleId);
  return chosen ? completedWith(chosen.rule, matches) : null;
}
