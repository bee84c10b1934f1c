import { JwtService } from '@nestjs/jwt';
import { startTestApp, type TestApp } from '../support/app';
import { counts, createUser, PASSWORD, uniqueEmail } from '../support/factories';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const MISSING = 'You must provide either an email or phone number and a password';

describe('sign-up', () => {
  it('creates the account, its profile from the sign-up names, and returns a session', async () => {
    await createUser(t, 'super_admin'); // an owner exists, so this account gets no role
    const email = uniqueEmail('signup');
    const res = await t
      .http()
      .post('/api/auth/signup')
      .send({ email: email.toUpperCase(), password: PASSWORD, data: { first_name: 'Ada', last_name: 'Lovelace' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ token_type: 'bearer', expires_in: 3600, user: { email, role: null, email_confirmed_at: null } });
    expect(typeof res.body.access_token).toBe('string');
    expect(res.body.expires_at).toBeGreaterThan(Date.now() / 1000);
    expect(res.body.user.user_metadata).toEqual({ first_name: 'Ada', last_name: 'Lovelace', role: null });
    const me = await t.http().get('/api/me').set('Authorization', `Bearer ${res.body.access_token}`);
    expect(me.status).toBe(200);
    expect(me.body.profile).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(JSON.stringify(res.body)).not.toContain('password');
  });

  it('treats e-mail addresses case-insensitively and keeps them unique', async () => {
    const email = uniqueEmail('dup');
    await t.http().post('/api/auth/signup').send({ email, password: PASSWORD }).expect(201);
    const before = await counts(t, ['users', 'profiles']);
    const res = await t.http().post('/api/auth/signup').send({ email: email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, code: 'email_taken', message: 'User already registered' });
    expect(await counts(t, ['users', 'profiles'])).toEqual(before);
  });

  it('answers a weak password with weak_password and the reasons', async () => {
    const res = await t.http().post('/api/auth/signup').send({ email: uniqueEmail(), password: 'short' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('weak_password');
    expect(res.body.details).toContain('Password must be at least 10 characters long');
  });

  it.each([[{ password: PASSWORD }], [{ email: uniqueEmail() }], [{}], [{ email: '   ', password: PASSWORD }]])(
    'missing email or password gets the spec message (%j)',
    async (body) => {
      const res = await t.http().post('/api/auth/signup').send(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'validation_failed', message: MISSING });
    },
  );

  it('rejects a malformed e-mail address', async () => {
    const res = await t.http().post('/api/auth/signup').send({ email: 'not-an-email', password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });
});

describe('sign-in', () => {
  it('signs in with the password, whatever the e-mail case', async () => {
    const u = await createUser(t, 'pcp');
    const res = await t.http().post('/api/auth/token?grant_type=password').send({ email: u.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: u.id, role: 'pcp', user_metadata: { role: 'pcp' } });
  });

  it('gives the same answer for an unknown e-mail and a wrong password', async () => {
    const u = await createUser(t);
    const wrong = await t.http().post('/api/auth/token?grant_type=password').send({ email: u.email, password: 'wrong password here' });
    const unknown = await t
      .http()
      .post('/api/auth/token?grant_type=password')
      .send({ email: uniqueEmail('ghost'), password: PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ statusCode: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('missing password gets the spec message', async () => {
    const res = await t.http().post('/api/auth/token?grant_type=password').send({ email: uniqueEmail() });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MISSING);
  });

  it('refuses an unknown grant type', async () => {
    const res = await t.http().post('/api/auth/token?grant_type=magic').send({});
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });
});

describe('refresh-token rotation', () => {
  it('issues a new pair and spends the old refresh token', async () => {
    const u = await createUser(t);
    const first = await t.http().post('/api/auth/token?grant_type=refresh_token').send({ refresh_token: u.refresh_token });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(u.refresh_token);
    expect(first.body.user.id).toBe(u.id);
    const next = await t.http().post('/api/auth/token?grant_type=refresh_token').send({ refresh_token: first.body.refresh_token });
    expect(next.status).toBe(200);
  });

  it('re-using a spent refresh token revokes its whole family', async () => {
    const u = await createUser(t);
    const rotated = await t.http().post('/api/auth/token?grant_type=refresh_token').send({ refresh_token: u.refresh_token });
    expect(rotated.status).toBe(200);
    const replay = await t.http().post('/api/auth/token?grant_type=refresh_token').send({ refresh_token: u.refresh_token });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('invalid_refresh_token');
    // The legitimate holder's newer tokens die with the family.
    const newer = await t.http().post('/api/auth/token?grant_type=refresh_token').send({ refresh_token: rotated.body.refresh_token });
    expect(newer.status).toBe(401);
    const access = await t.http().get('/api/auth/user').set('Authorization', `Bearer ${rotated.body.access_token}`);
    expect(access.status).toBe(401);
  });

  it('refuses an unknown refresh token and a missing one', async () => {
    expect((await t.http().post('/api/auth/token?grant_type=refresh_token').send({ refresh_token: 'nope' })).status).toBe(401);
    const missing = await t.http().post('/api/auth/token?grant_type=refresh_token').send({});
    expect(missing.status).toBe(400);
  });
});

describe('sign-out scopes', () => {
  async function threeSessions() {
    const u = await createUser(t);
    const s2 = await t.http().post('/api/auth/token?grant_type=password').send({ email: u.email, password: PASSWORD });
    const s3 = await t.http().post('/api/auth/token?grant_type=password').send({ email: u.email, password: PASSWORD });
    return [u.access_token, s2.body.access_token as string, s3.body.access_token as string];
  }
  const alive = async (token: string) => (await t.http().get('/api/auth/user').set('Authorization', `Bearer ${token}`)).status === 200;

  it('local ends only this session', async () => {
    const [a, b, c] = await threeSessions();
    await t.http().post('/api/auth/logout?scope=local').set('Authorization', `Bearer ${a}`).expect(204);
    expect([await alive(a), await alive(b), await alive(c)]).toEqual([false, true, true]);
  });

  it('others ends every session but this one', async () => {
    const [a, b, c] = await threeSessions();
    await t.http().post('/api/auth/logout?scope=others').set('Authorization', `Bearer ${a}`).expect(204);
    expect([await alive(a), await alive(b), await alive(c)]).toEqual([true, false, false]);
  });

  it('global (the default) ends them all', async () => {
    const [a, b, c] = await threeSessions();
    await t.http().post('/api/auth/logout').set('Authorization', `Bearer ${a}`).expect(204);
    expect([await alive(a), await alive(b), await alive(c)]).toEqual([false, false, false]);
  });

  it('refuses an unknown scope', async () => {
    const [a] = await threeSessions();
    expect((await t.http().post('/api/auth/logout?scope=everything').set('Authorization', `Bearer ${a}`)).status).toBe(400);
    expect(await alive(a)).toBe(true);
  });
});

describe('current user and tokens', () => {
  it('GET /api/auth/user returns the user', async () => {
    const u = await createUser(t, 'admin');
    const res = await t.http().get('/api/auth/user').set(u.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: u.id, email: u.email, role: 'admin' });
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'email', 'email_confirmed_at', 'id', 'role', 'user_metadata']);
  });

  it('401 without a token, with a malformed one and with a forged one', async () => {
    const none = await t.http().get('/api/auth/user');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ statusCode: 401, code: 'unauthorized', message: 'Auth session missing!' });
    expect((await t.http().get('/api/auth/user').set('Authorization', 'Bearer abc')).body.code).toBe('invalid_jwt');
    const u = await createUser(t);
    // The genuine token is verified first: a forgery of its claims must not ride on that.
    expect((await t.http().get('/api/auth/user').set(u.auth)).status).toBe(200);
    const [h, p] = u.access_token.split('.');
    const forged = `${h}.${p}.${Buffer.from('forged-signature').toString('base64url')}`;
    expect((await t.http().get('/api/auth/user').set('Authorization', `Bearer ${forged}`)).status).toBe(401);
  });

  it('a token verified on earlier requests is refused once it expires, with the expiry message', async () => {
    const u = await createUser(t);
    const { sub, sid } = JSON.parse(Buffer.from(u.access_token.split('.')[1], 'base64url').toString());
    const short = await t.runtime.app.get(JwtService).signAsync({ sub, sid }, { expiresIn: 3 });
    const { exp } = JSON.parse(Buffer.from(short.split('.')[1], 'base64url').toString()) as { exp: number };
    const ask = () => t.http().get('/api/auth/user').set('Authorization', `Bearer ${short}`);
    for (let i = 0; i < 3 && Date.now() / 1000 < exp - 1; i++) expect((await ask()).status).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 - Date.now()) + 50));
    const late = await ask();
    expect(late.status).toBe(401);
    expect(late.body).toEqual({ statusCode: 401, code: 'invalid_jwt', message: 'invalid JWT: token is expired' });
  });
});

