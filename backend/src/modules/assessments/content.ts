// Pure functions of the assessments module (no Nest classes) for the FHIR mapping, which the
// assessments module itself calls for GET /api/assessments/:id/fhir: the fhir module's content
// cannot go through this module's index without a require cycle (index → module → controller → fhir).
export { formatNumber } from './answer-check';
export { questionJson } from './answer-record';
export { toActions } from './outcome';
export type { Knowledge } from './published-rules';
// Rule analytics' aggregates over the stored assessments (and CDS Hooks cards), which the rules module serves
// under /api/rule-sets/:id/analytics: assessments imports rules, so rules cannot import this module's index.
export {
  cdsFeedback,
  completedByPeriod,
  matchesByPeriod,
  type CdsFeedbackRow,
  type PeriodMatchesRow,
  type PeriodTotalsRow,
} from './rule-analytics.repository';
