import { statementsOf } from '../support/statements';
import { startTestApp, type TestApp } from '../support/app';
import { createCast, createUser, PASSWORD } from '../support/factories';

/**
 * Issue 13: the per-request session and role check is served from a cache. Every session here is
 * used first, so it is cached when the change happens; the change must still apply at the very
 * next request.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const status = async (token: string, path = '/api/auth/user') => (await t.http().get(path).set('Authorization', `Bearer ${token}`)).status;

async function usedSessions(n: number) {
  const u = await createUser(t, 'pcp');
  const tokens = [u.access_token];
  for (let i = 1; i < n; i++)
    tokens.push(
      (await t.http().post('/api/auth/token?grant_type=password').send({ email: u.email, password: PASSWORD })).body.access_token,
    );
  for (const token of tokens) expect(await status(token)).toBe(200);
  return { u, tokens };
}

describe('a cached session', () => {
  it('ends at the next request after sign-out of the others and after a global sign-out', async () => {
    const { tokens } = await usedSessions(3);
    await t.http().post('/api/auth/logout?scope=others').set('Authorization', `Bearer ${tokens[0]}`).expect(204);
    expect(await Promise.all(tokens.map((token) => status(token)))).toEqual([200, 401, 401]);
    await t.http().post('/api/auth/logout').set('Authorization', `Bearer ${tokens[0]}`).expect(204);
    expect(await status(tokens[0])).toBe(401);
  });

  it('ends at the next request after a password change, except the session that changed it', async () => {
    const { u, tokens } = await usedSessions(2);
    const res = await t
      .http()
      .put('/api/auth/user')
      .set('Authorization', `Bearer ${tokens[0]}`)
      .send({ current_password: PASSWORD, password: 'a brand new passphrase' });
    expect(res.status).toBe(200);
    expect(await Promise.all(tokens.map((token) => status(token)))).toEqual([200, 401]);
    expect(u.id).toBeTruthy();
  });

  it('carries the new role from the next request after a role change', async () => {
    const { admin } = await createCast(t);
    const { u, tokens } = await usedSessions(2);
    expect(await status(tokens[0], '/api/assessments')).toBe(200);
    expect((await t.http().put(`/api/users/${u.id}/role`).set(admin.auth).send({ role: null })).status).toBe(200);
    expect(await Promise.all(tokens.map((token) => status(token, '/api/assessments')))).toEqual([403, 403]);
    expect((await t.http().get('/api/auth/user').set('Authorization', `Bearer ${tokens[1]}`)).body.role).toBeNull();
    expect((await t.http().put(`/api/users/${u.id}/role`).set(admin.auth).send({ role: 'pcp' })).status).toBe(200);
    expect(await Promise.all(tokens.map((token) => status(token, '/api/assessments')))).toEqual([200, 200]);
  });

  it("shows the user's new name in GET /api/auth/user at the next request after a profile change", async () => {
    const { tokens } = await usedSessions(2);
    const own = async (token: string) => (await t.http().get('/api/auth/user').set('Authorization', `Bearer ${token}`)).body;
    expect((await own(tokens[1])).user_metadata).toMatchObject({ first_name: 'Test', last_name: 'User' });
    const res = await t
      .http()
      .patch('/api/me/profile')
      .set('Authorization', `Bearer ${tokens[0]}`)
      .send({ first_name: 'Amara', last_name: 'Okafor' });
    expect(res.status).toBe(200);
    for (const token of tokens) expect((await own(token)).user_metadata).toEqual({ first_name: 'Amara', last_name: 'Okafor', role: 'pcp' });
  });
});

describe("the signed-in user's own identity (GET /api/auth/user)", () => {
  it('is answered from the session check: one statement when the session is not cached, none when it is', async () => {
    const u = await createUser(t, 'pcp', { first_name: 'Lena', last_name: 'Hoffmann' });
    const res = { body: undefined as unknown };
    const { statements: cold } = await statementsOf(
      async () => (res.body = (await t.http().get('/api/auth/user').set(u.auth).expect(200)).body),
    );
    expect(cold).toHaveLength(1);
    expect(cold[0]).toMatch(/FROM auth_sessions s JOIN users u/);
    expect(res.body).toEqual({
      id: u.id,
      email: u.email,
      created_at: expect.any(String),
      email_confirmed_at: null,
      role: 'pcp',
      user_metadata: { first_name: 'Lena', last_name: 'Hoffmann', role: 'pcp' },
    });
    const stored = await t.db.query('SELECT created_at FROM users WHERE id = $1', [u.id]);
    expect((res.body as { created_at: string }).created_at).toBe(new Date(stored[0].created_at).toISOString());
    const { statements: warm } = await statementsOf(async () =>
      expect((await t.http().get('/api/auth/user').set(u.auth)).body).toEqual(res.body),
    );
    expect(warm).toEqual([]);
  });
});
