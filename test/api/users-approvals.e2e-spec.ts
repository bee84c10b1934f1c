import { startTestApp, type TestApp } from '../support/app';
import { counts, createCast, createUser } from '../support/factories';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
});
afterAll(async () => {
  await t?.close();
});

function expectOk<R extends { status: number; body: unknown }>(res: R): R {
  expect(res.status).toBe(200);
  return res;
}

describe('me and profile', () => {
  it('GET /api/me returns user, role and profile', async () => {
    const res = await t.http().get('/api/me').set(cast.pcp.auth);
    expect(res.status).toBe(200);
    expect(res.body.role).toBe('pcp');
    expect(res.body.user).toMatchObject({ id: cast.pcp.id, email: cast.pcp.email });
    expect(res.body.profile).toMatchObject({ id: cast.pcp.id, first_name: 'Test', last_name: 'User' });
  });

  it('PATCH /api/me/profile updates the names and updated_at', async () => {
    const u = await createUser(t);
    const res = await t.http().patch('/api/me/profile').set(u.auth).send({ first_name: ' Grace ', last_name: 'Hopper' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: u.id, first_name: 'Grace', last_name: 'Hopper' });
    expect(new Date(res.body.updated_at).toISOString()).toBe(res.body.updated_at);
  });

  it.each([
    [{ first_name: '', last_name: 'X' }, 'First name is required'],
    [{ first_name: 'X', last_name: '   ' }, 'Last name is required'],
    [{ last_name: 'X' }, 'First name is required'],
  ])('empty names get the spec messages (%j)', async (body, message) => {
    const u = await createUser(t);
    const res = await t.http().patch('/api/me/profile').set(u.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.message).toContain(message);
    expect((await t.http().get('/api/me').set(u.auth)).body.profile.first_name).toBe('Test');
  });
});

