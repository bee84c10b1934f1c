import { ApiError, NetworkError } from './errors';
import type { SessionJson, UserJson } from '@cds/contracts';

/** The session the client keeps: the API's, with the user still unknown right after an OAuth redirect. */
export type Session = Omit<SessionJson, 'user'> & { user: UserJson | null };

/**
 * Session store, token refresh and authenticated fetch.
 *
 * The admin console (react-admin dataProvider/authProvider) reuses this module: use
 * `auth.fetchJson` as the simple-rest httpClient and `auth.getSession()/signOut()` in the
 * authProvider. Nothing here imports React.
 */

/** Every key this client writes starts with this prefix; sign-out removes all of them. */
export const AUTH_STORAGE_PREFIX = 'cds.auth.';
export const SESSION_KEY = `${AUTH_STORAGE_PREFIX}session`;
/** Per-tab working state (e.g. the assessment in progress) lives in sessionStorage under this prefix. */
export const APP_SESSION_PREFIX = 'cds.';

// docs/product-spec.md section 9: tick 30 s; refresh when 3 ticks (90 s) or fewer remain;
// retry a failed refresh with a 200 ms back-off that doubles, within a 30 s budget.
export const AUTO_REFRESH_TICK_MS = 30_000;
export const REFRESH_THRESHOLD_MS = 3 * AUTO_REFRESH_TICK_MS;
export const REFRESH_RETRY_BASE_MS = 200;
export const REFRESH_RETRY_BUDGET_MS = 30_000;
/** A hung logout call must not keep a clinician on a shared workstation signed in. */
export const SIGN_OUT_TIMEOUT_MS = 5_000;

export type AuthChangeEvent = 'INITIAL_SESSION' | 'SIGNED_IN' | 'SIGNED_OUT' | 'TOKEN_REFRESHED' | 'USER_UPDATED';

export type AuthListener = (event: AuthChangeEvent, session: Session | null) => void;

export interface FetchJsonOptions extends Omit<RequestInit, 'headers'> {
  headers?: HeadersInit;
}

export interface FetchJsonResult<T = unknown> {
  status: number;
  headers: Headers;
  body: string;
  json: T;
}

export interface OAuthError {
  error: string;
  description: string;
}

export interface AuthClientOptions {
  fetch?: typeof fetch;
  storage?: () => Storage | undefined;
  tabStorage?: () => Storage | undefined;
  navigate?: (url: string) => void;
}

type PendingFragment = { kind: 'session'; session: Session } | null;

const SPENT_OR_INVALID = new Set([400, 401, 403, 404]);

