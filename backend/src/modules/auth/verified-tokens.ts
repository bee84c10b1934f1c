/** The claims the API's access tokens carry (tokens.service.ts signs them; HS256, no `nbf`). */
export interface AccessClaims {
  sub?: unknown;
  sid?: unknown;
  exp?: unknown;
  nbf?: unknown;
}

const MAX_ENTRIES = 20_000;

/**
 * Access tokens this process has already verified, by their exact text, until they expire. Verifying the same
 * string again with the same key gives the same claims, so the signature and the decoding are done once per token,
 * not once per request; only the exact string that passed jsonwebtoken's checks hits. Expiry is checked on every hit
 * as jsonwebtoken checks it (whole seconds, no tolerance), and an expired token goes back to jsonwebtoken, which
 * refuses it with its own message. A token's session and role are not kept here: SessionCache answers those.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, AccessClaims & { exp: number }>();

  get(token: string): AccessClaims | undefined {
    const claims = this.entries.get(token);
    if (!claims) return undefined;
    if (Math.floor(Date.now() / 1000) >= claims.exp) {
      this.entries.delete(token);
      return undefined;
    }
    return claims;
  }

  /** Only tokens that expire and carry no not-before time: what jsonwebtoken would check again is the clock alone. */
  keep(token: string, claims: AccessClaims): void {
    if (typeof claims.exp !== 'number' || claims.nbf !== undefined) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(token, claims as AccessClaims & { exp: number });
  }
}
