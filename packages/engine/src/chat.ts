import { decidingParameters, evaluatePrepared, standingOf, type Standing } from './findings';
import { readCondition } from './normalize';
import { NO_RULE_FIRED, noFindingMessage, ruledOutOf } from './ruled-out';
import { buildParameterIndex, resolveParameter, type ParameterIndex } from './parameters';
import { preparedFor, type PreparedRuleSet } from './prepared';
import { defaultQuestionText, questionFor, questionOptions } from './questions';
import type {
  AnswerOption,
  Answers,
  ChatMatch,
  ChatQuestion,
  ChatStep,
  EngineParameter,
  EngineRule,
  EvaluationOptions,
  RuleFinding,
} from './types';

export { defaultQuestionText };

export const CHAT_MULTIPLE_MATCHES = 'Multiple recommendations are available. Which would you like to follow?';
/**
 * The start of the message of a chat with no finding; the rest says what the answers ruled out
 * (noFindingMessage). Product-spec §4 told the physician to "consult with your healthcare
 * provider": advice for a patient, shown to the physician who is that provider (issue 20).
 */
export const CHAT_NO_MATCH = NO_RULE_FIRED;

type ChatOptions = Omit<EvaluationOptions, 'unanswered'> & {
  /** These rules and parameters prepared once (prepareRuleSet); ignored unless made from the same arrays. */
  prepared?: PreparedRuleSet;
};

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
 * docs/product-spec.md section 4: parameters ranked by how often the rules use them (each condition counts),
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

/**
 * The chat's options: the same partition bands and options as the clinical form (issue 9 replaces
 * product-spec §4's one option per condition with ±1 stand-ins, which offered no complement, so a
 * healthy patient could only pick a diagnosis).
 */
export function chatOptions(
  parameter: EngineParameter,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[] = [parameter],
): AnswerOption[] {
  return questionOptions(parameter, rules, parameters);
}

function standing(rules: readonly EngineRule[], parameters: readonly EngineParameter[], answers: Answers, options: ChatOptions): Standing {
  const { prepared, ...evaluation } = options;
  return standingOf(evaluatePrepared(preparedFor(rules, parameters, prepared).ranked, answers, evaluation));
}

function nextQuestion(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  answers: Answers,
  current: Standing,
  prepared: PreparedRuleSet | undefined,
): ChatQuestion | null {
  const { unanswered } = decidingParameters(current.undecided, answers);
  const next = chatQuestionOrder(rules, parameters).find((p) => unanswered.has(p.id));
  return next ? questionFor(next, rules, parameters, prepared) : null;
}

/**
 * The next question in usage order that can still change which rules fire; null when none can.
 * Questions no undecided rule uses are skipped.
 */
export function chatNextQuestion(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  answers: Answers,
  options: ChatOptions = {},
): ChatQuestion | null {
  return nextQuestion(rules, parameters, answers, standing(rules, parameters, answers, options), options.prepared);
}

function matchesOf(current: Standing): ChatMatch[] {
  return current.fired.map((entry, i) => ({ rule: entry.prepared.rule, trace: entry.evaluation.trace, finding: current.findings[i] }));
}

/**
 * Rules that fire on the answers, in finding order (critical, high, then the rest, each by
 * ranking). An unanswered or Not available condition is unknown, never satisfied.
 */
export function chatEvaluate(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  answers: Answers,
  options: ChatOptions = {},
): ChatMatch[] {
  return matchesOf(standing(rules, parameters, answers, options));
}

/**
 * The final message. One finding: the spec's "Based on your responses: {description or name}".
 * Several: every finding in the assessment's order (critical, high, then the rest, each tier by
 * ranking), the chosen one marked, then what was chosen. Issue 20: the earlier text put the chosen
 * rule first and named only the other critical or high findings, so a chosen low finding read
 * above two critical ones and medium findings were dropped.
 */
function completionMessage(chosen: RuleFinding, said: string, findings: readonly RuleFinding[]): string {
  if (findings.length <= 1) return `Based on your responses: ${said}`;
  const listed = findings.map((f) => `"${f.rule_name}" (${f.severity}${f.rule_id === chosen.rule_id ? ', chosen' : ''})`).join('; ');
  const what = said === chosen.rule_name ? '.' : `: ${said}`;
  return `Based on your responses, ${findings.length} rules fired, most urgent first: ${listed}. You chose to follow "${chosen.rule_name}"${what}`;
}

function completedWith(chosen: ChatMatch, current: Standing): ChatStep {
  const { rule, finding } = chosen;
  const description = typeof rule.description === 'string' ? rule.description.trim() : '';
  const others = current.findings.filter((f) => f.rule_id !== finding.rule_id);
  const said = description || rule.name;
  return {
    status: 'completed',
    message: completionMessage(finding, said, current.findings),
    rule,
    finding,
    final_recommendations: finding.actions,
    other_findings: others,
    findings: current.findings,
    matches: matchesOf(current),
    undetermined_rules: current.undetermined,
    ruled_out: [],
  };
}

function choiceOption(finding: RuleFinding) {
  return { label: finding.rule_name, value: finding.rule_id, severity: finding.severity, actions: finding.actions, basis: finding.basis };
}

/** What the chat assistant does next: ask, offer a choice between fired rules, or complete. */
export function chatStep(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  answers: Answers,
  options: ChatOptions = {},
): ChatStep {
  const current = standing(rules, parameters, answers, options);
  const question = nextQuestion(rules, parameters, answers, current, options.prepared);
  if (question) return { status: 'question', question };
  const matches = matchesOf(current);
  if (matches.length > 1) {
    return {
      status: 'choice',
      message: CHAT_MULTIPLE_MATCHES,
      options: current.findings.map(choiceOption),
      matches,
      undetermined_rules: current.undetermined,
    };
  }
  if (matches.length === 1) return completedWith(matches[0], current);
  const ruledOut = ruledOutOf(current.evaluated);
  return {
    status: 'completed',
    message: noFindingMessage(
      ruledOut.map((r) => r.statement),
      current.undetermined.length,
    ),
    rule: null,
    finding: null,
    final_recommendations: [],
    other_findings: [],
    findings: [],
    matches,
    undetermined_rules: current.undetermined,
    ruled_out: ruledOut,
  };
}

/**
 * Completes a multiple-match choice. Null when the chosen rule is not one of the fired rules for
 * these answers (the caller turns that into its own error). Whatever is chosen, the completion
 * still lists every finding, most urgent first.
 */
export function chatChoose(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  answers: Answers,
  ruleId: string,
  options: ChatOptions = {},
): ChatStep | null {
  const current = standing(rules, parameters, answers, options);
  const chosen = matchesOf(current).find((m) => m.rule.id === ruleId);
  return chosen ? completedWith(chosen, current) : null;
}
