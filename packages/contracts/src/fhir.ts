/**
 * FHIR R4 out and the adaptive questionnaire (issue 11). The resources themselves follow FHIR R4;
 * these are the code systems and names our resources use, so clients (and the tests) read them
 * from one place.
 */

export const FHIR_SYSTEM = {
  loinc: 'http://loinc.org',
  ucum: 'http://unitsofmeasure.org',
  /** "Not available" is an unknown value, never false. */
  dataAbsentReason: 'http://terminology.hl7.org/CodeSystem/data-absent-reason',
} as const;

/** The data-absent-reason code for an answer the clinician did not have. */
export const NOT_AVAILABLE_CODE = 'asked-unknown';

/** Relative to the app's public URL: the code system of a question's answer options (codes "1", "2", ... in the order offered). */
export const FHIR_OPTION_SYSTEM_PATH = '/api/fhir/CodeSystem/answer-option';
/** Relative to the public URL: the code system of parameters without a LOINC code (code = parameter name). */
export const FHIR_PARAMETER_SYSTEM_PATH = '/api/fhir/CodeSystem/parameter';
/** Extension on a completed QuestionnaireResponse pointing at its contained GuidanceResponse (`#result`). */
export const FHIR_RESULT_EXTENSION_PATH = '/api/fhir/StructureDefinition/guidance-response';

/** Any FHIR resource as JSON. */
export interface FhirResourceJson {
  resourceType: string;
  id?: string;
  [element: string]: unknown;
}

/** `GET /api/assessments/:id/fhir` and `GET /api/rule-sets/:id/versions/:number/fhir`. */
export interface FhirBundleJson extends FhirResourceJson {
  resourceType: 'Bundle';
  type: 'collection';
  entry: { fullUrl: string; resource: FhirResourceJson }[];
}

/** `POST /api/fhir/Questionnaire/:id/$next-question`: the QuestionnaireResponse, or a Parameters with it as `in`. */
export type NextQuestionRequest = FhirResourceJson;

/** One entry of `POST /api/fhir`'s answer: how that input entry went. */
export interface FhirBundleResponseEntryJson {
  response: {
    /** '201 Created', '200 OK' (replaced) or '400 Bad Request'. */
    status: string;
    /** `resourceType/id/_history/version` of the stored resource. */
    location?: string;
    etag?: string;
    lastModified?: string;
    /** Why the entry was not stored. */
    outcome?: FhirResourceJson;
  };
}

/** `POST /api/fhir`: a batch-response (batch and collection Bundles) or transaction-response, one entry per input entry. */
export interface FhirBundleResponseJson extends FhirResourceJson {
  resourceType: 'Bundle';
  type: 'batch-response' | 'transaction-response';
  entry: FhirBundleResponseEntryJson[];
}

/**
 * `GET /api/value-sets` (administrators): a value set a criterion may name, as the criterion editor
 * offers it. `stored` when an expansion was loaded (POST /api/fhir, or at start-up for the shipped
 * ones), `shipped` when only the product's copy is there; a criterion reads the stored one first.
 */
export interface ValueSetSummaryJson {
  /** The canonical URL a criterion names. */
  url: string;
  /** Its title for a person ("HbA1c Laboratory Test"), else its name, else the URL. */
  title: string;
  version: string | null;
  /** How many codes its expansion holds. */
  code_count: number;
  /** The code systems of those codes (`http://loinc.org`…), sorted. */
  systems: string[];
  source: 'stored' | 'shipped';
}
