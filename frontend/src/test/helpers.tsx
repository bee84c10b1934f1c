import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import type { MeJson, Role, UserJson } from '@cds/contracts';
import { SESSION_KEY, type Session } from '../api';
import type { AssessmentJson as Assessment } from '@cds/contracts';
import { AppRoutes } from '../App';
import { AppProviders } from '../AppProviders';

export interface MockRequest {
  method: string;
  path: string;
  url: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

type Reply = Response | Promise<Response> | { status?: number; body?: unknown; headers?: Record<string, string> };
export type Handler = Reply | ((req: MockRequest) => Reply | Promise<Reply>);

export function json(status: number, body?: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function apiError(status: number, code: string, message: string, details?: unknown) {
  return json(status, { statusCode: status, code, message, ...(details ? { details } : {}) });
}

/** A promise you resolve later, to hold a request in flight. */
/** A streamed answer (application/x-ndjson) whose lines the test sends one at a time, as a server computing a preview would. */
export function ndjsonStream(status = 200) {
  const encoder = new TextEncoder();
  let send!: (line: object) => void;
  let close!: () => void;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      send = (line) => controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      close = () => controller.close();
    },
  });
  return { response: () => new Response(body, { status, headers: { 'Content-Type': 'application/x-ndjson' } }), send, close };
}

export function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Stubs fetch at the network boundary. Keys are "METHOD /path" (query ignored). An
 * unmatched request answers 599 and is recorded in `unmatched` so a test can assert on it.
 */
export function mockApi(routes: Record<string, Handler>) {
  const calls: MockRequest[] = [];
  const unmatched: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const u = new URL(url, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    let body: unknown = undefined;
    if (typeof init?.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    const req: MockRequest = { method, path: u.pathname, url, query: u.searchParams, headers: new Headers(init?.headers), body };
    calls.push(req);
    const handler = routes[`${method} ${u.pathname}`];
    if (handler === undefined) {
      unmatched.push(`${method} ${u.pathname}`);
      return json(599, { message: `unmocked ${method} ${u.pathname}` });
    }
    let reply = typeof handler === 'function' ? await handler(req) : await handler;
    if (reply instanceof Response) return reply.clone();
    reply = reply as { status?: number; body?: unknown; headers?: Record<string, string> };
    return json(reply.status ?? 200, reply.body, reply.headers);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls, unmatched, callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key) };
}

/** Typed by @cds/contracts: a field the API renames or adds fails the frontend's typecheck here. */
export function makeUser(overrides: Partial<UserJson> = {}): UserJson {
  return {
    id: 'user-1',
    email: 'dr.jones@example.org',
    created_at: '2025-01-05T10:00:00.000Z',
    email_confirmed_at: '2025-01-05T10:00:00.000Z',
    role: null,
    user_metadata: { first_name: 'Ada', last_name: 'Jones', role: null },
    ...overrides,
  };
}

export function makeSession(overrides: Partial<Session> = {}): Session {
  return {
    access_token: 'access-1',
    refresh_token: 'refresh-1',
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    token_type: 'bearer',
    user: makeUser(),
    ...overrides,
  };
}

export function seedSession(overrides: Partial<Session> = {}): Session {
  const s = makeSession(overrides);
  localStorage.setItem(SESSION_KEY, JSON.stringify(s));
  return s;
}

export function me(
  role: Role | null,
  profile: Partial<MeJson['profile']> = {},
  pending_access_request: MeJson['pending_access_request'] = null,
): MeJson {
  return {
    user: makeUser(),
    role,
    profile: { id: 'user-1', first_name: 'Ada', last_name: 'Jones', updated_at: null, ...profile },
    pending_access_request,
  };
}

export function makeAssessment(overrides: Partial<Assessment> = {}): Assessment {
  return {
    id: 'a-1',
    user_id: 'user-1',
    user_email: 'pcp@example.com',
    is_completed: false,
    step: 1,
    current_parameter_id: 'p-tsh-0000-1111',
    current_question: {
      parameter_id: 'p-tsh-0000-1111',
      name: 'TSH',
      display_name: 'TSH',
      text: 'What is the patient TSH level?',
      units: 'mIU/L',
      data_type: 'number',
      options: [
        { label: 'TSH < 4.5', value: { type: 'range', min: null, max: 4.5, min_inclusive: false, max_inclusive: false } },
        { label: 'TSH ≥ 4.5', value: { type: 'range', min: 4.5, max: null, min_inclusive: true, max_inclusive: false } },
      ],
    },
    answers: {},
    completed_parameter_ids: [],
    answer_details: [],
    recommendation: null,
    findings: [],
    undetermined_rules: [],
    rule_set_versions: [],
    created_at: '2025-03-01T09:30:00.000Z',
    updated_at: '2025-03-01T09:30:00.000Z',
    completed_at: null,
    ...overrides,
  };
}

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

/** Renders the real routes at a URL, with the real providers. */
export function renderApp(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <AppProviders>
        <AppRoutes />
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  );
}
