export * from './types';
export { canonicalOperator, operatorsForDataType, typeClassOf, CANONICAL_OPERATORS, OPERATOR_SYMBOL } from './operators';
export type { TypeClass } from './operators';
export { buildParameterIndex, resolveParameter } from './parameters';
export type { ParameterIndex, ResolvedParameter } from './parameters';
export { evaluateRule, and3, or3 } from './evaluate';
export {
  compileRuleSet,
  RESULT_FALSE,
  RESULT_TRUE,
  RESULT_UNKNOWN,
} from './compile';
export type { CompiledRuleSet, CompileOptions, EvaluationMode } from './compile';
export {
  normalizeCondition,
  normalizeAction,
  DEFAULT_ACTION_SEVERITY,
  DEFAULT_ACTION_TYPE,
} from './normalize';
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
export { analyzeRuleSet } from './analysis';
/** The engine's own reading of answers, for services that check answers before storing them. */
export { isBlank, isRangeAnswer, isUnknownSentinel, toDay, toNumber } from './values';
