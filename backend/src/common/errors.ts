import type { ErrorCode, FieldError } from '@cds/contracts';

export type { ErrorCode, FieldError };

/**
 * Domain errors carry a stable code (listed in @cds/contracts); `ERROR_STATUS` is the one table
 * that maps codes to HTTP statuses. Services and jobs throw these, never HTTP exceptions.
 */
export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_json: 400,
  invalid_credentials: 400,
  bad_request: 400,
  invalid_hook_request: 400,
  unknown_hook: 400,
  invalid_prefetch: 400,
  invalid_fhir_resource: 400,
  invalid_feedback: 400,
  unauthorized: 401,
  invalid_jwt: 401,
  invalid_client_jwt: 401,
  session_not_found: 401,
  invalid_refresh_token: 401,
  forbidden: 403,
  fhir_server_not_allowed: 403,
  import_source_not_allowed: 403,
  not_found: 404,
  unknown_service: 404,
  conflict: 409,
  email_taken: 409,
  stale_step: 409,
  prefill_unavailable: 410,
  record_context_unavailable: 410,
  fhir_data_unavailable: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  weak_password: 422,
  out_of_range: 422,
  unit_not_accepted: 422,
  questionnaire_mismatch: 422,
  rate_limited: 429,
  internal_error: 500,
  oauth_not_configured: 501,
  service_unavailable: 503,
} as const satisfies Record<ErrorCode, number>;

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what = 'Resource') => new DomainError('not_found', `${what} not found`);
export const forbidden = (message = 'You do not have permission to perform this action') => new DomainError('forbidden', message);
export const conflict = (message: string, details?: unknown) => new DomainError('conflict', message, details);
export const validationFailed = (details: FieldError[]) =>
  new DomainError('validation_failed', details.map((d) => d.message).join('; ') || 'Validation failed', details);

/** Seconds a client should wait before retrying a 503 (the database or queue was unreachable). */
export const RETRY_AFTER_SECONDS = 5;

// Socket-level failures to reach PostgreSQL (or Redis) from Node and the pg driver.
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
// SQLSTATE class 08 (connection exception), admin/crash shutdown, cannot connect now, too many connections,
// and a statement cancelled by statement_timeout (57014) or lock_timeout (55P03): the database is too
// busy or blocked right now, which the request did not cause.
const UNAVAILABLE_SQLSTATES = /^(08...|57P01|57P02|57P03|53300|57014|55P03)$/;
// The last one is the driver's own deadline (query_timeout) on a server that stopped answering.
const CONNECTION_MESSAGES =
  /Query read timeout|Connection terminated|timeout exceeded when trying to connect|Connection ended unexpectedly|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end|the database system is (starting up|shutting down)/i;

/**
 * True when an error means the database could not be reached, not that the request was
 * wrong: the request may well succeed later, so it is a 503, never a 500. Follows the
 * wrappers TypeORM and Node put around the driver error.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (CONNECTION_ERRNOS.has(e.code) || UNAVAILABLE_SQLSTATES.test(e.code))) return true;
  if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
  // AggregateError (a host with several addresses refused every one).
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.driverError, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1);
}
