import type { SessionJson, UserJson } from '@cds/contracts';

/** The session the client keeps: the API's, with the user still unknown right after an OAuth redirect. */
export type Session = Omit<SessionJson, 'user'> & { user: UserJson | null };

export function isSession(value: unknown): value is Session {
  const s = value as Session | null;
  return !!s && typeof s.access_token === 'string' && typeof s.refresh_token === 'string' && typeof s.expires_at === 'number';
}

/** Normalises a session answer; computes expires_at from expires_in when the server omits it. */
export function toSession(raw: Partial<Session> & { user?: UserJson | null }): Session {
  const expiresIn = Number(raw.expires_in ?? 3600);
  const expiresAt = raw.expires_at != null ? Number(raw.expires_at) : Math.floor(Date.now() / 1000) + expiresIn;
  return {
    access_token: String(raw.access_token),
    refresh_token: String(raw.refresh_token ?? ''),
    expires_in: expiresIn,
    expires_at: expiresAt,
    token_type: 'bearer',
    user: raw.user ?? null,
  };
}

/** Milliseconds until the access token expires (negative once it has). */
export function expiresInMs(s: Session): number {
  return s.expires_at * 1000 - Date.now();
}
