import { startTestApp, type TestApp } from '../support/app';
import { counts, createCast, uniqueEmail, PASSWORD } from '../support/factories';

// Issue 10, items 2–4: hostile bodies are refused at the edge with a 400, never a 500, and write nothing.
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
const TABLES = ['users', 'profiles', 'user_roles', 'user_approvals', 'auth_sessions', 'invitations', 'rule_sets'];

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
});
afterAll(async () => {
  await t?.close();
});

describe('deeply nested JSON', () => {
  it('a 25 kB body nested 5,000 levels deep gets 400 invalid_json, unauthenticated', async () => {
    const raw = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const before = await counts(t, TABLES);
    const res = await t.http().post('/api/auth/signup').set('Content-Type', 'application/json').send(raw);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_json');
    expect(await counts(t, TABLES)).toEqual(before);
  });

  it('nested arrays are limited the same way, and brackets inside strings do not count', async () => {
    const deep = await t
      .http()
      .post('/api/auth/token?grant_type=password')
      .set('Content-Type', 'application/json')
      .send('['.repeat(3000) + ']'.repeat(3000));
    expect(deep.status).toBe(400);
    expect(deep.body.code).toBe('invalid_json');
    const text = await t
      .http()
      .post('/api/auth/token?grant_type=password')
      .send({ email: uniqueEmail(), password: '{['.repeat(200) });
    expect(text.status).toBeLessThan(500);
    expect(text.body.code).not.toBe('invalid_json');
  });

  it('a list filter nested thousands deep gets 400', async () => {
    const filter = '{"q":' + '['.repeat(1500) + ']'.repeat(1500) + '}';
    const res = await t.http().get('/api/users').query({ filter }).set(cast.admin.auth);
    expect(res.status).toBe(400);
  });
});

describe('NUL bytes and lone surrogates', () => {
  it.each([
    ['PATCH', '/api/me/profile', 'pcp', { first_name: '\u0000', last_name: 'User' }],
    ['PATCH', '/api/me/profile', 'pcp', { first_name: 'Test', last_name: 'ok\ud800' }],
    ['POST', '/api/invitations', 'admin', { email: '\ud800', role: 'pcp' }],
    ['POST', '/api/invitations', 'admin', { email: 'a\u0000b@clinic.test', role: 'pcp' }],
    ['POST', '/api/rule-sets', 'admin', { name: 'x\udc00' }],
    ['POST', '/api/auth/signup', null, { email: uniqueEmail(), password: PASSWORD, data: { first_name: '\u0000' } }],
    ['POST', '/api/auth/token?grant_type=password', null, { email: 'a\u0000@clinic.test', password: PASSWORD }],
  ] as const)('%s %s %j gets 400 validation_failed', async (method, path, role, body) => {
    const before = await counts(t, TABLES);
    let req = method === 'PATCH' ? t.http().patch(path) : t.http().post(path);
    if (role) req = req.set(cast[role].auth);
    // JSON.stringify keeps lone surrogates as \ud800 escapes, exactly as a hostile client sends them.
    const res = await req.set('Content-Type', 'application/json').send(JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(await counts(t, TABLES)).toEqual(before);
  });

  it.each([['{"q":"\\u0000"}'], ['{"q":"\\ud800"}'], ['{"email":"x\\u0000"}']])('GET /api/users?filter=%s gets 400', async (filter) => {
    const res = await t.http().get('/api/users').query({ filter }).set(cast.admin.auth);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('a NUL byte in a plain query parameter gets 400', async () => {
    const res = await t.http().get('/api/users?sort=%00').set(cast.admin.auth);
    expect(res.status).toBe(400);
  });

  it('well-formed text with astral characters (surrogate pairs) is accepted', async () => {
    const res = await t.http().patch('/api/me/profile').set(cast.pcp.auth).send({ first_name: 'Zoë 𝒜', last_name: 'User' });
    expect(res.status).toBe(200);
  });
});

describe('prototype keys', () => {
  it.each([['__proto__'], ['constructor'], ['prototype']])(
    'POST /api/rule-sets with a %s key gets 400 and creates nothing',
    async (key) => {
      const before = await counts(t, TABLES);
      const raw = `{"${key}":{"is_active":true},"name":"x ${key}"}`;
      const res = await t.http().post('/api/rule-sets').set(cast.admin.auth).set('Content-Type', 'application/json').send(raw);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.details).toEqual([expect.objectContaining({ field: key })]);
      expect(await counts(t, TABLES)).toEqual(before);
    },
  );

  it('a nested __proto__ key is refused too', async () => {
    const raw = `{"email":"${uniqueEmail()}","password":"${PASSWORD}","data":{"__proto__":{"role":"super_admin"}}}`;
    const res = await t.http().post('/api/auth/signup').set('Content-Type', 'application/json').send(raw);
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe('data.__proto__');
  });
});
