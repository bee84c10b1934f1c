import { NetworkError } from './errors';
import { apiErrorOf, readBody, type FetchJsonOptions, type FetchJsonResult } from './jsonRequest';
import { expiresInMs, type Session } from './session';
import type { SessionStore } from './sessionStore';

export interface AuthenticatedFetchDeps {
  fetch: typeof fetch;
  store: SessionStore;
  /** Resolves once the stored session (or the OAuth fragment's) has been taken up. */
  initialize: () => Promise<unknown>;
  /** Refreshes the session now; concurrent callers share one request. */
  refresh: () => Promise<Session | null>;
}

function withAuth(init: RequestInit | undefined, s: Session | null): RequestInit {
  const headers = new Headers(init?.headers);
  if (s) headers.set('Authorization', `Bearer ${s.access_token}`);
  return { credentials: 'same-origin', ...init, headers };
}

/** fetch() and fetchJson() with the bearer token, refreshing it when it has expired or the API answers 401. */
export function createAuthenticatedFetch({ fetch: doFetch, store, initialize, refresh }: AuthenticatedFetchDeps) {
  /** fetch() with the bearer token; on 401 refreshes once and retries once. */
  async function apiFetch(input: string, init?: RequestInit): Promise<Response> {
    await initialize();
    let s = store.get();
    if (s && expiresInMs(s) <= 0) {
      s = await refresh().catch(() => store.get());
    }
    let res: Response;
    try {
      res = await doFetch(input, withAuth(init, s));
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') throw e;
      throw new NetworkError(e);
    }
    if (res.status !== 401 || !s) return res;
    let next: Session | null = store.get();
    if (!next || next.access_token === s.access_token) {
      next = await refresh().catch(() => null);
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
    if (!res.ok) throw apiErrorOf(res, json);
    return { status: res.status, headers: res.headers, body: text, json: json as T };
  }

  return { apiFetch, fetchJson };
}
