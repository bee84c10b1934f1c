// The FHIR mapping as pure functions (no Nest classes) for the modules that own the routes showing it:
// assessments (GET /api/assessments/:id/fhir) and rules (GET /api/rule-sets/:id/versions/:number/fhir).
// The fhir module's Nest module imports both, so they reach this file, never its index.
export { assessmentBundle, ruleVersionBundle, type AssessmentFhirInput } from './bundles';
export type { FhirContext, VersionInfo } from './fhir-resources';
