import { Agent, request } from 'node:http';
import { RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { ReadOnlyEchoInterceptor } from '../../backend/src/common/read-only-echo.interceptor';
import { startTestApp, type TestApp } from '../support/app';
import { counts, createCast, PASSWORD, uniqueEmail } from '../support/factories';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
});
afterAll(async () => {
  await t?.close();
});

const errorShape = (body: Record<string, unknown>) => {
  expect(typeof body.statusCode).toBe('number');
  expect(typeof body.code).toBe('string');
  expect(typeof body.message).toBe('string');
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(js|ts):\d+|QueryFailedError|SELECT |INSERT /);
};

describe('bad input never writes and never 500s', () => {
  const TABLES = ['users', 'profiles', 'user_roles', 'user_approvals', 'auth_sessions'];

  it.each([
    ['malformed JSON', '{"email": "a@b.c", "password": ', 400],
    ['a JSON array', '[1,2,3]', 400],
    ['a JSON string', '"hello"', 400],
  ])('sign-up with %s gets a 4xx', async (_name, raw, status) => {
    const before = await counts(t, TABLES);
    const res = await t.http().post('/api/auth/signup').set('Content-Type', 'application/json').send(raw);
    expect(res.status).toBe(status);
    errorShape(res.body);
    expect(await counts(t, TABLES)).toEqual(before);
  });

  it.each([
    [{ email: 5, password: PASSWORD }],
    [{ email: uniqueEmail(), password: ['x'] }],
    [{ email: uniqueEmail(), password: PASSWORD, data: 'names' }],
    [{ email: uniqueEmail(), password: PASSWORD, data: { first_name: 'x'.repeat(101) } }],
    [{ email: uniqueEmail(), password: PASSWORD, data: { nickname: 'x' } }],
    [{ email: `${'x'.repeat(250)}@clinic.test`, password: PASSWORD }],
    [{ email: uniqueEmail(), password: PASSWORD, role: 'super_admin' }],
  ])('sign-up with wrong types, unknown or over-long fields gets 400 validation_failed (%j)', async (body) => {
    const before = await counts(t, TABLES);
    const res = await t.http().post('/api/auth/signup').send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(Array.isArray(res.body.details)).toBe(true);
    errorShape(res.body);
    expect(await counts(t, TABLES)).toEqual(before);
  });

  it('a body over the size limit gets 413', async () => {
    const res = await t
      .http()
      .post('/api/auth/signup')
      .send({ email: uniqueEmail(), password: 'x'.repeat(200_000) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });

  it('profile update with a wrong type or unknown field gets 400 and changes nothing', async () => {
    for (const body of [
      { first_name: 1, last_name: 'X' },
      { first_name: 'A', last_name: 'B', role: 'admin' },
      { first_name: null, last_name: 'B' },
    ]) {
      const res = await t.http().patch('/api/me/profile').set(cast.none.auth).send(body);
      expect(res.status).toBe(400);
      errorShape(res.body);
    }
    expect((await t.http().get('/api/me').set(cast.none.auth)).body).toMatchObject({ role: null, profile: { first_name: 'Test' } });
  });

  it('unknown API routes are a 404 in the error body, not the web app', async () => {
    const res = await t.http().get('/api/does-not-exist').set(cast.admin.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, code: 'not_found', message: 'Not found' });
  });
});

describe('cross-cutting HTTP behaviour', () => {
  it('keeps an idle keep-alive connection open past 5 s, so a proxy reusing it loses no request', async () => {
    // nginx keeps upstream connections for 60 s; Node's default keepAliveTimeout (5 s) closed them under it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; socket: object }>((resolve, reject) => {
        const req = request(`${t.url}/api/health`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket! }));
        });
        req.on('error', reject);
        req.end();
      });
    const first = await get();
    await new Promise((r) => setTimeout(r, 6_000));
    const second = await get();
    agent.destroy();
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.socket).toBe(first.socket);
  }, 20_000);

  it('every response carries an x-request-id; a sane incoming one is echoed', async () => {
    const generated = await t.http().get('/api/health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.http().get('/api/health').set('x-request-id', 'trace-abc.123');
    expect(echoed.headers['x-request-id']).toBe('trace-abc.123');
    const hostile = await t.http().get('/api/health').set('x-request-id', 'bad id\twith spaces');
    expect(hostile.headers['x-request-id']).not.toBe('bad id\twith spaces');
  });

  it('sets security headers (helmet) and hides the framework', async () => {
    const res = await t.http().get('/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBeDefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('CORS lets the dev server read Content-Range', async () => {
    const res = await t.http().get('/api/users').set('Origin', 'http://localhost:5173').set(cast.admin.auth);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.headers['access-control-expose-headers']).toContain('Content-Range');
    const foreign = await t.http().get('/api/health').set('Origin', 'https://evil.example');
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('health reports database and queue', async () => {
    const res = await t.http().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: 'up', queue: 'up' });
  });

  it('serves OpenAPI at /api/docs-json describing the routes', async () => {
    const res = await t.http().get('/api/docs-json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/auth/signup', '/api/me', '/api/users/{id}/role']));
  });
});

describe('interceptors only where they are needed', () => {
  // No global interceptor (each puts every route through RxJS); the read-only echo is on the controllers with PUT routes.
  it('every controller with a PUT route drops read-only echoes (react-admin sends the whole record)', () => {
    const missing: string[] = [];
    let withPut = 0;
    for (const module of t.runtime.app.get(ModulesContainer).values()) {
      for (const { metatype } of module.controllers.values()) {
        const proto = (metatype as { prototype: object }).prototype;
        const puts = Object.getOwnPropertyNames(proto).filter((name) => {
          const handler = (proto as Record<string, unknown>)[name];
          return typeof handler === 'function' && Reflect.getMetadata(METHOD_METADATA, handler) === RequestMethod.PUT;
        });
        if (!puts.length) continue;
        withPut += 1;
        const interceptors = (Reflect.getMetadata(INTERCEPTORS_METADATA, metatype as object) ?? []) as unknown[];
        if (!interceptors.includes(ReadOnlyEchoInterceptor)) missing.push(`${(metatype as { name: string }).name}: ${puts.join(', ')}`);
      }
    }
    expect(withPut).toBeGreaterThanOrEqual(6);
    expect(missing).toEqual([]);
  });
});
