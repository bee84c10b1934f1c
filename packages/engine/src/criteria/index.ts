export { CODED_ELEMENTS, CRITERION_RESOURCE_TYPES, CRITERION_TAKES, VALUE_FILTER_OPERATORS, WINDOW_RELATIONS } from './types';
export type {
  Criterion,
  CriterionContext,
  CriterionResourceType,
  CriterionResult,
  CriterionTake,
  CriterionWindow,
  CodedElement,
  HasCode,
  WindowRelation,
  Evidence,
  SetAside,
  ValueFilter,
  ValueFilterOperator,
} from './types';
export { prepareCriterion } from './evaluate';
export type { PrepareOptions, PreparedCriterion } from './evaluate';
export { criterionProblems } from './validate';
export type { CriterionProblem } from './validate';
export { DEFAULT_STATUSES } from './resources';
export { BOOLEAN_TAKES, isAnyOf, prepareCriterionSpec } from './any-of';
export type { CriterionSpec, PreparedSpec } from './any-of';
export { criterionText } from './text';
export type { TextNames } from './text';
export { criterionFitProblems, NUMBER_TAKES, takesFor } from './fit';
