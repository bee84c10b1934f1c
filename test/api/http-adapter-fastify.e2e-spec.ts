import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../support/app';
import { createUser, PASSWORD, uniqueEmail } from '../support/factories';
import { SEPARATE_WORKER } from '../support/polish-setup';

/**
 * Fastify (the default since issue 22; docs/operations.md#http-adapter) keeps the edge Express has:
 * every case below is asked of an Express app first, then of a Fastify app, and must get the same
 * status and error body. The other suites run on the default; `HTTP_ADAPTER=express npm run test:one --
 * <suite>` runs any of them on Express.
 */

// A built web app of our own, so the suite needs no `npm run build` first.
const dist = mkdtempSync(join(tmpdir(), 'cds-dist-'));
const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body></body></html>';
const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(500))};\n`;
function writeBuilt(path: string, text: string) {
  writeFileSync(join(dist, path), text);
  writeFileSync(join(dist, `${path}.br`), brotliCompressSync(text));
  writeFileSync(join(dist, `${path}.gz`), gzipSync(text));
}
mkdirSync(join(dist, 'assets'));
writeBuilt('index.html', INDEX);
writeBuilt('assets/index-Ab12Cd34.js', SCRIPT);
writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

const GOOGLE = {
  GOOGLE_CLIENT_ID: 'cds-test-client',
  GOOGLE_CLIENT_SECRET: 'cds-test-secret',
  GOOGLE_AUTH_URL: 'http://127.0.0.1:9/authorize',
  GOOGLE_TOKEN_URL: 'http://127.0.0.1:9/token',
  GOOGLE_USERINFO_URL: 'http://127.0.0.1:9/userinfo',
};
// A 1 MB import limit, so the NDJSON refusal below needs no 100 MB body.
const start = (adapter: 'express' | 'fastify') =>
  startTestApp({ HTTP_ADAPTER: adapter, IMPORT_BODY_LIMIT_MB: '1', ...GOOGLE }, { frontendDist: dist });

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** Refusals at the edge: body parsing, size limits, input safety, unknown routes. */
const REFUSALS: { name: string; ask: (t: TestApp) => Promise<{ status: number; body: unknown; headers: Record<string, unknown> }> }[] = [
  {
    name: 'a body nested deeper than 32 levels',
    ask: (t) => t.http().post('/api/auth/signup').set('Content-Type', 'application/json').send(nested(40)),
  },
  {
    name: 'a __proto__ key',
    ask: (t) =>
      t
        .http()
        .post('/api/auth/signup')
        .set('Content-Type', 'application/json')
        .send(`{"email":"a@b.c","password":"x","__proto__":{"a":1}}`),
  },
  {
    name: 'a NUL in a text field',
    ask: (t) => t.http().post('/api/auth/signup').send({ email: 'a\u0000@clinic.test', password: PASSWORD }),
  },
  {
    name: 'a NUL in a list filter',
    ask: (t) =>
      t
        .http()
        .get('/api/users')
        .query({ filter: JSON.stringify({ q: '\u0000' }) }),
  },
  { name: 'malformed JSON', ask: (t) => t.http().post('/api/auth/signup').set('Content-Type', 'application/json').send('{"email": ') },
  { name: 'a JSON string at the top', ask: (t) => t.http().post('/api/auth/signup').set('Content-Type', 'application/json').send('"x"') },
  {
    name: 'a body over the size limit',
    ask: (t) =>
      t
        .http()
        .post('/api/auth/signup')
        .send({ email: uniqueEmail(), password: 'x'.repeat(200_000) }),
  },
  {
    // Only POST /api/fhir takes a patient's whole record (10 MB): past the parser, so the guard answers.
    name: 'a record over the general limit, unauthenticated',
    ask: (t) =>
      t
        .http()
        .post('/api/fhir')
        .send({ resourceType: 'Bundle', type: 'transaction', entry: [{ fullUrl: 'x'.repeat(200_000) }] }),
  },
  {
    // The NDJSON upload of POST /api/fhir/$import has its own limit (IMPORT_BODY_LIMIT_MB), refused before the guard.
    name: 'an NDJSON upload over the import limit',
    ask: (t) =>
      t
        .http()
        .post('/api/fhir/$import')
        .set('Content-Type', 'application/fhir+ndjson')
        .send(`${'{"resourceType":"Patient","id":"p"}\n'.repeat(40_000)}`),
  },
  { name: 'a form body', ask: (t) => t.http().post('/api/auth/signup').type('form').send('email=a@b.c&password=x') },
  { name: 'an unknown API route', ask: (t) => t.http().get('/api/no-such-route') },
  { name: 'no token', ask: (t) => t.http().get('/api/auth/user') },
];

/** Answers that succeed, for the security headers: an API response and the built web app's page. */
const ANSWERED = [
  ['the health check', '/api/health'],
  ['the web app', '/'],
] as const;

const onExpress = new Map<string, { status: number; body: unknown }>();
/** Every header helmet sets (or removes: X-Powered-By), as Express's helmet() middleware gives them. */
const HELMET_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
  'x-powered-by',
];
const securityOf = (headers: Record<string, unknown>) => Object.fromEntries(HELMET_HEADERS.map((h) => [h, headers[h]]));
const securityOnExpress = new Map<string, Record<string, unknown>>();
let t: TestApp;

beforeAll(async () => {
  const express = await start('express');
  try {
    for (const c of REFUSALS) {
      const res = await c.ask(express);
      onExpress.set(c.name, { status: res.status, body: res.body });
      securityOnExpress.set(c.name, securityOf(res.headers));
    }
    for (const [name, path] of ANSWERED) securityOnExpress.set(name, securityOf((await express.http().get(path)).headers));
  } finally {
    await express.close();
  }
  t = await start('fastify');
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('HTTP_ADAPTER=fastify', () => {
  it('runs on Fastify', () => {
    expect(t.runtime.app.getHttpAdapter().getType()).toBe('fastify');
  });

  it.each(REFUSALS.map((c) => [c.name, c] as const))('%s gets the same status and error body as on Express', async (_name, c) => {
    const res = await c.ask(t);
    expect({ status: res.status, body: res.body }).toEqual(onExpress.get(c.name));
    expect(securityOf(res.headers)).toEqual(securityOnExpress.get(c.name));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('refuses with the documented codes', () => {
    const code = (name: string) => (onExpress.get(name)?.body as { code?: string }).code;
    expect(onExpress.get('a body nested deeper than 32 levels')).toEqual({
      status: 400,
      body: { statusCode: 400, code: 'invalid_json', message: 'JSON may be nested at most 32 levels deep' },
    });
    expect(code('a __proto__ key')).toBe('validation_failed');
    expect(code('a NUL in a text field')).toBe('validation_failed');
    expect(onExpress.get('a body over the size limit')).toEqual({
      status: 413,
      body: { statusCode: 413, code: 'payload_too_large', message: 'Request body is too large' },
    });
    expect(onExpress.get('an NDJSON upload over the import limit')).toEqual(onExpress.get('a body over the size limit'));
    expect(code('an unknown API route')).toBe('not_found');
    expect(onExpress.get('a record over the general limit, unauthenticated')?.status).toBe(401);
  });

  it.each(ANSWERED)("%s gets exactly Express's helmet headers", async (name, path) => {
    expect(securityOf((await t.http().get(path).expect(200)).headers)).toEqual(securityOnExpress.get(name));
  });

  it('sets the security headers, a request id and no-store on the API, and hides the framework', async () => {
    const res = await t.http().get('/api/health').set('X-Request-Id', 'trace-123');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('trace-123');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=/);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(res.headers['x-powered-by']).toBeUndefined();
    const fresh = await t.http().get('/api/health').set('X-Request-Id', 'not a sane id!');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('CORS lets an allowed origin read Content-Range', async () => {
    const res = await t.http().get('/api/health').set('Origin', 'http://localhost:5173');
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.headers['access-control-expose-headers']).toMatch(/Content-Range/);
    expect(
      (await t.http().get('/api/health').set('Origin', 'https://evil.example')).headers['access-control-allow-origin'],
    ).toBeUndefined();
  });

  it('reads an NDJSON upload on POST /api/fhir/$import and runs the import', async () => {
    const admin = await createUser(t, 'admin');
    const res = await t
      .http()
      .post('/api/fhir/$import')
      .set(admin.auth)
      .set('Content-Type', 'application/fhir+ndjson')
      .send('{"resourceType":"Patient","id":"fastify-1"}\n{"resourceType":"Patient","id":"fastify-2"}\n');
    expect(res.status).toBe(202);
    expect(res.headers['content-location']).toBe(`/api/jobs/${res.body.id}`);
    expect(res.body.progress).toEqual({ done: 0, total: 2 });
    // With Redis and an external database the jobs run in `npm run worker` (record-import.e2e-spec.ts starts one).
    if (SEPARATE_WORKER) return;
    let job: { status: string; stored: number } = res.body;
    for (let i = 0; i < 300 && job.status !== 'completed' && job.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (await t.http().get(`/api/jobs/${res.body.id}`).set(admin.auth)).body;
    }
    expect(job).toMatchObject({ status: 'completed', stored: 2 });
  });

  it('a returned Page goes out as the bare list with Content-Range', async () => {
    const admin = await createUser(t, 'admin');
    await createUser(t, 'pcp');
    const res = await t.http().get('/api/users').query({ sort: '["email","ASC"]', range: '[0,0]' }).set(admin.auth);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(1);
    expect(res.headers['content-range']).toMatch(/^users 0-0\/\d+$/);
  });

  it('signs up, signs in and rotates the refresh token', async () => {
    const email = uniqueEmail();
    const up = await t.http().post('/api/auth/signup').send({ email, password: PASSWORD });
    expect(up.status).toBe(201);
    const signIn = await t.http().post('/api/auth/token?grant_type=password').send({ email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    const refreshed = await t.http().post('/api/auth/token?grant_type=refresh_token').send({ refresh_token: signIn.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(signIn.body.refresh_token);
    const me = await t.http().get('/api/auth/user').set('Authorization', `Bearer ${refreshed.body.access_token}`);
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    // A spent refresh token is refused (and revokes its family, as on Express: auth.e2e-spec.ts).
    const spent = await t.http().post('/api/auth/token?grant_type=refresh_token').send({ refresh_token: signIn.body.refresh_token });
    expect(spent.status).toBe(401);
  });

  it('Google sign-in redirects to the provider with the state in an HttpOnly cookie', async () => {
    const res = await t.http().get('/api/auth/google');
    expect(res.status).toBe(302);
    const location = new URL(res.headers.location);
    expect(`${location.origin}${location.pathname}`).toBe(GOOGLE.GOOGLE_AUTH_URL);
    const state = location.searchParams.get('state');
    expect(state).toBeTruthy();
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('cds_oauth_state='));
    expect(cookie).toBe(
      `cds_oauth_state=${state}; Max-Age=600; Path=/api/auth/google; Expires=${cookie!.match(/Expires=([^;]+)/)![1]}; HttpOnly; SameSite=Lax`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  (process.env.REDIS_URL ? it : it.skip)('opens the queue dashboard (Bull Board) through a one-time link and its cookie', async () => {
    const admin = await createUser(t, 'admin');
    const link = await t.http().post('/api/polish/dashboard-link').set(admin.auth);
    expect(link.status).toBe(201);
    expect((await t.http().get('/api/admin/queues/')).status).toBe(401);
    const open = await t.http().get(link.body.url).redirects(0);
    expect(open.status).toBe(303);
    expect(open.headers.location).toBe('/api/admin/queues/');
    const jar = String(open.headers['set-cookie']).split(';')[0];
    const page = await t.http().get('/api/admin/queues/').set('Cookie', jar);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Question polishing');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect((await t.http().get('/api/admin/queues/api/queues').set('Cookie', jar)).status).toBe(200);
  });

  it('serves a hashed asset pre-compressed when accepted, cached as immutable', async () => {
    const path = '/assets/index-Ab12Cd34.js';
    const br = await t.http().get(path).set('Accept-Encoding', 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(brotliCompressSync(SCRIPT).length);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(br.headers['x-content-type-options']).toBe('nosniff');
    expect(br.text).toBe(SCRIPT);

    const gz = await t.http().get(path).set('Accept-Encoding', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe(SCRIPT);

    const plain = await t.http().get(path).set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(SCRIPT));

    const refused = await t.http().get(path).set('Accept-Encoding', 'br;q=0, gzip');
    expect(refused.headers['content-encoding']).toBe('gzip');
  });

  it('index.html answers every client route and revalidates; a missing asset or API route is a 404', async () => {
    for (const path of ['/', '/auth', '/admin/users']) {
      const res = await t.http().get(path).set('Accept-Encoding', 'br');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.text).toBe(INDEX);
    }
    const favicon = await t.http().get('/favicon.svg');
    expect(favicon.headers['cache-control']).toBe('public, max-age=3600');
    const missing = await t.http().get('/assets/index-doesnotexist.js');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    expect((await t.http().get('/index.html.br')).headers['content-type']).toMatch(/text\/html/);
    const api = await t.http().get('/api/no-such-route');
    expect(api.status).toBe(404);
    expect(api.body.code).toBe('not_found');
  });
});
