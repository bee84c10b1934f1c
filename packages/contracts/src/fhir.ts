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

/** `POST /api/fhir/$import` (issue 21): the NDJSON media type of the upload and of each URL input. */
export const NDJSON_MEDIA_TYPE = 'application/fhir+ndjson';

export type RecordImportStatus = 'queued' | 'running' | 'completed' | 'failed';

/** One URL input of an import: the resource type it holds and where to fetch it (an allow-listed server). */
export interface RecordImportInputJson {
  type: string;
  url: string;
}

/** `POST /api/fhir/$import`'s JSON body: NDJSON files fetched from an allow-listed FHIR server. */
export interface RecordImportRequestJson {
  inputFormat: typeof NDJSON_MEDIA_TYPE;
  input: RecordImportInputJson[];
}

/** A line of the input that was skipped: its 1-based number (counted across the inputs in order) and why. */
export interface RecordImportErrorJson {
  line: number;
  diagnostics: string;
}

/** `GET /api/jobs/:id`: a records import, as a background job. */
export interface RecordImportJson {
  id: string;
  kind: 'fhir-import';
  status: RecordImportStatus;
  /** Lines read so far of `total` (null until URL inputs are fetched). */
  progress: { done: number; total: number | null };
  /** Resources written to the store (when completed): distinct resourceType/id, new or replaced. */
  stored: number;
  /** Lines skipped (not JSON, not valid FHIR R4, no id). */
  invalid: number;
  /** The first 100 skipped lines. */
  errors: RecordImportErrorJson[];
  /** Why the import failed (nothing was stored). */
  failure: string | null;
  inputs: RecordImportInputJson[] | null;
  requested_by: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}
