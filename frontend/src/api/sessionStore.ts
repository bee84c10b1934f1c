import { isSession, type Session } from './session';

/** Every key this client writes starts with this prefix; sign-out removes all of them. */
export const AUTH_STORAGE_PREFIX = 'cds.auth.';
export const SESSION_KEY = `${AUTH_STORAGE_PREFIX}session`;
/** Per-tab working state (e.g. the assessment in progress) lives in sessionStorage under this prefix. */
export const APP_SESSION_PREFIX = 'cds.';

export type AuthChangeEvent = 'INITIAL_SESSION' | 'SIGNED_IN' | 'SIGNED_OUT' | 'TOKEN_REFRESHED' | 'USER_UPDATED';

export type AuthListener = (event: AuthChangeEvent, session: Session | null) => void;

export interface SessionStoreOptions {
  storage?: () => Storage | undefined;
  tabStorage?: () => Storage | undefined;
}

/**
 * The session in memory and in localStorage, and the listeners told of every change. Another
 * tab's refresh or sign-out (a `storage` event) is adopted here, so this tab never replays a
 * spent refresh token (which would revoke the whole token family and sign everyone out).
 */
export function createSessionStore(options: SessionStoreOptions = {}) {
  const getStorage = options.storage ?? (() => (typeof localStorage === 'undefined' ? undefined : localStorage));
  const getTabStorage = options.tabStorage ?? (() => (typeof sessionStorage === 'undefined' ? undefined : sessionStorage));

  let session: Session | null = null;
  let watchingOtherTabs = false;
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

  /** Keeps the session in memory and persists it. */
  function save(s: Session) {
    session = s;
    try {
      getStorage()?.setItem(SESSION_KEY, JSON.stringify(s));
    } catch (e) {
      console.warn('Could not persist the session', e);
    }
  }

  /** Removes every stored auth key (and this tab's working state), not only the session. */
  function clear() {
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

  function watchOtherTabs() {
    if (watchingOtherTabs || typeof window === 'undefined') return;
    watchingOtherTabs = true;
    window.addEventListener('storage', onStorage);
  }

  return {
    get: () => session,
    /** Sets the in-memory session without persisting it (it came from storage). */
    adopt(s: Session | null) {
      session = s;
    },
    save,
    readStored,
    clear,
    emit,
    watchOtherTabs,
    subscribe(listener: AuthListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    hasListener: (listener: AuthListener) => listeners.has(listener),
    /** Test helper: forget the in-memory session and every listener. */
    reset() {
      session = null;
      listeners.clear();
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
