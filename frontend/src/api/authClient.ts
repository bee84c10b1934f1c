import type { UserJson } from '@cds/contracts';
import { createAuthenticatedFetch } from './authenticatedFetch';
import { ApiError } from './errors';
import { signInWithGoogle } from './googleSignIn';
import { createJsonRequest } from './jsonRequest';
import { takeOAuthFragment, type OAuthError } from './oauthFragment';
import { createRefreshTimer, isDueForRefresh } from './refreshTimer';
import { toSession, type Session } from './session';
import { createSessionRefresher, SPENT_OR_INVALID } from './sessionRefresher';
import { createSessionStore, type AuthListener } from './sessionStore';

/**
 * The auth client: sign-in, sign-up, sign-out and start-up, composed of the session store
 * (sessionStore.ts), the refresh (sessionRefresher.ts) and its timer (refreshTimer.ts), the
 * OAuth fragment (oauthFragment.ts) and the authenticated fetch (authenticatedFetch.ts).
 *
 * The admin console (react-admin dataProvider/authProvider) reuses it: use `auth.fetchJson` as
 * the simple-rest httpClient and `auth.getSession()/signOut()` in the authProvider. Nothing here
 * imports React.
 */

/** A hung logout call must not keep a clinician on a shared workstation signed in. */
export const SIGN_OUT_TIMEOUT_MS = 5_000;

export interface AuthClientOptions {
  fetch?: typeof fetch;
  storage?: () => Storage | undefined;
  tabStorage?: () => Storage | undefined;
  navigate?: (url: string) => void;
}

