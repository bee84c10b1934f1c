import { loadConfig } from '../../backend/src/config/app-config';
import { polishInputHash } from '../../backend/src/modules/polish/polish-input';
import { startTestApp, type TestApp } from '../support/app';
import { createParameter, createRule, createRuleSet } from '../support/clinical-factories';
import { counts, createCast, createUser, PASSWORD, uniqueEmail } from '../support/factories';

// Issue 10, item 8: cache headers on tokens, CORS from configuration, access requests for admin,
// and PUT of a record exactly as GET returned it (react-admin's simple-rest client).
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
const ORIGIN = 'https://clinic.example.org';

beforeAll(async () => {
  t = await startTestApp({ CORS_ORIGINS: `${ORIGIN}, https://other.example.org` });
  cast = await createCast(t);
});
afterAll(async () => {
  await t?.close();
});

describe('Cache-Control: no-store on token and session responses', () => {
  it('sign-up, sign-in, refresh and the session user are never cached', async () => {
    const email = uniqueEmail();
    const signup = await t
      .http()
      .post('/api/auth/signup')
      .send({ email, password: PASSWORD, data: { first_name: 'A', last_name: 'B' } });
    expect(signup.status).toBe(201);
    const signin = await t.http().post('/api/auth/token?grant_type=password').send({ email, password: PASSWORD });
    const refresh = await t.http().post('/api/auth/token?grant_type=refresh_token').send({ refresh_token: signin.body.refresh_token });
    const user = await t.http().get('/api/auth/user').set('Authorization', `Bearer ${signin.body.access_token}`);
    for (const res of [signup, signin, refresh, user]) {
      expect(res.status).toBeLessThan(300);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });
});

describe('CORS origins from configuration', () => {
  it('a configured origin may call the API; any other origin, localhost included, gets no CORS grant', async () => {
    const allowed = await t.http().options('/api/auth/token').set('Origin', ORIGIN).set('Access-Control-Request-Method', 'POST');
    expect(allowed.headers['access-control-allow-origin']).toBe(ORIGIN);
    for (const origin of ['https://evil.example.com', 'http://localhost:5173']) {
      const res = await t.http().options('/api/auth/token').set('Origin', origin).set('Access-Control-Request-Method', 'POST');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('production allows no origin unless CORS_ORIGINS names it; development keeps localhost', () => {
    const prod = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), DATABASE_URL: 'postgres://db/x' });
    expect(prod.corsOrigins).toEqual([]);
    const dev = loadConfig({ NODE_ENV: 'development', JWT_SECRET: 'x'.repeat(40), DATABASE_URL: 'postgres://db/x' });
    expect(dev.corsOrigins.some((o) => o instanceof RegExp && o.test('http://localhost:5173'))).toBe(true);
    expect(() => loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), DATABASE_URL: 'postgres://db/x', CORS_ORIGINS: '*' })).toThrow(
      /CORS_ORIGINS/,
    );
  });
});

describe('access requests', () => {
  it('a user without a role asking for admin gets 400 and nothing is stored', async () => {
    const u = await createUser(t);
    const before = await counts(t, ['user_approvals']);
    const res = await t.http().post('/api/me/access-requests').set(u.auth).send({ requested_role: 'admin' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(await counts(t, ['user_approvals'])).toEqual(before);
    expect((await t.http().post('/api/me/access-requests').set(u.auth).send({ requested_role: 'pcp' })).status).toBe(201);
  });
});

describe('PUT of a record exactly as GET returned it', () => {
  const resources = async () => {
    const parameter = await createParameter(t, cast.admin);
    const ruleSet = await createRuleSet(t, cast.admin);
    const rule = await createRule(t, cast.admin, ruleSet);
    return [
      ['parameters', parameter.id],
      ['rule-sets', ruleSet.id],
      ['rules', rule.id],
    ] as const;
  };

  it('is accepted for parameters, rule sets and rules', async () => {
    for (const [resource, id] of await resources()) {
      const got = await t.http().get(`/api/${resource}/${id}`).set(cast.admin.auth);
      expect(got.status).toBe(200);
      const body = resource === 'parameters' ? { ...got.body, change_reason: 'Round trip' } : got.body;
      const put = await t.http().put(`/api/${resource}/${id}`).set(cast.admin.auth).send(body);
      expect({ resource, status: put.status, body: put.status === 200 ? 'ok' : put.body }).toEqual({ resource, status: 200, body: 'ok' });
    }
  });

  it("an id other than the record's is refused by name, and an unknown field is still refused", async () => {
    for (const [resource, id] of await resources()) {
      const got = (await t.http().get(`/api/${resource}/${id}`).set(cast.admin.auth)).body;
      const changed = await t
        .http()
        .put(`/api/${resource}/${id}`)
        .set(cast.admin.auth)
        .send({ ...got, id: '00000000-0000-4000-8000-000000000000' });
      expect({ resource, status: changed.status, details: changed.body.details }).toEqual({
        resource,
        status: 400,
        details: [{ field: 'id', message: "'id' is read-only" }],
      });
      const unknown = await t
        .http()
        .put(`/api/${resource}/${id}`)
        .set(cast.admin.auth)
        .send({ ...got, colour: 'blue' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.details).toEqual([expect.objectContaining({ field: 'colour' })]);
    }
  });
  // Issue 23: the polish worker rewrote the question after the form loaded the parameter; the edit must
  // still save, keep the worker's wording, and be recorded in the change history.
  it('an edit saves when a read-only field changed since the form loaded it, and keeps the stored value', async () => {
    const parameter = await createParameter(t, cast.admin);
    const loaded = (await t.http().get(`/api/parameters/${parameter.id}`).set(cast.admin.auth)).body;
    await t.db.query(`UPDATE parameters SET polished_question = $1, polished_input_hash = $2, polished_at = now() WHERE id = $3`, [
      'What is the most recent value, as polished?',
      polishInputHash(loaded),
      parameter.id,
    ]);
    const put = await t
      .http()
      .put(`/api/parameters/${parameter.id}`)
      .set(cast.admin.auth)
      .send({ ...loaded, description: 'Edited after the worker', change_reason: 'Stale echo' });
    expect(put.status).toBe(200);
    expect(put.body.description).toBe('Edited after the worker');
    expect(put.body.question_text).toBe('What is the most recent value, as polished?');
    const changes = await t
      .http()
      .get('/api/parameter-changes')
      .query({ filter: JSON.stringify({ parameter_id: parameter.id }) })
      .set(cast.admin.auth);
    expect(changes.status).toBe(200);
    expect(changes.body.some((c: { change_reason?: string }) => c.change_reason === 'Stale echo')).toBe(true);
  });
});
