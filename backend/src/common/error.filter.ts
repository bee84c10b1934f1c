import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { DomainError, ERROR_STATUS, ErrorCode, isDatabaseUnavailable, RETRY_AFTER_SECONDS } from './errors';
import { MAX_JSON_DEPTH } from './input-safety';
import { headersSent, sendJson, setHeader } from '../http/respond';

interface ErrorBody {
  statusCode: number;
  code: string;
  message: string;
  details?: unknown;
}

const STATUS_CODE: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/** Turns anything thrown into the docs/api.md error body. Unknown errors become a bare 500. */
export function toErrorBody(err: unknown): ErrorBody {
  // Nest wraps body-parser's errors in an HttpException; their `type` says what went wrong.
  if (err instanceof HttpException && typeof (err.cause as { type?: unknown } | undefined)?.type === 'string') err = err.cause;
  if (err instanceof DomainError) {
    return { statusCode: err.status, code: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) };
  }
  if (isDatabaseUnavailable(err)) {
    return {
      statusCode: ERROR_STATUS.service_unavailable,
      code: 'service_unavailable',
      message: 'The database is unavailable; try again shortly',
      details: { retry_after_seconds: RETRY_AFTER_SECONDS },
    };
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    const code = STATUS_CODE[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
    const message = status === 404 ? 'Not found' : status >= 500 ? 'Internal server error' : err.message;
    return { statusCode: status, code, message };
  }
  // body-parser errors are plain errors carrying a status and a type.
  const e = err as { status?: number; type?: string };
  if (e?.type === 'entity.too.deep') {
    return { statusCode: 400, code: 'invalid_json', message: `JSON may be nested at most ${MAX_JSON_DEPTH} levels deep` };
  }
  if (e?.type === 'entity.parse.failed') return { statusCode: 400, code: 'validation_failed', message: 'Malformed JSON body' };
  if (e?.type === 'entity.too.large') return { statusCode: 413, code: 'payload_too_large', message: 'Request body is too large' };
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    return { statusCode: e.status, code: STATUS_CODE[e.status] ?? 'bad_request', message: 'Bad request' };
  }
  return { statusCode: ERROR_STATUS.internal_error, code: 'internal_error', message: 'Internal server error' };
}

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(err: unknown, host: ArgumentsHost) {
    const res = host.switchToHttp().getResponse<unknown>();
    const body = toErrorBody(err);
    if (body.code === 'service_unavailable') this.logger.warn(`${body.message}: ${err instanceof Error ? err.message : String(err)}`);
    else if (body.statusCode >= 500) this.logger.error(err instanceof Error ? err : String(err));
    if (headersSent(res)) return;
    const retry = (body.details as { retry_after_seconds?: number } | undefined)?.retry_after_seconds;
    if (body.code === 'rate_limited' && retry) setHeader(res, 'Retry-After', String(retry));
    if (body.code === 'service_unavailable') setHeader(res, 'Retry-After', String(retry ?? RETRY_AFTER_SECONDS));
    sendJson(res, body.statusCode, body);
  }
}