export function createAuthClient(options: AuthClientOptions = {}) {
  const doFetch: typeof fetch = (input, init) => (options.fetch ?? globalThis.fetch)(input, init);
  const navigate = options.navigate ?? ((url: string) => window.location.assign(url));
  const request = createJsonRequest(doFetch);
  const store = createSessionStore({ storage: options.storage, tabStorage: options.tabStorage });
  const refresher = createSessionRefresher(store, request);
  const timer = createRefreshTimer(store.get, refresher.refresh);
  const { apiFetch, fetchJson } = createAuthenticatedFetch({ fetch: doFetch, store, initialize, refresh: refresher.refresh });

  let initPromise: Promise<Session | null> | null = null;
  let initialized = false;
  /** The session an OAuth redirect brought, taken up by the next initialisation. */
  let pendingFragment: Session | null = null;
  let oauthError: OAuthError | null = null;

  /** Stores a session the server just issued and announces SIGNED_IN. */
  function signedIn(raw: Partial<Session> & { user?: UserJson | null }): Session {
    const s = toSession(raw);
    store.save(s);
    store.emit('SIGNED_IN', s);
    return s;
  }

  async function takeUpFragment(fragment: Session) {
    store.save(fragment);
    try {
      const user = await request<UserJson>('GET', '/api/auth/user', undefined, fragment.access_token);
      const withUser = { ...fragment, user };
      store.save(withUser);
      store.emit('SIGNED_IN', withUser);
    } catch (e) {
      console.error('Google sign-in: could not load the user', e);
      if (e instanceof ApiError && SPENT_OR_INVALID.has(e.status)) {
        store.clear();
        oauthError = { error: 'invalid_session', description: e.message };
      } else {
        store.emit('SIGNED_IN', store.get());
      }
    }
  }

  async function doInitialize(): Promise<Session | null> {
    store.watchOtherTabs();
    timer.watchVisibility();
    if (pendingFragment) {
      const fragment = pendingFragment;
      pendingFragment = null;
      await takeUpFragment(fragment);
    } else {
      const stored = store.readStored();
      store.adopt(stored);
      if (stored && isDueForRefresh(stored)) {
        try {
          await refresher.refresh();
        } catch (e) {
          // Non-retryable failures already cleared the session; transient ones keep it so
          // the next tick can try again.
          console.warn('Session refresh at start-up failed', e);
        }
      }
    }
    initialized = true;
    store.emit('INITIAL_SESSION', store.get());
    return store.get();
  }

  function initialize(): Promise<Session | null> {
    // Assign before running: listeners of INITIAL_SESSION may call apiFetch, which awaits
    // initialize() again and must get this same promise, not start a second initialisation.
    if (!initPromise) initPromise = Promise.resolve().then(doInitialize);
    return initPromise;
  }

  async function signInWithPassword(credentials: { email: string; password: string }): Promise<Session> {
    return signedIn(await request<Session>('POST', '/api/auth/token?grant_type=password', credentials));
  }

  async function signUp(input: {
    email: string;
    password: string;
    data?: { first_name?: string; last_name?: string };
  }): Promise<Session | null> {
    const raw = await request<Partial<Session> | null>('POST', '/api/auth/signup', input);
    if (!raw || !raw.access_token) return null;
    return signedIn(raw);
  }

  /** The spec's global sign-out: ends every session of the user; clears every stored auth key and emits SIGNED_OUT even if the server call fails. */
  async function signOut(): Promise<void> {
    const token = store.get()?.access_token ?? store.readStored()?.access_token;
    try {
      if (token) {
        const ctrl = typeof AbortController !== 'undefined' ? new AbortController() : undefined;
        const timeout = setTimeout(() => ctrl?.abort(), SIGN_OUT_TIMEOUT_MS);
        try {
          await request('POST', '/api/auth/logout?scope=global', undefined, token, ctrl?.signal);
        } finally {
          clearTimeout(timeout);
        }
      }
    } catch (e) {
      console.warn('Server sign-out failed; the local session is cleared anyway', e);
    } finally {
      store.clear();
      store.emit('SIGNED_OUT', null);
    }
  }

  async function updateUser(input: { current_password: string; password: string }): Promise<UserJson> {
    const { json: user } = await fetchJson<UserJson>('/api/auth/user', { method: 'PUT', body: JSON.stringify(input) });
    const s = store.get();
    if (s) {
      store.save({ ...s, user });
      store.emit('USER_UPDATED', store.get());
    }
    return user;
  }

  /**
   * Picks up the OAuth result from the URL fragment and clears it from the address bar.
   * Call once before the router renders. Returns where the app should start.
   */
  function consumeUrlFragment(loc: Pick<Location, 'hash' | 'pathname' | 'search'> = window.location): 'session' | 'error' | null {
    const taken = takeOAuthFragment(loc);
    if (!taken) return null;
    if ('error' in taken) {
      oauthError = taken.error;
      return 'error';
    }
    pendingFragment = taken.session;
    if (initialized) {
      // Already initialised (not the normal start-up order): initialise again for the new session.
      initPromise = null;
      initialized = false;
      void initialize();
    }
    return 'session';
  }

  function onAuthStateChange(listener: AuthListener): () => void {
    const unsubscribe = store.subscribe(listener);
    if (initialized) {
      queueMicrotask(() => {
        if (store.hasListener(listener)) listener('INITIAL_SESSION', store.get());
      });
    } else {
      void initialize();
    }
    return unsubscribe;
  }

  return {
    initialize,
    onAuthStateChange,
    getSession: store.get,
    isInitialized: () => initialized,
    refreshSession: refresher.refresh,
    startAutoRefresh: timer.start,
    stopAutoRefresh: timer.stop,
    signInWithPassword,
    signUp,
    /**
     * Stores a session the server issued outside the password and sign-up flows (accepting an
     * invitation answers with one) and announces SIGNED_IN, exactly as signUp does.
     */
    adoptSession: signedIn,
    signOut,
    updateUser,
    signInWithGoogle: () => signInWithGoogle(doFetch, navigate),
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
      timer.stop();
      store.reset();
      refresher.reset();
      initPromise = null;
      initialized = false;
      pendingFragment = null;
      oauthError = null;
    },
  };
}

export type AuthClient = ReturnType<typeof createAuthClient>;
