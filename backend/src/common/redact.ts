const REDACTED = '[redacted]';

// A path segment after one of these names is a credential: invitation links, reset links, tickets.
const SECRET_SEGMENT =
  /(\/(?:by-token|tokens?|invite|invitations?\/accept|reset(?:-password)?|magic-link|verify|confirm|tickets?)\/)([^/?#\s"']+)/gi;
const SECRET_QUERY =
  /([?&;](?:token|ticket|code|state|access_token|refresh_token|id_token|api_key|key|secret|password|signature|sig)=)([^&#\s"']+)/gi;
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g;

/**
 * Removes credentials from text bound for a log line: one-time links travel in paths
 * (GET /api/invitations/by-token/<token>) and query strings, and anyone who can read the
 * log must not be able to use them.
 */
export function redactSecrets(text: string): string {
  return text
    .replace(SECRET_SEGMENT, `$1${REDACTED}`)
    .replace(SECRET_QUERY, `$1${REDACTED}`)
    .replace(BEARER, `$1${REDACTED}`)
    .replace(JWT, REDACTED);
}
