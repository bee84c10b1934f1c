import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/** What both HTTP adapters (src/http/express.ts, src/http/fastify.ts) apply alike. */

/** A sane incoming X-Request-Id is kept; anything else gets a fresh UUID. */
export const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Longer than any proxy's idle timeout for upstream keep-alive connections (nginx: 60 s). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** The media types read as JSON bodies. */
export const JSON_TYPES = ['application/json', 'application/fhir+json'];
/** `POST /api/fhir/$import`'s upload: one FHIR resource a line (application/ndjson too, as Bulk Data servers send it). */
export const NDJSON_TYPES = ['application/fhir+ndjson', 'application/ndjson', 'application/x-ndjson'];

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** body-parser's limit notation ('100kb', '10mb') in bytes. */
export function limitInBytes(limit: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(limit.trim());
  if (!m) throw new Error(`Not a body size: ${limit}`);
  return Math.floor(Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()]);
}

/**
 * Scripts only from our own origin: no page we serve (the built index.html, Swagger UI, Bull Board)
 * has an inline script, so there is nothing for a nonce or hash to allow, and an injected
 * <script> or on* attribute never runs. test/browser/csp.browser-spec.ts visits every page for violations.
 */
export const CONTENT_SECURITY_POLICY = {
  directives: { 'script-src': ["'self'"], 'img-src': ["'self'", 'data:', 'blob:'] },
};

/**
 * helmet's headers for CONTENT_SECURITY_POLICY, worked out once: with no nonce and no per-request directive they are
 * the same on every response. @fastify/helmet builds a new helmet() from its options on every request; replaying the
 * recorded calls gives the same headers, in the same order, at a fraction of the cost.
 */
export function securityHeaders(): (res: ServerResponse) => void {
  const calls: ({ set: string; value: string | number | readonly string[] } | { remove: string })[] = [];
  const recorder = {
    setHeader: (set: string, value: string | number | readonly string[]) => calls.push({ set, value }),
    removeHeader: (remove: string) => calls.push({ remove }),
  };
  helmet({ contentSecurityPolicy: CONTENT_SECURITY_POLICY })({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return (res) => {
    for (const call of calls) {
      if ('set' in call) res.setHeader(call.set, call.value);
      else res.removeHeader(call.remove);
    }
  };
}
