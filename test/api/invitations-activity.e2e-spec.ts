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

const tokenOf = (url: string) => url.split('/invite/')[1];

describe('invitations', () => {
  it('an admin invites a PCP; the link sets a password and joins with the role, once', async () => {
    const email = uniqueEmail('invited');
    const inv = await t.http().post('/api/invitations').set(cast.admin.auth).send({ email: email.toUpperCase(), role: 'pcp' });
    expect(inv.status).toBe(201);
    expect(inv.body).toMatchObject({ email, role: 'pcp', status: 'pending', invited_by_email: cast.admin.email });
    expect(inv.body.url).toMatch(/\/invite\/[A-Za-z0-9_-]{40,}$/);
    const token = tokenOf(inv.body.url);

    const preview = await t.http().get(`/api/invitations/by-token/${token}`);
    expect(preview.body).toMatchObject({ email, role: 'pcp' });

    const weak = await t.http().post('/api/invitations/accept').send({ token, password: 'short' });
    expect(weak.status).toBe(422);
    const ok = await t.http().post('/api/invitations/accept').send({ token, password: PASSWORD, first_name: 'Ines', last_name: 'Moreau' });
    expect(ok.status).toBe(201);
    expect(ok.body.user).toMatchObject({ email, role: 'pcp', user_metadata: { first_name: 'Ines', last_name: 'Moreau' } });
    expect(ok.body.user.email_confirmed_at).not.toBeNull();

    const again = await t.http().post('/api/invitations/accept').send({ token, password: PASSWORD });
    expect(again.status).toBe(409);
    expect((await t.http().get(`/api/invitations/by-token/${token}`)).status).toBe(409);
    const list = await t.http().get('/api/invitations').query({ filter: '{"status":"accepted"}' }).set(cast.admin.auth);
    expect(list.body.map((i: { email: string }) => i.email)).toContain(email);
    expect(JSON.stringify(list.body)).not.toContain(token);
  });

  it('only a super_admin invites administrators', async () => {
    expect((await t.http().post('/api/invitations').set(cast.admin.auth).send({ email: uniqueEmail(), role: 'admin' })).status).toBe(403);
    expect((await t.http().post('/api/invitations').set(cast.super_admin.auth).send({ email: uniqueEmail(), role: 'admin' })).status).toBe(
      201,
    );
  });

  it('refuses a second open invitation, an existing user, bad bodies; revoked links stop working', async () => {
    const email = uniqueEmail('twice');
    const first = await t.http().post('/api/invitations').set(cast.admin.auth).send({ email, role: 'pcp' });
    expect((await t.http().post('/api/invitations').set(cast.admin.auth).send({ email, role: 'pcp' })).status).toBe(409);
    expect((await t.http().post('/api/invitations').set(cast.admin.auth).send({ email: cast.pcp.email, role: 'pcp' })).status).toBe(409);
    const before = await counts(t, ['invitations']);
    for (const body of [
      { email: 'nope', role: 'pcp' },
      { email: uniqueEmail(), role: 'wizard' },
      { email: uniqueEmail() },
      { email: uniqueEmail(), role: 'pcp', x: 1 },
    ]) {
      expect((await t.http().post('/api/invitations').set(cast.admin.auth).send(body)).status).toBe(400);
    }
    expect(await counts(t, ['invitations'])).toEqual(before);
    const revoked = await t.http().delete(`/api/invitations/${first.body.id}`).set(cast.admin.auth);
    expect(revoked.body.status).toBe('revoked');
    const users = await counts(t, ['users']);
    expect(
      (
        await t
          .http()
          .post('/api/invitations/accept')
          .send({ token: tokenOf(first.body.url), password: PASSWORD })
      ).status,
    ).toBe(409);
    expect(await counts(t, ['users'])).toEqual(users);
    expect((await t.http().get('/api/invitations/by-token/unknown-token')).status).toBe(404);
  });
});
