export * from './types';
export { canonicalOperator, operatorsForDataType, typeClassOf, CANONICAL_OPERATORS, OPERATOR_SYMBOL } from './operators';
export type { TypeClass } from './operators';
export { buildParameterIndex, resolveParameter } from './parameters';
export type { ParameterIndex, ResolvedParameter } from './parameters';
export { evaluateRule, and3, or3 } from './evaluate';
export { compareInterval } from './condition';
export { compileRuleSet, RESULT_FALSE, RESULT_TRUE, RESULT_UNKNOWN } from './compile';
export type { CompiledRuleSet, CompileOptions, EvaluationMode } from './compile';
export { normalizeCondition, normalizeAction, DEFAULT_ACTION_SEVERITY, DEFAULT_ACTION_TYPE } from './normalize';
export { validateCondition } from './validate';
export {
  chatQuestionOrder,
  chatOptions,
  chatNextQuestion,
  chatEvaluate,
  chatStep,
  chatChoose,
  defaultQuestionText,
  CHAT_MULTIPLE_MATCHES,
  CHAT_NO_MATCH,
} from './chat';
export {
  clinicalStart,
  clinicalStep,
  clinicalQuestionOrder,
  clinicalOptions,
  clinicalRuleOrder,
  CLINICAL_FIXED_ORDER,
  CLINICAL_NO_MATCH,
  DEFAULT_RESULT_SEVERITY,
} from './clinical';
export { prepareRuleSet } from './prepared';
export type { PreparedRuleSet } from './prepared';
export { compareRules, orderFindings, rankRules, ruleSeverity, severityLevel } from './findings';
export {
  answerText,
  cutPoints,
  numericInput,
  partitionBands,
  questionFor,
  questionOptions,
  NOT_AVAILABLE_LABEL,
  NOT_AVAILABLE_OPTION,
} from './questions';
export type { Band } from './questions';
export { unitDisplay } from './units';
export { NO_RULE_FIRED, noFindingMessage, ruledOutStatement } from './ruled-out';
export { analyzeRuleSet } from './analysis';
export { uncoveredBands } from './analysis-uncovered';
export type { RuleSide } from './analysis-uncovered';
export { decimalsFor, decimalPlaces, declaredDecimals } from './analysis-precision';
export { boundaryVignettes, rankFindings, runVignette, vignettePasses } from './vignettes';
export type { BoundaryVignette, VignetteResult } from './vignettes';
/** The engine's own reading of answers, for services that check answers before storing them. */
export { isBlank, isRangeAnswer, isUnknownSentinel, readInterval, toDay, toNumber } from './values';
export type { Interval } from './values';
export { generatePopulation, ImpactComparer, populationCandidates, seededRandom } from './impact';
export type {
  ImpactCauseKind,
  ImpactComparison,
  ImpactFindingChange,
  ImpactOptions,
  ImpactPatient,
  ImpactTally,
  ImpactTransition,
  PopulationOptions,
} from './impact';
export { conditionsText, conditionText, ruleChanges } from './impact-changes';
export type { RuleChange, RuleChangeDetail, RuleChangeField } from './impact-changes';
/** Reading a patient's record: statuses, dates, comparators, units and what a criterion takes. */
export * from './record';
/** Criteria: an input read from the patient's record over time (codes or value sets, statuses, windows, takes). */
export * from './criteria';
/** Quality measures in the same model: criteria-bound parameters, rules per population. */
export * from './measures';
