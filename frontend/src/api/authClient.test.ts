import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuthClient } from './authClient';
import { parseOAuthFragment } from './oauthFragment';
import { SESSION_KEY, type AuthChangeEvent } from './sessionStore';
import { ApiError } from './errors';
import { json, makeSession, makeUser } from '../test/helpers';

const NOW = new Date('2025-06-01T12:00:00.000Z').getTime();
const nowSec = () => Math.floor(Date.now() / 1000);

function refreshed(n: number) {
  return json(200, makeSession({ access_token: `access-${n}`, refresh_token: `refresh-${n}`, expires_at: nowSec() + 3600 }));
}

function setup(fetchImpl: (url: string, init?: RequestInit) => Promise<Response>) {
  const fetchMock = vi.fn(fetchImpl);
  const navigate = vi.fn();
  const client = createAuthClient({ fetch: fetchMock as unknown as typeof fetch, navigate });
  const events: AuthChangeEvent[] = [];
  client.onAuthStateChange((e) => events.push(e));
  const refreshCalls = () => fetchMock.mock.calls.filter(([u]) => String(u).includes('grant_type=refresh_token')).length;
  return { client, fetchMock, navigate, events, refreshCalls };
}

describe('auth client: automatic refresh', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('refreshes on the 30 s tick once 90 s or less remain, not before', async () => {
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession({ expires_at: nowSec() + 121 })));
    let n = 1;
    const { client, refreshCalls, events } = setup(async () => refreshed(++n));
    await client.initialize();
    client.startAutoRefresh();
    await vi.advanceTimersByTimeAsync(0);
    expect(refreshCalls()).toBe(0); // 121 s left
    await vi.advanceTimersByTimeAsync(30_000);
    expect(refreshCalls()).toBe(0); // 91 s left: still more than 90
    await vi.advanceTimersByTimeAsync(30_000);
    expect(refreshCalls()).toBe(1); // 61 s left
    expect(events).toContain('TOKEN_REFRESHED');
    expect(JSON.parse(localStorage.getItem(SESSION_KEY)!).access_token).toBe('access-2');
    // The new token has an hour left: later ticks do nothing.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(refreshCalls()).toBe(1);
    client.stopAutoRefresh();
  });

  it('refreshes exactly at the 90 s threshold', async () => {
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession({ expires_at: nowSec() + 120 })));
    const { client, refreshCalls } = setup(async () => refreshed(2));
    await client.initialize();
    client.startAutoRefresh();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(refreshCalls()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(refreshCalls()).toBe(1);
    client.stopAutoRefresh();
  });

  it('retries a failed refresh after 200, 400, 800 ms (doubling)', async () => {
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession({ expires_at: nowSec() + 3600 })));
    const times: number[] = [];
    let attempt = 0;
    const { client } = setup(async () => {
      times.push(Date.now() - NOW);
      attempt++;
      if (attempt <= 3) throw new TypeError('Failed to fetch');
      return refreshed(9);
    });
    await client.initialize();
    const p = client.refreshSession();
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(p).resolves.toMatchObject({ access_token: 'access-9' });
    expect(times).toEqual([0, 200, 600, 1400]);
  });

  it('gives up within the 30 s budget and keeps the session after transient failures', async () => {
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession({ expires_at: nowSec() + 3600 })));
    const times: number[] = [];
    const { client, events } = setup(async () => {
      times.push(Date.now() - NOW);
      return json(503, { statusCode: 503, code: 'unavailable', message: 'Service unavailable' });
    });
    await client.initialize();
    const p = client.refreshSession();
    const settled = expect(p).rejects.toBeInstanceOf(ApiError);
    await vi.advanceTimersByTimeAsync(60_000);
    await settled;
    expect(times).toEqual([0, 200, 600, 1400, 3000, 6200, 12600, 25400]);
    expect(Math.max(...times)).toBeLessThan(30_000);
    expect(events).not.toContain('SIGNED_OUT');
    expect(localStorage.getItem(SESSION_KEY)).not.toBeNull();
  });

  it('signs out at once when the refresh token is rejected (no retry)', async () => {
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession()));
    localStorage.setItem('cds.auth.other', 'x');
    const { client, events, refreshCalls } = setup(async () =>
      json(401, { statusCode: 401, code: 'invalid_grant', message: 'Refresh token revoked' }),
    );
    await client.initialize();
    await expect(client.refreshSession()).rejects.toMatchObject({ status: 401 });
    expect(refreshCalls()).toBe(1);
    expect(events).toContain('SIGNED_OUT');
    expect(client.getSession()).toBeNull();
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    expect(localStorage.getItem('cds.auth.other')).toBeNull();
  });

  it('shares one refresh between concurrent callers', async () => {
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession()));
    const { client, refreshCalls } = setup(async () => refreshed(2));
    await client.initialize();
    const [a, b] = await Promise.all([client.refreshSession(), client.refreshSession()]);
    expect(a).toEqual(b);
    expect(refreshCalls()).toBe(1);
  });

  it('refreshes an expired stored session at start-up before INITIAL_SESSION', async () => {
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession({ expires_at: nowSec() - 10 })));
    const { client, events } = setup(async () => refreshed(3));
    const s = await client.initialize();
    expect(s?.access_token).toBe('access-3');
    expect(events).toEqual(['TOKEN_REFRESHED', 'INITIAL_SESSION']);
  });
});

