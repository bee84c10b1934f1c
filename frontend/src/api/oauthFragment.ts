import { toSession, type Session } from './session';

export interface OAuthError {
  error: string;
  description: string;
}

export type OAuthFragment = { session: Session } | { error: OAuthError };

/**
 * Reads the OAuth result the server puts in the URL fragment after Google sign-in:
 * `#access_token=...&refresh_token=...&expires_in=...&expires_at=...&token_type=bearer`
 * or `#error=...&error_description=...`.
 */
export function parseOAuthFragment(hash: string): OAuthFragment | null {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!text) return null;
  const params = new URLSearchParams(text);
  const error = params.get('error');
  if (error) {
    return { error: { error, description: params.get('error_description') ?? error } };
  }
  const accessToken = params.get('access_token');
  if (!accessToken) return null;
  return {
    session: toSession({
      access_token: accessToken,
      refresh_token: params.get('refresh_token') ?? '',
      expires_in: Number(params.get('expires_in') ?? 3600),
      expires_at: params.get('expires_at') ? Number(params.get('expires_at')) : undefined,
      user: null,
    }),
  };
}

/**
 * Takes the OAuth result out of the address bar: a session stays on the page it landed on
 * (without the fragment, so the tokens are not left in the history), an error goes to /auth.
 */
export function takeOAuthFragment(loc: Pick<Location, 'hash' | 'pathname' | 'search'>): OAuthFragment | null {
  const parsed = parseOAuthFragment(loc.hash);
  if (!parsed) return null;
  const url = 'error' in parsed ? '/auth' : `${loc.pathname}${loc.search}`;
  window.history.replaceState(window.history.state, '', url);
  return parsed;
}
