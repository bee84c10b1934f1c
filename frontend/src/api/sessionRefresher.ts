import { ApiError, NetworkError } from './errors';
import type { JsonRequest } from './jsonRequest';
import { toSession, type Session } from './session';
import { AUTH_STORAGE_PREFIX, type SessionStore } from './sessionStore';

// docs/product-spec.md section 9: retry a failed refresh with a 200 ms back-off that doubles,
// within a 30 s budget.
export const REFRESH_RETRY_BASE_MS = 200;
export const REFRESH_RETRY_BUDGET_MS = 30_000;

/** Answers that mean the token is spent or the session gone: sign out, do not retry. */
export const SPENT_OR_INVALID = new Set([400, 401, 403, 404]);

function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof ApiError && error.status >= 500;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function withRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
  if (locks?.request) return locks.request(`${AUTH_STORAGE_PREFIX}refresh`, fn) as Promise<T>;
  return fn();
}

/**
 * Exchanges the refresh token for a new session: one request at a time across callers (and
 * across tabs where the Web Locks API exists), transient failures retried, a rejected token
 * signing out at once.
 */
export function createSessionRefresher(store: SessionStore, request: JsonRequest) {
  let refreshing: Promise<Session | null> | null = null;

  async function refreshWithRetry(refreshToken: string): Promise<Session> {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        const raw = await request<Session>('POST', '/api/auth/token?grant_type=refresh_token', {
          refresh_token: refreshToken,
        });
        const next = toSession({ ...raw, user: raw.user ?? store.get()?.user ?? null });
        store.save(next);
        store.emit('TOKEN_REFRESHED', next);
        return next;
      } catch (e) {
        if (!isRetryable(e)) {
          if (e instanceof ApiError && SPENT_OR_INVALID.has(e.status)) {
            store.clear();
            store.emit('SIGNED_OUT', null);
          }
          throw e;
        }
        const delay = REFRESH_RETRY_BASE_MS * 2 ** attempt;
        if (Date.now() + delay - started >= REFRESH_RETRY_BUDGET_MS) throw e;
        await sleep(delay);
      }
    }
  }

  /** Refreshes the session now. Concurrent callers share one request. */
  function refresh(): Promise<Session | null> {
    if (refreshing) return refreshing;
    const used = store.get();
    refreshing = withRefreshLock(async () => {
      // Another tab may have refreshed while we waited for the lock.
      const stored = store.readStored();
      if (stored && used && stored.refresh_token !== used.refresh_token) {
        store.adopt(stored);
        store.emit('TOKEN_REFRESHED', stored);
        return stored;
      }
      const current = stored ?? store.get();
      if (!current) return null;
      return refreshWithRetry(current.refresh_token);
    }).finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  return {
    refresh,
    /** Test helper: forget a refresh in flight. */
    reset() {
      refreshing = null;
    },
  };
}