describe('change password', () => {
  it('needs the current password, applies the policy and signs out other sessions', async () => {
    const u = await createUser(t);
    const other = await t.http().post('/api/auth/token?grant_type=password').send({ email: u.email, password: PASSWORD });
    const wrong = await t
      .http()
      .put('/api/auth/user')
      .set(u.auth)
      .send({ current_password: 'not it at all', password: 'a brand new passphrase' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('invalid_credentials');
    const weak = await t.http().put('/api/auth/user').set(u.auth).send({ current_password: PASSWORD, password: 'short' });
    expect(weak.status).toBe(422);
    const ok = await t.http().put('/api/auth/user').set(u.auth).send({ current_password: PASSWORD, password: 'a brand new passphrase' });
    expect(ok.status).toBe(200);
    expect((await t.http().get('/api/auth/user').set(u.auth)).status).toBe(200);
    expect((await t.http().get('/api/auth/user').set('Authorization', `Bearer ${other.body.access_token}`)).status).toBe(401);
    expect(
      (await t.http().post('/api/auth/token?grant_type=password').send({ email: u.email, password: 'a brand new passphrase' })).status,
    ).toBe(200);
    expect((await t.http().post('/api/auth/token?grant_type=password').send({ email: u.email, password: PASSWORD })).status).toBe(400);
  });
});

describe('Google sign-in when not configured', () => {
  it('answers 501 oauth_not_configured', async () => {
    const res = await t.http().get('/api/auth/google');
    expect(res.status).toBe(501);
    expect(res.body.code).toBe('oauth_not_configured');
  });
});
