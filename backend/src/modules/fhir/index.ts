// What other modules may use from the fhir module: its Nest module (the adaptive Questionnaire's routes).
// The FHIR mapping the assessments and rules modules call for their own routes is the pure `content.ts`.
export { FhirModule } from './fhir.module';
