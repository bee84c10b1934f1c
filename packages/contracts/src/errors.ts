/**
 * The error body of every 4xx/5xx answer (docs/api.md, "Errors") and the stable codes it carries.
 * The backend's one table (backend/src/common/errors.ts) maps each code to its HTTP status.
 */

export const ERROR_CODES = [
  'validation_failed',
  'invalid_json',
  'invalid_credentials',
  'bad_request',
  'unauthorized',
  'invalid_jwt',
  'session_not_found',
  'invalid_refresh_token',
  'forbidden',
  'not_found',
  'conflict',
  'email_taken',
  'stale_step',
  'payload_too_large',
  'unsupported_media_type',
  'weak_password',
  'out_of_range',
  'unit_not_accepted',
  'rate_limited',
  'internal_error',
  'oauth_not_configured',
  'service_unavailable',
  // CDS Hooks (issue 11)
  'invalid_hook_request',
  'unknown_hook',
  'invalid_prefetch',
  'invalid_client_jwt',
  'unknown_service',
  'fhir_data_unavailable',
  'fhir_server_not_allowed',
  'prefill_unavailable',
  'record_context_unavailable',
  // FHIR out and the adaptive questionnaire (issue 11)
  'invalid_fhir_resource',
  'questionnaire_mismatch',
  'invalid_feedback',
  // Records in (issue 21)
  'import_source_not_allowed',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldError {
  field: string;
  message: string;
}

export interface ErrorBody {
  statusCode: number;
  code?: ErrorCode | string;
  message?: string;
  details?: FieldError[] | string[];
}
