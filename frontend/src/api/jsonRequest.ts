import { ApiError, NetworkError } from './errors';

export interface FetchJsonOptions extends Omit<RequestInit, 'headers'> {
  headers?: HeadersInit;
}

export interface FetchJsonResult<T = unknown> {
  status: number;
  headers: Headers;
  body: string;
  json: T;
}

export async function readBody(res: Response): Promise<{ text: string; json: unknown }> {
  const text = await res.text().catch(() => '');
  if (!text) return { text, json: undefined };
  try {
    return { text, json: JSON.parse(text) };
  } catch {
    return { text, json: text };
  }
}

/** The server's message, or '' so each screen shows the spec's own fallback text. */
function messageOf(json: unknown): string {
  const m = json && typeof json === 'object' ? (json as { message?: unknown }).message : undefined;
  if (typeof m === 'string' && m) return m;
  if (Array.isArray(m) && m.length) return m.join(', ');
  return '';
}

/** The ApiError for a failed answer whose body was read. */
export function apiErrorOf(res: Response, json: unknown): ApiError {
  return new ApiError(messageOf(json), res.status, json);
}

export type JsonRequest = <T>(method: string, url: string, body?: unknown, token?: string, signal?: AbortSignal) => Promise<T>;

/**
 * A JSON call outside the authenticated fetch (sign-in, sign-up, refresh, sign-out): the token,
 * if any, is the one given. Network failures become NetworkError, error answers ApiError.
 */
export function createJsonRequest(doFetch: typeof fetch): JsonRequest {
  return async function jsonRequest<T>(method: string, url: string, body?: unknown, token?: string, signal?: AbortSignal): Promise<T> {
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
    if (!res.ok) throw apiErrorOf(res, json);
    return json as T;
  };
}
