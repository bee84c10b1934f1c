/** CDS Hooks (issue 11): registered clients and the prefill a card's link opens the assessment with. */

/** The query parameter of a card link to /clinical-form that carries the one-time prefill ticket. */
export const CDS_PREFILL_PARAM = 'prefill';

/** Minutes a card link's prefill ticket stays redeemable (once). */
export const CDS_PREFILL_TTL_MINUTES = 30;

/** One value the EHR gave, as observed: the clinician confirms it before it becomes an answer. */
export interface CdsPrefillValue {
  parameter_id: string;
  parameter_name: string;
  display_name: string;
  /** As the EHR recorded it: a number in `unit`, or an option value (e.g. sex). */
  value: number | string | boolean;
  /** UCUM code the value is in (the Observation's), or null. */
  unit: string | null;
  /** When it was observed (ISO); null for values read from the Patient (age, sex). */
  observed_at: string | null;
  /** Where it came from: an Observation, or the Patient resource (birthDate, gender). */
  source: 'observation' | 'patient';
}

/**
 * Minutes after redeeming a ticket within which an assessment may name its `record_context`
 * (POST /api/assessments), once.
 */
export const RECORD_CONTEXT_TTL_MINUTES = 60;

/** Whose values these are, as the record named the patient when they were read. */
export interface RecordPatientJson {
  /** Where the values were read: the clinic's stored records (the Panel) or an EHR (a CDS Hooks card). */
  source: 'record' | 'ehr';
  /** "Patient/<id>": in the stored records, or the EHR's own patient id from the hook's context. */
  reference: string;
  /** As the Patient resource gives it ("Given Family"); null when the record gave no name or it was not read. */
  name: string | null;
}

/** POST /api/cds-prefill/redeem { ticket } → the values behind a card's link (once). */
export interface CdsPrefillJson {
  values: CdsPrefillValue[];
  issued_at: string;
  /** Where the values were read: the stored records (the Panel's "Start assessment") or an EHR (a CDS card). */
  origin: 'record' | 'ehr';
  /** Who the values are about; null for a ticket issued without it. */
  patient: RecordPatientJson | null;
  /**
   * Opaque: name it as `record_context` when starting the assessment (POST /api/assessments), within
   * RECORD_CONTEXT_TTL_MINUTES, and the assessment keeps the patient and the results the values were
   * read from. null for a ticket issued without them.
   */
  record_context: string | null;
}

/** An EHR registered to call the CDS Hooks services (GET/POST /api/cds-clients). */
export interface CdsClientJson {
  id: string;
  issuer: string;
  name: string;
  jwks_url: string | null;
  jwk: Record<string, unknown> | null;
  allowed_services: string[];
  /** FHIR base URLs the client may name as fhirServer; any other is refused (403) and never fetched. */
  allowed_fhir_servers: string[];
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

/** The fields PUT /api/cds-clients/:id takes (react-admin sends the whole record; the rest is dropped). */
export const CDS_CLIENT_WRITABLE_FIELDS = [
  'issuer',
  'name',
  'jwks_url',
  'jwk',
  'allowed_services',
  'allowed_fhir_servers',
  'is_active',
] as const;

/** The CDS Hooks services this app offers (service id = hook name). */
export const CDS_SERVICE_IDS = ['patient-view'] as const;

// The CDS Hooks 2.0 bodies this app answers with (https://cds-hooks.hl7.org/2.0/): the specification
// owns the shapes; these are the parts of them the app fills.

/** One service in the discovery answer (GET /api/cds-services). */
export interface CdsServiceJson {
  hook: string;
  id: string;
  title: string;
  description: string;
  /** FHIR queries the EHR may run ahead of the call, by key (`{{context.patientId}}` templates). */
  prefetch: Record<string, string>;
}

/** GET /api/cds-services: discovery. */
export interface CdsServicesJson {
  services: CdsServiceJson[];
}

/** A card: one finding (or the list of rules the record could not decide), with a link to the assessment. */
export interface CdsCardJson {
  /** Feedback names the card by it. */
  uuid: string;
  summary: string;
  indicator: 'info' | 'warning' | 'critical';
  source: { label: string; topic?: { system: string; code: string; display: string } };
  detail: string;
  links: { label: string; url: string; type: 'absolute' }[];
}

/** POST /api/cds-services/:id: the cards for one hook call. */
export interface CdsHookResponseJson {
  cards: CdsCardJson[];
}

/** POST /api/cds-services/:id/feedback: an empty object once every item is recorded. */
export type CdsFeedbackAckJson = Record<string, never>;

/**
 * POST /api/cds-services/:id: a hook request as the EHR sends it (patient-view), with a client JWT in
 * Authorization. Checked field by field by the service (400 invalid_hook_request naming the field).
 */
export interface CdsHookRequestJson {
  /** @example "patient-view" */
  hook: string;
  /** @example "d1577c69-dfbe-44ad-ba6d-3e05e953b2ea" */
  hookInstance: string;
  /** The FHIR base URL to fetch from when prefetch is missing; one of the client's allowed_fhir_servers. */
  fhirServer?: string;
  fhirAuthorization?: {
    access_token: string;
    /** @example "Bearer" */
    token_type: string;
    expires_in: number;
    scope: string;
    subject: string;
  };
  context: {
    /** @example "Practitioner/example" */
    userId: string;
    /** @example "p1" */
    patientId: string;
    encounterId?: string;
  };
  /**
   * FHIR resources (searchset Bundles, and the Patient) by the discovery answer's prefetch keys.
   * @example { "patient": { "resourceType": "Patient", "id": "p1", "birthDate": "1960-04-02" }, "obs-4548-4": { "resourceType": "Bundle", "type": "searchset", "entry": [{ "resource": { "resourceType": "Observation", "status": "final", "subject": { "reference": "Patient/p1" }, "code": { "coding": [{ "system": "http://loinc.org", "code": "4548-4" }] }, "effectiveDateTime": "2026-11-02T10:15:00Z", "valueQuantity": { "value": 7.2, "unit": "%", "system": "http://unitsofmeasure.org", "code": "%" } } }] } }
   */
  prefetch?: Record<string, unknown>;
}

/** POST /api/cds-services/:id/feedback: what the clinician did with cards this service returned. */
export interface CdsFeedbackRequestJson {
  feedback: {
    /** @example "5d1f0e6e-0000-4000-8000-000000000000" */
    card: string;
    outcome: 'accepted' | 'overridden';
    overrideReason?: { reason?: { system?: string; code: string; display?: string }; userComment?: string };
    /** RFC 3339 with an offset, years 1900-2200. @example "2026-11-02T10:15:00Z" */
    outcomeTimestamp: string;
  }[];
}