describe('auth client: sign-out', () => {
  beforeEach(() => {
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession()));
    localStorage.setItem('cds.auth.pkce-verifier', 'v');
    localStorage.setItem('unrelated-preference', 'keep');
    sessionStorage.setItem('cds.assessment.current', 'a-1');
  });

  function expectCleared() {
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    expect(localStorage.getItem('cds.auth.pkce-verifier')).toBeNull();
    expect(sessionStorage.getItem('cds.assessment.current')).toBeNull();
    expect(localStorage.getItem('unrelated-preference')).toBe('keep');
  }

  it('calls the server with the token, then clears every auth key', async () => {
    const { client, fetchMock, events } = setup(async () => new Response(null, { status: 204 }));
    await client.initialize();
    await client.signOut();
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/auth/logout?scope=global');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer access-1');
    expectCleared();
    expect(events.at(-1)).toBe('SIGNED_OUT');
  });

  it('clears storage even when the server call fails (network)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { client, events } = setup(async () => {
      throw new TypeError('Failed to fetch');
    });
    await client.initialize();
    await expect(client.signOut()).resolves.toBeUndefined();
    expectCleared();
    expect(client.getSession()).toBeNull();
    expect(events.at(-1)).toBe('SIGNED_OUT');
  });

  it('clears storage even when the server answers 500', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { client } = setup(async () => json(500, { statusCode: 500, code: 'internal', message: 'boom' }));
    await client.initialize();
    await client.signOut();
    expectCleared();
  });
});

describe('auth client: authenticated fetch', () => {
  it('adds the bearer token', async () => {
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession()));
    const { client, fetchMock } = setup(async () => json(200, { ok: true }));
    const { json: body } = await client.fetchJson('/api/me');
    expect(body).toEqual({ ok: true });
    expect(new Headers(fetchMock.mock.calls[0][1]?.headers).get('Authorization')).toBe('Bearer access-1');
  });

  it('on 401 refreshes once and retries with the new token', async () => {
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession()));
    const { client, fetchMock } = setup(async (url, init) => {
      if (url.includes('grant_type=refresh_token')) return refreshed(2);
      const token = new Headers(init?.headers).get('Authorization');
      return token === 'Bearer access-2' ? json(200, { ok: 2 }) : json(401, { statusCode: 401, code: 'invalid_jwt', message: 'expired' });
    });
    const { json: body } = await client.fetchJson('/api/me');
    expect(body).toEqual({ ok: 2 });
    expect(fetchMock.mock.calls.map(([u]) => u)).toEqual(['/api/me', '/api/auth/token?grant_type=refresh_token', '/api/me']);
  });

  it('does not loop when the retry is still 401', async () => {
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession()));
    const { client, fetchMock } = setup(async (url) =>
      url.includes('grant_type') ? refreshed(2) : json(401, { statusCode: 401, code: 'invalid_jwt', message: 'Invalid token' }),
    );
    await expect(client.fetchJson('/api/me')).rejects.toMatchObject({ status: 401, code: 'invalid_jwt', message: 'Invalid token' });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('concurrent 401s share one refresh', async () => {
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession()));
    const { client, refreshCalls } = setup(async (url, init) => {
      if (url.includes('grant_type')) return refreshed(2);
      return new Headers(init?.headers).get('Authorization') === 'Bearer access-2' ? json(200, {}) : json(401, {});
    });
    await Promise.all([client.fetchJson('/api/a'), client.fetchJson('/api/b'), client.fetchJson('/api/c')]);
    expect(refreshCalls()).toBe(1);
  });

  it('turns error bodies into ApiError with code and details', async () => {
    const { client } = setup(async () =>
      json(400, { statusCode: 400, code: 'weak_password', message: 'Password is too weak', details: ['Too short'] }),
    );
    const err = await client.fetchJson('/api/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 'weak_password', message: 'Password is too weak', details: ['Too short'] });
  });
});