function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof ApiError && error.status >= 500;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isSession(value: unknown): value is Session {
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

/**
 * Reads the OAuth result the server puts in the URL fragment after Google sign-in:
 * `#access_token=...&refresh_token=...&expires_in=...&expires_at=...&token_type=bearer`
 * or `#error=...&error_description=...`.
 */
export function parseOAuthFragment(hash: string): { session: Session } | { error: OAuthError } | null {
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

async function readBody(res: Response): Promise<{ text: string; json: unknown }> {
  const text = await res.text().catch(() => '');
  if (!text) return { text, json: undefined };
  try {
    return { text, json: JSON.parse(text) };
  } catch {
    return { text, json: text };
  }
}

function messageOf(json: unknown, res: Response): string {
  const m = json && typeof json === 'object' ? (json as { message?: unknown }).message : undefined;
  if (typeof m === 'string' && m) return m;
  if (Array.isArray(m) && m.length) return m.join(', ');
  // No server message: leave it empty so each screen shows the spec's own fallback text.
  void res;
  return '';
}

export function createAuthClient(options: AuthClientOptions = {}) {
  const doFetch: typeof fetch = (input, init) => (options.fetch ?? globalThis.fetch)(input, init);
  const getStorage = options.storage ?? (() => (typeof localStorage === 'undefined' ? undefined : localStorage));
  const getTabStorage = options.tabStorage ?? (() => (typeof sessionStorage === 'undefined' ? undefined : sessionStorage));
  const navigate = options.navigate ?? ((url: string) => window.location.assign(url));

  let session: Session | null = null;
  let initPromise: Promise<Session | null> | null = null;
  let initialized = false;
  let refreshing: Promise<Session | null> | null = null;
  let ticker: ReturnType<typeof setInterval> | null = null;
  let pendingFragment: PendingFragment = null;
  let oauthError: OAuthError | null = null;
  let windowListenersAttached = false;
  const listeners = new Set<AuthListener>();

  function emit(event: AuthChangeEvent, s: Session | null) {
    for (const l of [...listeners]) {
      try {
        l(event, s);
      } catch (e) {
        console.error('Auth listener failed', e);
      }
    }
  }

  function readStored(): Session | null {
    try {
      const raw = getStorage()?.getItem(SESSION_KEY);
      if (!raw) return null;
      const parsed = JSON.parse(raw) as unknown;
      return isSession(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }

  function save(s: Session) {
    session = s;
    try {
      getStorage()?.setItem(SESSION_KEY, JSON.stringify(s));
    } catch (e) {
      console.warn('Could not persist the session', e);
    }
  }

  /** Removes every stored auth key (and this tab's working state), not only the session. */
  function clearStoredAuth() {
    session = null;
    for (const store of [getStorage(), getTabStorage()]) {
      if (!store) continue;
      try {
        const prefix = store === getStorage() ? AUTH_STORAGE_PREFIX : APP_SESSION_PREFIX;
        const keys: string[] = [];
        for (let i = 0; i < store.length; i++) {
          const k = store.key(i);
          if (k && k.startsWith(prefix)) keys.push(k);
        }
        keys.forEach((k) => store.removeItem(k));
      } catch (e) {
        console.warn('Could not clear stored auth keys', e);
      }
    }
  }

  function expiresInMs(s: Session): number {
    return s.expires_at * 1000 - Date.now();
  }

  async function rawJson<T>(method: string, url: string, body?: unknown, token?: string, signal?: AbortSignal): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    let res: Response;
    try {
      res = await doFetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
        signal,
      });
    } catch (e) {
      throw new NetworkError(e);
    }
    const { json } = await readBody(res);
    if (!res.ok) throw new ApiError(messageOf(json, res), res.status, json);
    return json as T;
  }

  function attachWindowListeners() {
    if (windowListenersAttached || typeof window === 'undefined') return;
    windowListenersAttached = true;
    // Another tab refreshed or signed out: adopt its state so this tab never replays a spent
    // refresh token (which would revoke the whole token family and sign everyone out).
    window.addEventListener('storage', onStorage);
    document.addEventListener('visibilitychange', onVisibility);
  }

  function onStorage(e: StorageEvent) {
    if (e.key !== null && e.key !== SESSION_KEY) return;
    const next = readStored();
    const prev = session;
    if (!next) {
      if (prev) {
        session = null;
        emit('SIGNED_OUT', null);
      }
      return;
    }
    if (prev && next.access_token === prev.access_token) return;
    session = next;
    emit(prev && prev.user?.id === next.user?.id ? 'TOKEN_REFRESHED' : 'SIGNED_IN', next);
  }

  function onVisibility() {
    // Background tabs throttle timers; check the token as soon as the clinician returns.
    if (document.visibilityState === 'visible' && ticker) tick();
  }

  async function loadUser(s: Session): Promise<Session> {
    const user = await rawJson<UserJson>('GET', '/api/auth/user', undefined, s.access_token);
    const next = { ...s, user };
    save(next);
    return next;
  }

  async function doInitialize(): Promise<Session | null> {
    attachWindowListeners();
    if (pendingFragment) {
      const fragment = pendingFragment;
      pendingFragment = null;
      save(fragment.session);
      try {
        const withUser = await loadUser(fragment.session);
        emit('SIGNED_IN', withUser);
      } catch (e) {
        console.error('Google sign-in: could not load the user', e);
        if (e instanceof ApiError && SPENT_OR_INVALID.has(e.status)) {
          clearStoredAuth();
          oauthError = { error: 'invalid_session', description: e.message };
        } else {
          emit('SIGNED_IN', session);
        }
      }
    } else {
      const stored = readStored();
      session = stored;
      if (stored && expiresInMs(stored) <= REFRESH_THRESHOLD_MS) {
        try {
          await refreshSession();
        } catch (e) {
          // Non-retryable failures already cleared the session; transient ones keep it so
          // the next tick can try again.
          console.warn('Session refresh at start-up failed', e);
        }
      }
    }
    initialized = true;
    emit('INITIAL_SESSION', session);
    return session;
  }

  function initialize(): Promise<Session | null> {
    // Assign before running: listeners of INITIAL_SESSION may call apiFetch, which awaits
    // initialize() again and must get this same promise, not start a second initialisation.
    if (!initPromise) initPromise = Promise.resolve().then(doInitialize);
    return initPromise;
  }

  async function refreshWithRetry(refreshToken: string): Promise<Session> {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        const raw = await rawJson<Session>('POST', '/api/auth/token?grant_type=refresh_token', {
          refresh_token: refreshToken,
        });
        const next = toSession({ ...raw, user: raw.user ?? session?.user ?? null });
        save(next);
        emit('TOKEN_REFRESHED', next);
        return next;
      } catch (e) {
        if (!isRetryable(e)) {
          if (e instanceof ApiError && SPENT_OR_INVALID.has(e.status)) {
            clearStoredAuth();
            emit('SIGNED_OUT', null);
          }
          throw e;
        }
        const delay = REFRESH_RETRY_BASE_MS * 2 ** attempt;
        if (Date.now() + delay - started >= REFRESH_RETRY_BUDGET_MS) throw e;
        await sleep(delay);
      }
    }
  }

  async function withRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
    const locks = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
    if (locks?.request) return locks.request(`${AUTH_STORAGE_PREFIX}refresh`, fn) as Promise<T>;
    return fn();
  }

  /** Refreshes the session now. Concurrent callers share one request. */
  function refreshSession(): Promise<Session | null> {
    if (refreshing) return refreshing;
    const used = session;
    refreshing = withRefreshLock(async () => {
      // Another tab may have refreshed while we waited for the lock.
      const stored = readStored();
      if (stored && used && stored.refresh_token !== used.refresh_token) {
        session = stored;
        emit('TOKEN_REFRESHED', stored);
        return stored;
      }
      const current = stored ?? session;
      if (!current) return null;
      return refreshWithRetry(current.refresh_token);
    }).finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  function tick() {
    const s = session;
    if (!s) return;
    if (expiresInMs(s) <= REFRESH_THRESHOLD_MS) {
      refreshSession().catch((e) => console.warn('Automatic session refresh failed', e));
    }
  }

  function startAutoRefresh() {
    stopAutoRefresh();
    ticker = setInterval(tick, AUTO_REFRESH_TICK_MS);
    tick();
  }

  function stopAutoRefresh() {
    if (ticker) clearInterval(ticker);
    ticker = null;
  }

  function withAuth(init: RequestInit | undefined, s: Session | null): RequestInit {
    const headers = new Headers(init?.headers);
    if (s) headers.set('Authorization', `Bearer ${s.access_token}`);
    return { credentials: 'same-origin', ...init, headers };
  }

  /** fetch() with the bearer token; on 401 refreshes once and retries once. */
  async function apiFetch(input: string, init?: RequestInit): Promise<Response> {
    await initialize();
    let s = session;
    if (s && expiresInMs(s) <= 0) {
      s = await refreshSession().catch(() => session);
    }
    let res: Response;
    try {
      res = await doFetch(input, withAuth(init, s));
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') throw e;
      throw new NetworkError(e);
    }
    if (res.status !== 401 || !s) return res;
    let next: Session | null = session;
    if (!next || next.access_token === s.access_token) {
      next = await refreshSession().catch(() => null);
    }
    if (!next) return res;
    try {
      return await doFetch(input, withAuth(init, next));
    } catch (e) {
      throw new NetworkError(e);
    }
  }

  /** Same contract as react-admin's fetchUtils.fetchJson: { status, headers, body, json }. */
  async function fetchJson<T = unknown>(url: string, opts: FetchJsonOptions = {}): Promise<FetchJsonResult<T>> {
    const headers = new Headers(opts.headers);
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    if (opts.body != null && !(opts.body instanceof FormData) && !headers.has('Content-Type')) {
      headers.set('Content-Type', 'application/json');
    }
    const res = await apiFetch(url, { ...opts, headers });
    const { text, json } = await readBody(res);
    if (!res.ok) throw new ApiError(messageOf(json, res), res.status, json);
    return { status: res.status, headers: res.headers, body: text, json: json as T };
  }

  async function signInWithPassword(credentials: { email: string; password: string }): Promise<Session> {
    const raw = await rawJson<Session>('POST', '/api/auth/token?grant_type=password', credentials);
    const s = toSession(raw);
    save(s);
    emit('SIGNED_IN', s);
    return s;
  }

  async function signUp(input: {
    email: string;
    password: string;
    data?: { first_name?: string; last_name?: string };
  }): Promise<Session | null> {
    const raw = await rawJson<Partial<Session> | null>('POST', '/api/auth/signup', input);
    if (!raw || !raw.access_token) return null;
    const s = toSession(raw);
    save(s);
    emit('SIGNED_IN', s);
    return s;
  }

  /**
   * Stores a session the server issued outside the password and sign-up flows (accepting an
   * invitation answers with one) and announces SIGNED_IN, exactly as signUp does.
   */
  function adoptSession(raw: Partial<Session> & { user?: UserJson | null }): Session {
    const s = toSession(raw);
    save(s);
    emit('SIGNED_IN', s);
    return s;
  }

  /** The spec's global sign-out: ends every session of the user; clears every stored auth key and emits SIGNED_OUT even if the server call fails. */
  async function signOut(): Promise<void> {
    const token = session?.access_token ?? readStored()?.access_token;
    try {
      if (token) {
        const ctrl = typeof AbortController !== 'undefined' ? new AbortController() : undefined;
        const timer = setTimeout(() => ctrl?.abort(), SIGN_OUT_TIMEOUT_MS);
        try {
          await rawJson('POST', '/api/auth/logout?scope=global', undefined, token, ctrl?.signal);
        } finally {
          clearTimeout(timer);
        }
      }
    } catch (e) {
      console.warn('Server sign-out failed; the local session is cleared anyway', e);
    } finally {
      clearStoredAuth();
      emit('SIGNED_OUT', null);
    }
  }

  async function updateUser(input: { current_password: string; password: string }): Promise<UserJson> {
    const { json: user } = await fetchJson<UserJson>('/api/auth/user', { method: 'PUT', body: JSON.stringify(input) });
    if (session) {
      save({ ...session, user });
      emit('USER_UPDATED', session);
    }
    return user;
  }

  /**
   * Google sign-in. The server answers the GET with a redirect to Google, or 501
   * oauth_not_configured; ask first so the clinician sees the reason instead of a JSON page.
   */
  async function signInWithGoogle(): Promise<void> {
    const url = '/api/auth/google';
    let res: Response;
    try {
      res = await doFetch(url, { method: 'GET', redirect: 'manual', credentials: 'same-origin', headers: { Accept: 'application/json' } });
    } catch (e) {
      throw new NetworkError(e);
    }
    const redirected = res.type === 'opaqueredirect' || res.status === 0 || (res.status >= 300 && res.status < 400);
    if (!redirected && !res.ok) {
      const { json } = await readBody(res);
      throw new ApiError(messageOf(json, res), res.status, json);
    }
    navigate(url);
  }

  /**
   * Picks up the OAuth result from the URL fragment and clears it from the address bar.
   * Call once before the router renders. Returns where the app should start.
   */
  function consumeUrlFragment(loc: Pick<Location, 'hash' | 'pathname' | 'search'> = window.location): 'session' | 'error' | null {
    const parsed = parseOAuthFragment(loc.hash);
    if (!parsed) return null;
    if ('error' in parsed) {
      oauthError = parsed.error;
      window.history.replaceState(window.history.state, '', '/auth');
      return 'error';
    }
    pendingFragment = { kind: 'session', session: parsed.session };
    if (initialized) {
      // Already initialised (not the normal start-up order): initialise again for the new session.
      initPromise = null;
      initialized = false;
      void initialize();
    }
    window.history.replaceState(window.history.state, '', `${loc.pathname}${loc.search}`);
    return 'session';
  }

  function onAuthStateChange(listener: AuthListener): () => void {
    listeners.add(listener);
    if (initialized) {
      queueMicrotask(() => {
        if (listeners.has(listener)) listener('INITIAL_SESSION', session);
      });
    } else {
      void initialize();
    }
    return () => listeners.delete(listener);
  }

  return {
    initialize,
    onAuthStateChange,
    getSession: () => session,
    isInitialized: () => initialized,
    refreshSession,
    startAutoRefresh,
    stopAutoRefresh,
    signInWithPassword,
    signUp,
    adoptSession,
    signOut,
    updateUser,
    signInWithGoogle,
    consumeUrlFragment,
    hasOAuthError: () => oauthError !== null,
    takeOAuthError(): OAuthError | null {
      const e = oauthError;
      oauthError = null;
      return e;
    },
    apiFetch,
    fetchJson,
    /** Test helper: forget in-memory state, timers and listeners. */
    reset() {
      stopAutoRefresh();
      session = null;
      initPromise = null;
      initialized = false;
      refreshing = null;
      pendingFragment = null;
      oauthError = null;
      listeners.clear();
    },
  };
}

export type AuthClient = ReturnType<typeof createAuthClient>;
