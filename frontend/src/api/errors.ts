import type { ErrorBody } from '@cds/contracts';

/**
 * An HTTP failure. Field names match react-admin's HttpError (message, status, body) so the
 * admin console's dataProvider/authProvider can pass it through unchanged.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly details: ErrorBody['details'];
  readonly body: unknown;

  constructor(message: string, status: number, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    const b = (body && typeof body === 'object' ? body : {}) as Partial<ErrorBody>;
    this.code = typeof b.code === 'string' ? b.code : undefined;
    this.details = b.details;
  }
}

/** The network itself failed (offline, DNS, connection reset). */
export class NetworkError extends Error {
  constructor(cause?: unknown) {
    super('Unable to reach the server. Check your connection and try again.');
    this.name = 'NetworkError';
    (this as { cause?: unknown }).cause = cause;
  }
}

/** The server's message when it sent one, else the fallback the spec names. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError || error instanceof NetworkError) return error.message || fallback;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/** weak_password details are plain strings; validation_failed details are { field, message }. */
export function errorDetails(error: unknown): string[] {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return [];
  return error.details.map((d) => (typeof d === 'string' ? d : d.message));
}
