import { createAuthClient } from './authClient';
import type { FetchJsonOptions } from './jsonRequest';

export * from './authClient';
export * from './errors';
export * from './jsonRequest';
export * from './oauthFragment';
export * from './refreshTimer';
export * from './session';
export * from './sessionRefresher';
export * from './sessionStore';

/** The app-wide auth client (session store + refresh + authenticated fetch). */
export const auth = createAuthClient();

/** For the react-admin dataProvider: `simpleRestProvider('/api', fetchJson)`. */
export const fetchJson = auth.fetchJson;
export const apiFetch = auth.apiFetch;

export interface ListParams {
  range?: [number, number];
  sort?: [string, 'ASC' | 'DESC'];
  filter?: Record<string, unknown>;
}

/** Total from `Content-Range: assessments 0-24/319`; falls back to the page length. */
export function parseContentRangeTotal(header: string | null, fallback: number): number {
  const m = header?.match(/\/(\d+)\s*$/);
  return m ? Number(m[1]) : fallback;
}

export const api = {
  async get<T>(url: string, opts?: FetchJsonOptions): Promise<T> {
    return (await fetchJson<T>(url, opts)).json;
  },
  async send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<T> {
    return (await fetchJson<T>(url, { method, body: body === undefined ? undefined : JSON.stringify(body) })).json;
  },
  async list<T>(resource: string, params: ListParams = {}): Promise<{ data: T[]; total: number }> {
    const q = new URLSearchParams();
    if (params.range) q.set('range', JSON.stringify(params.range));
    if (params.sort) q.set('sort', JSON.stringify(params.sort));
    if (params.filter) q.set('filter', JSON.stringify(params.filter));
    const { json, headers } = await fetchJson<T[]>(`/api/${resource}?${q.toString()}`);
    const data = Array.isArray(json) ? json : [];
    return { data, total: parseContentRangeTotal(headers.get('Content-Range'), data.length) };
  },
};
