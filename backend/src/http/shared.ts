/** What both HTTP adapters (src/http/express.ts, src/http/fastify.ts) apply alike. */

/** A sane incoming X-Request-Id is kept; anything else gets a fresh UUID. */
export const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Longer than any proxy's idle timeout for upstream keep-alive connections (nginx: 60 s). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** The media types read as JSON bodies. */
export const JSON_TYPES = ['application/json', 'application/fhir+json'];

/**
 * Scripts only from our own origin: no page we serve (the built index.html, Swagger UI, Bull Board)
 * has an inline script, so there is nothing for a nonce or hash to allow, and an injected
 * <script> or on* attribute never runs. test/browser/csp.browser-spec.ts visits every page for violations.
 */
export const CONTENT_SECURITY_POLICY = {
  directives: { 'script-src': ["'self'"], 'img-src': ["'self'", 'data:', 'blob:'] },
};
