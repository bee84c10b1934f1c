/**
 * Domain errors carry a stable code; `ERROR_STATUS` is the one table that maps
 * codes to HTTP statuses. Services and jobs throw these, never HTTP exceptions.
 */
export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_credentials: 400,
  bad_request: 400,
  unauthorized: 401,
  invalid_jwt: 401,
  session_not_found: 401,
  invalid_refresh_token: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  email_taken: 409,
  stale_step: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  weak_password: 422,
  rate_limited: 429,
  internal_error: 500,
  oauth_not_configured: 501,
  service_unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  field: string;
  message: string;
}

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
export const forbidden = (message = 'You do not have permission to perform this action') =>
  new DomainError('forbidden', message);
export const conflict = (message: string, details?: unknown) => new DomainError('conflict', message, details);
export const validationFailed = (details: FieldError[]) =>
  new DomainError('validation_failed', details.map((d) => d.message).join('; ') || 'Validation failed', details);
