// What other modules may use from the fhir module: FHIR JSON's media type on their own FHIR routes.
export { FhirJsonInterceptor } from './fhir-json.interceptor';