describe('auth client: sign-in, events and Google', () => {
  it('emits INITIAL_SESSION, then SIGNED_IN on password sign-in and stores the session', async () => {
    const session = makeSession({ access_token: 'signed-in' });
    const { client, events, fetchMock } = setup(async () => json(200, session));
    await client.initialize();
    await Promise.resolve();
    await client.signInWithPassword({ email: 'a@b.c', password: 'pw' });
    expect(events).toEqual(['INITIAL_SESSION', 'SIGNED_IN']);
    expect(fetchMock.mock.calls[0][0]).toBe('/api/auth/token?grant_type=password');
    expect(JSON.parse(localStorage.getItem(SESSION_KEY)!).access_token).toBe('signed-in');
  });

  it('USER_UPDATED after a password change', async () => {
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession()));
    const { client, events, fetchMock } = setup(async () => json(200, makeUser({ email: 'new@example.org' })));
    await client.updateUser({ current_password: 'old', password: 'new-long-password' });
    expect(events).toContain('USER_UPDATED');
    expect(fetchMock.mock.calls[0][1]).toMatchObject({ method: 'PUT' });
    expect(JSON.parse(fetchMock.mock.calls[0][1]!.body as string)).toEqual({ current_password: 'old', password: 'new-long-password' });
  });

  it('parses the OAuth fragment (session or error)', () => {
    const ok = parseOAuthFragment('#access_token=A&refresh_token=R&expires_in=3600&expires_at=1900000000&token_type=bearer');
    expect(ok).toEqual({ session: expect.objectContaining({ access_token: 'A', refresh_token: 'R', expires_at: 1900000000 }) });
    expect(parseOAuthFragment('#error=access_denied&error_description=User%20cancelled')).toEqual({
      error: { error: 'access_denied', description: 'User cancelled' },
    });
    expect(parseOAuthFragment('#section-2')).toBeNull();
  });

  it('takes the session from the URL fragment, clears the fragment and signs in', async () => {
    window.history.replaceState(null, '', '/#access_token=A&refresh_token=R&expires_in=3600&expires_at=1900000000&token_type=bearer');
    const { client, events, fetchMock } = setup(async () => json(200, makeUser()));
    expect(client.consumeUrlFragment()).toBe('session');
    expect(window.location.hash).toBe('');
    const s = await client.initialize();
    expect(fetchMock.mock.calls[0][0]).toBe('/api/auth/user');
    expect(new Headers(fetchMock.mock.calls[0][1]?.headers).get('Authorization')).toBe('Bearer A');
    expect(s?.user?.email).toBe('dr.jones@example.org');
    expect(events).toContain('SIGNED_IN');
    expect(JSON.parse(localStorage.getItem(SESSION_KEY)!).refresh_token).toBe('R');
  });

  it('an OAuth error fragment goes to /auth with the error kept for display', () => {
    window.history.replaceState(null, '', '/#error=server_error&error_description=Google%20said%20no');
    const { client } = setup(async () => json(200, {}));
    expect(client.consumeUrlFragment()).toBe('error');
    expect(window.location.pathname).toBe('/auth');
    expect(window.location.hash).toBe('');
    expect(client.takeOAuthError()).toEqual({ error: 'server_error', description: 'Google said no' });
    expect(client.takeOAuthError()).toBeNull();
  });

  it('Google: 501 oauth_not_configured is reported, not navigated to', async () => {
    const { client, navigate } = setup(async () =>
      json(501, { statusCode: 501, code: 'oauth_not_configured', message: 'Google sign-in is not configured' }),
    );
    await expect(client.signInWithGoogle()).rejects.toMatchObject({ status: 501, message: 'Google sign-in is not configured' });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('Google: a redirect answer sends the browser to /api/auth/google', async () => {
    const { client, navigate, fetchMock } = setup(async () => Response.error());
    fetchMock.mockResolvedValueOnce({ type: 'opaqueredirect', status: 0, ok: false } as Response);
    await client.signInWithGoogle();
    expect(navigate).toHaveBeenCalledWith('/api/auth/google');
  });
});

describe('auth client: sign-up', () => {
  it('a clinician who gave a first name on sign-up has it in the stored session and the SIGNED_IN event', async () => {
    const user = makeUser({ email: 'new.doctor@example.org', user_metadata: { first_name: 'Grace', last_name: 'Hopper', role: null } });
    const { client, fetchMock } = setup(async () => json(201, makeSession({ access_token: 'signed-up', user })));
    const signedIn: Array<string | null | undefined> = [];
    client.onAuthStateChange((e, s) => {
      if (e === 'SIGNED_IN') signedIn.push(s?.user?.user_metadata.first_name);
    });
    await client.initialize();
    await client.signUp({
      email: 'new.doctor@example.org',
      password: 'long-enough-pw',
      data: { first_name: 'Grace', last_name: 'Hopper' },
    });
    expect(fetchMock.mock.calls[0][0]).toBe('/api/auth/signup');
    expect(JSON.parse(fetchMock.mock.calls[0][1]!.body as string).data).toEqual({ first_name: 'Grace', last_name: 'Hopper' });
    expect(signedIn).toEqual(['Grace']);
    expect(client.getSession()?.user?.user_metadata.first_name).toBe('Grace');
    expect(JSON.parse(localStorage.getItem(SESSION_KEY)!).user.user_metadata.first_name).toBe('Grace');
  });
});
