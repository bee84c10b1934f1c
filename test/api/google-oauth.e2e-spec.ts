import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { startTestApp, type TestApp } from '../support/app';
import { createUser, PASSWORD, uniqueEmail } from '../support/factories';

/** Google sign-in end to end against a real OAuth2/OIDC server started here (oauth2-mock-server). */
async function startProvider(profile: object): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, [join(__dirname, '..', 'support', 'oauth-server.mjs')], {
    env: { ...process.env, NODE_OPTIONS: '', OAUTH_PROFILE: JSON.stringify(profile) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
    proc.once('exit', (code) => reject(new Error(`provider exited ${code}`)));
  });
  return { url, proc };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const email = uniqueEmail('google');
let provider: { url: string; proc: ChildProcess };
let t: TestApp;
let publicUrl: string;

beforeAll(async () => {
  provider = await startProvider({ sub: 'google-sub-1', email, email_verified: true, given_name: 'Grace', family_name: 'Hopper' });
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  t = await startTestApp({
    PORT: String(port),
    PUBLIC_URL: publicUrl,
    GOOGLE_CLIENT_ID: 'cds-test-client',
    GOOGLE_CLIENT_SECRET: 'cds-test-secret',
    GOOGLE_AUTH_URL: `${provider.url}/authorize`,
    GOOGLE_TOKEN_URL: `${provider.url}/token`,
    GOOGLE_USERINFO_URL: `${provider.url}/userinfo`,
  });
});
afterAll(async () => {
  await t?.close();
  provider?.proc.kill('SIGTERM');
});

/** Walks the redirects a browser would follow, carrying the state cookie. */
async function browserSignIn(opts: { dropCookie?: boolean } = {}) {
  const start = await t.http().get('/api/auth/google');
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.location);
  expect(authorize.origin).toBe(provider.url);
  expect(authorize.searchParams.get('redirect_uri')).toBe(`${publicUrl}/api/auth/google/callback`);
  const cookie = (start.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
  const consent = await request(authorize.origin).get(authorize.pathname + authorize.search);
  expect(consent.status).toBe(302);
  const callback = new URL(consent.headers.location);
  let req = t.http().get(callback.pathname + callback.search);
  if (!opts.dropCookie) req = req.set('Cookie', cookie);
  const done = await req;
  expect(done.status).toBe(302);
  const landing = new URL(done.headers.location);
  expect(`${landing.origin}${landing.pathname}`).toBe(`${publicUrl}/`);
  return new URLSearchParams(landing.hash.slice(1));
}

describe('Continue with Google', () => {
  it('creates the account with the Google names and returns to the site root with a session', async () => {
    await createUser(t, 'super_admin');
    const fragment = await browserSignIn();
    expect(fragment.get('token_type')).toBe('bearer');
    const me = await t
      .http()
      .get('/api/me')
      .set('Authorization', `Bearer ${fragment.get('access_token')}`);
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(email);
    expect(me.body.user.email_confirmed_at).not.toBeNull();
    expect(me.body.profile).toMatchObject({ first_name: 'Grace', last_name: 'Hopper' });
    const refreshed = await t
      .http()
      .post('/api/auth/token?grant_type=refresh_token')
      .send({ refresh_token: fragment.get('refresh_token') });
    expect(refreshed.status).toBe(200);
  });

  it('signs the same Google account into the same user next time', async () => {
    const a = await browserSignIn();
    const b = await browserSignIn();
    const idOf = async (f: URLSearchParams) =>
      (
        await t
          .http()
          .get('/api/auth/user')
          .set('Authorization', `Bearer ${f.get('access_token')}`)
      ).body.id;
    expect(await idOf(a)).toBe(await idOf(b));
  });

  it('refuses a callback without the state cookie of the browser that started it (login CSRF)', async () => {
    const fragment = await browserSignIn({ dropCookie: true });
    expect(fragment.get('access_token')).toBeNull();
    expect(fragment.get('error')).toBe('access_denied');
  });

  it('a password account is not reachable by the Google flow for another e-mail', async () => {
    const other = await createUser(t);
    const res = await t.http().post('/api/auth/token?grant_type=password').send({ email: other.email, password: PASSWORD });
    expect(res.status).toBe(200);
  });
});
