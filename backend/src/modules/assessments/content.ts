// Pure functions of the assessments module (no Nest classes) for the FHIR mapping, which the
// assessments module itself calls for GET /api/assessments/:id/fhir: the fhir module's content
// cannot go through this module's index without a require cycle (index → module → controller → fhir).
export { formatNumber } from './answer-check';
export { questionJson } from './answer-record';
export { toActions } from './outcome';
export type { Knowledge } from './published-rules';