describe('admin user list', () => {
  it('lists with Content-Range, sort, range and q over email and names', async () => {
    const needle = await createUser(t, null, { first_name: 'Zebedee', last_name: 'Quartermain' });
    const all = await t.http().get('/api/users').query({ sort: '["email","ASC"]', range: '[0,1]' }).set(cast.admin.auth);
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(2);
    expect(all.headers['content-range']).toMatch(/^users 0-1\/\d+$/);
    expect(all.body[0].email < all.body[1].email).toBe(true);
    const byName = await t
      .http()
      .get('/api/users')
      .query({ filter: JSON.stringify({ q: 'zebedee quarter' }) })
      .set(cast.admin.auth);
    expect(byName.body.map((u: { id: string }) => u.id)).toEqual([needle.id]);
    const byEmail = await t
      .http()
      .get('/api/users')
      .query({ filter: JSON.stringify({ q: needle.email.toUpperCase() }) })
      .set(cast.admin.auth);
    expect(byEmail.body.map((u: { id: string }) => u.id)).toEqual([needle.id]);
    expect(byEmail.headers['content-range']).toBe('users 0-0/1');
    const many = await t
      .http()
      .get('/api/users')
      .query({ filter: JSON.stringify({ id: [needle.id, cast.pcp.id] }) })
      .set(cast.admin.auth);
    expect(many.body).toHaveLength(2);
  });

  it.each([
    [{ sort: '["password_hash","ASC"]' }],
    [{ sort: 'not json' }],
    [{ range: '[5,1]' }],
    [{ range: '[0,100000]' }],
    [{ filter: '[1]' }],
  ])('bad list parameters get 400 (%j)', async (query) => {
    const res = await t.http().get('/api/users').query(query).set(cast.admin.auth);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('GET /api/users/:id for an unknown or malformed id is 404', async () => {
    expect((await t.http().get('/api/users/00000000-0000-4000-8000-000000000000').set(cast.admin.auth)).status).toBe(404);
    expect((await t.http().get('/api/users/not-a-uuid').set(cast.admin.auth)).status).toBe(404);
  });
});

describe('role changes', () => {
  it('an admin grants and revokes pcp', async () => {
    const u = await createUser(t);
    const grant = await t.http().put(`/api/users/${u.id}/role`).set(cast.admin.auth).send({ role: 'pcp' });
    expect(grant.status).toBe(200);
    expect(grant.body.role).toBe('pcp');
    expect((await t.http().get('/api/me').set(u.auth)).body.role).toBe('pcp');
    const revoke = await t.http().put(`/api/users/${u.id}/role`).set(cast.admin.auth).send({ role: null });
    expect(revoke.body.role).toBeNull();
  });

  it('an admin cannot grant admin or touch an administrator', async () => {
    const u = await createUser(t);
    expect((await t.http().put(`/api/users/${u.id}/role`).set(cast.admin.auth).send({ role: 'admin' })).status).toBe(403);
    const other = await createUser(t, 'admin');
    expect((await t.http().put(`/api/users/${other.id}/role`).set(cast.admin.auth).send({ role: 'pcp' })).status).toBe(403);
    expect((await t.http().get('/api/me').set(other.auth)).body.role).toBe('admin');
  });

  it('a super_admin grants admin and super_admin', async () => {
    const u = await createUser(t);
    expect((await t.http().put(`/api/users/${u.id}/role`).set(cast.super_admin.auth).send({ role: 'admin' })).body.role).toBe('admin');
    expect((await t.http().put(`/api/users/${u.id}/role`).set(cast.super_admin.auth).send({ role: 'super_admin' })).body.role).toBe(
      'super_admin',
    );
  });

  it.each([[{ role: 'doctor' }], [{}], [{ role: 'pcp', extra: 1 }]])('bad bodies get 400 (%j)', async (body) => {
    const u = await createUser(t);
    const res = await t.http().put(`/api/users/${u.id}/role`).set(cast.super_admin.auth).send(body);
    expect(res.status).toBe(400);
    expect((await t.http().get('/api/me').set(u.auth)).body.role).toBeNull();
  });
});

describe('PCP access requests and approvals', () => {
  it('request → pending list → approve grants pcp in the same step, recording who and when', async () => {
    const u = await createUser(t);
    const req = await t.http().post('/api/me/access-requests').set(u.auth).send({ requested_role: 'pcp' });
    expect(req.status).toBe(201);
    expect(req.body).toMatchObject({ user_id: u.id, requested_role: 'pcp', status: 'pending', decided_by: null });
    const dup = await t.http().post('/api/me/access-requests').set(u.auth).send({ requested_role: 'pcp' });
    expect(dup.status).toBe(409);
    const pending = await t
      .http()
      .get('/api/approvals')
      .query({ filter: JSON.stringify({ status: 'pending' }) })
      .set(cast.admin.auth);
    expect(pending.body.map((a: { id: string }) => a.id)).toContain(req.body.id);
    expect(pending.headers['content-range']).toMatch(/^approvals /);
    const stats = await t.http().get('/api/stats').set(cast.admin.auth);
    expect(stats.body.pending_approvals).toBeGreaterThanOrEqual(1);
    const ok = await t.http().post(`/api/approvals/${req.body.id}/approve`).set(cast.admin.auth);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'approved', decided_by: cast.admin.id, current_role: 'pcp' });
    expect(Date.now() - new Date(ok.body.decided_at).getTime()).toBeLessThan(60_000);
    expect((await t.http().get('/api/me').set(u.auth)).body.role).toBe('pcp');
    expect((await t.http().post(`/api/approvals/${req.body.id}/approve`).set(cast.admin.auth)).status).toBe(409);
    expect((await t.http().post('/api/me/access-requests').set(u.auth).send({ requested_role: 'pcp' })).status).toBe(409);
  });

  it('reject records the reason and grants nothing; the user may ask again', async () => {
    const u = await createUser(t);
    const req = await t.http().post('/api/me/access-requests').set(u.auth).send({ requested_role: 'pcp' });
    const no = await t
      .http()
      .post(`/api/approvals/${req.body.id}/reject`)
      .set(cast.super_admin.auth)
      .send({ reason: 'Licence not verified' });
    expect(no.status).toBe(200);
    expect(no.body).toMatchObject({ status: 'rejected', reason: 'Licence not verified', decided_by: cast.super_admin.id });
    expect((await t.http().get('/api/me').set(u.auth)).body.role).toBeNull();
    expect((await t.http().post('/api/me/access-requests').set(u.auth).send({ requested_role: 'pcp' })).status).toBe(201);
  });

  // Issue 10 item 17: the dashboard keeps 'Request PCP Access' disabled after a reload while a request waits.
  it('GET /api/me reports the pending request until it is decided', async () => {
    const u = await createUser(t);
    const me = async () => expectOk(await t.http().get('/api/me').set(u.auth)).body.pending_access_request;
    expect(await me()).toBeNull();
    const req = await t.http().post('/api/me/access-requests').set(u.auth).send({ requested_role: 'pcp' });
    expect(req.status).toBe(201);
    expect(await me()).toEqual({ id: req.body.id, requested_role: 'pcp', created_at: req.body.created_at });
    await t.http().post(`/api/approvals/${req.body.id}/reject`).set(cast.admin.auth).send({ reason: 'Licence not verified' });
    expect(await me()).toBeNull();
    const again = await t.http().post('/api/me/access-requests').set(u.auth).send({ requested_role: 'pcp' });
    expect((await me()).id).toBe(again.body.id);
    await t.http().post(`/api/approvals/${again.body.id}/approve`).set(cast.admin.auth);
    expect(await me()).toBeNull();
    // Someone else's request never shows.
    expect((await t.http().get('/api/me').set(cast.pcp.auth)).body.pending_access_request).toBeNull();
  });

  it('simultaneous requests queue exactly one', async () => {
    const u = await createUser(t);
    const results = await Promise.all(
      [1, 2, 3].map(() => t.http().post('/api/me/access-requests').set(u.auth).send({ requested_role: 'pcp' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('a pcp asking for pcp gets 409; bad bodies get 400 and write nothing', async () => {
    expect((await t.http().post('/api/me/access-requests').set(cast.pcp.auth).send({ requested_role: 'pcp' })).status).toBe(409);
    const u = await createUser(t);
    const before = await counts(t, ['user_approvals']);
    for (const body of [{}, { requested_role: 'wizard' }, { requested_role: 'pcp', note: 'x' }, { requested_role: 5 }]) {
      const res = await t.http().post('/api/me/access-requests').set(u.auth).send(body);
      expect(res.status).toBe(400);
    }
    expect(await counts(t, ['user_approvals'])).toEqual(before);
  });

  // Issue 10: only a clinician with a role asks for administrator access; a no-role user gets 400.
  it('an admin cannot approve an admin-access request; a super_admin can', async () => {
    const u = await createUser(t, 'pcp');
    const req = await t.http().post('/api/me/access-requests').set(u.auth).send({ requested_role: 'admin' });
    expect((await t.http().post(`/api/approvals/${req.body.id}/approve`).set(cast.admin.auth)).status).toBe(403);
    expect((await t.http().post(`/api/approvals/${req.body.id}/approve`).set(cast.super_admin.auth)).body.current_role).toBe('admin');
  });

  it('the access-request list names each requester and decider, finds a requester by name and sorts by e-mail', async () => {
    const tag = `Ottoline${Date.now()}`;
    const early = await createUser(t, null, { email: `aa-${tag.toLowerCase()}@example.test`, first_name: tag, last_name: 'Early' });
    const late = await createUser(t, 'pcp', { email: `zz-${tag.toLowerCase()}@example.test`, first_name: tag, last_name: 'Late' });
    const a = await t.http().post('/api/me/access-requests').set(early.auth).send({ requested_role: 'pcp' });
    const b = await t.http().post('/api/me/access-requests').set(late.auth).send({ requested_role: 'admin' });
    await t.http().post(`/api/approvals/${b.body.id}/reject`).set(cast.super_admin.auth).send({ reason: 'Not on the rota' });
    const list = (order: 'ASC' | 'DESC') =>
      t
        .http()
        .get('/api/approvals')
        .query({ filter: JSON.stringify({ q: tag }), sort: `["email","${order}"]` })
        .set(cast.admin.auth);
    const asc = expectOk(await list('ASC'));
    expect(asc.headers['content-range']).toBe('approvals 0-1/2');
    expect(asc.body).toEqual([
      expect.objectContaining({ id: a.body.id, email: early.email, first_name: tag, last_name: 'Early', current_role: null }),
      expect.objectContaining({
        id: b.body.id,
        email: late.email,
        last_name: 'Late',
        current_role: 'pcp',
        status: 'rejected',
        decided_by_email: cast.super_admin.email,
      }),
    ]);
    expect(asc.body[0].decided_by_email).toBeNull();
    expect(expectOk(await list('DESC')).body.map((r: { id: string }) => r.id)).toEqual([b.body.id, a.body.id]);
    const byFullName = await t
      .http()
      .get('/api/approvals')
      .query({ filter: JSON.stringify({ q: `${tag} lat` }) })
      .set(cast.admin.auth);
    expect(byFullName.body.map((r: { id: string }) => r.id)).toEqual([b.body.id]);
    expect(expectOk(await t.http().get(`/api/approvals/${b.body.id}`).set(cast.admin.auth)).body).toMatchObject({
      email: late.email,
      decided_by_email: cast.super_admin.email,
    });
  });

  it('unknown approval ids are 404 and filters are validated', async () => {
    expect((await t.http().post('/api/approvals/00000000-0000-4000-8000-000000000000/approve').set(cast.admin.auth)).status).toBe(404);
    expect((await t.http().get('/api/approvals').query({ filter: '{"status":"maybe"}' }).set(cast.admin.auth)).status).toBe(400);
  });
});

describe('a user waiting for PCP access', () => {
  it('shows as pending approval in the user list and on their own row, and active once approved', async () => {
    const waiting = await createUser(t);
    const other = await createUser(t);
    await t.http().post('/api/me/access-requests').set(waiting.auth).send({ requested_role: 'pcp' });
    const statuses = async () => {
      const res = await t
        .http()
        .get('/api/users')
        .query({ filter: JSON.stringify({ id: [waiting.id, other.id] }) })
        .set(cast.admin.auth);
      return Object.fromEntries(res.body.map((u: { id: string; status: string }) => [u.id, u.status]));
    };
    expect(await statuses()).toEqual({ [waiting.id]: 'pending_approval', [other.id]: 'active' });
    expect((await t.http().get(`/api/users/${waiting.id}`).set(cast.admin.auth)).body.status).toBe('pending_approval');
    const [request] = (await t.http().get('/api/me/access-requests').set(waiting.auth)).body;
    await t.http().post(`/api/approvals/${request.id}/approve`).set(cast.admin.auth);
    expect(await statuses()).toEqual({ [waiting.id]: 'active', [other.id]: 'active' });
  });
});

describe('stats', () => {
  it('counts users, pcps and pending approvals for real', async () => {
    const before = (await t.http().get('/api/stats').set(cast.admin.auth)).body;
    const u = await createUser(t);
    await createUser(t, 'pcp');
    await t.http().post('/api/me/access-requests').set(u.auth).send({ requested_role: 'pcp' });
    const after = (await t.http().get('/api/stats').set(cast.admin.auth)).body;
    expect(after).toEqual({
      total_users: before.total_users + 2,
      active_pcps: before.active_pcps + 1,
      pending_approvals: before.pending_approvals + 1,
    });
  });
});
