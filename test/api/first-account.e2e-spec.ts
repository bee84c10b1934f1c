import { startTestApp } from '../support/app';
import { PASSWORD, uniqueEmail } from '../support/factories';

// Each test needs an instance of its own: apps run one at a time (passport keeps one registry per process).
describe('ownership of a new instance', () => {
  it('becomes super_admin on an instance with no administrator (and only the first)', async () => {
    const fresh = await startTestApp();
    try {
      const [a, b] = await Promise.all([
        fresh
          .http()
          .post('/api/auth/signup')
          .send({ email: uniqueEmail('first'), password: PASSWORD }),
        fresh
          .http()
          .post('/api/auth/signup')
          .send({ email: uniqueEmail('second'), password: PASSWORD }),
      ]);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect([a.body.user.role, b.body.user.role].sort()).toEqual(['super_admin', null].sort());
      const c = await fresh
        .http()
        .post('/api/auth/signup')
        .send({ email: uniqueEmail('third'), password: PASSWORD });
      expect(c.body.user.role).toBeNull();
    } finally {
      await fresh.close();
    }
  });

  it('the last super_admin cannot be demoted', async () => {
    const fresh = await startTestApp();
    try {
      const owner = await fresh
        .http()
        .post('/api/auth/signup')
        .send({ email: uniqueEmail('owner'), password: PASSWORD });
      const res = await fresh
        .http()
        .put(`/api/users/${owner.body.user.id}/role`)
        .set('Authorization', `Bearer ${owner.body.access_token}`)
        .send({ role: 'admin' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('conflict');
    } finally {
      await fresh.close();
    }
  });
});

describe('activity feed', () => {
  it('lists sign-ups, requests and decisions newest first, for real', async () => {
    const fresh = await startTestApp();
    try {
      const empty = await fresh
        .http()
        .post('/api/auth/signup')
        .send({ email: uniqueEmail('owner'), password: PASSWORD });
      const owner = { Authorization: `Bearer ${empty.body.access_token}` };
      const u = await fresh
        .http()
        .post('/api/auth/signup')
        .send({ email: uniqueEmail('doc'), password: PASSWORD });
      const req = await fresh
        .http()
        .post('/api/me/access-requests')
        .set('Authorization', `Bearer ${u.body.access_token}`)
        .send({ requested_role: 'pcp' });
      await fresh.http().post(`/api/approvals/${req.body.id}/approve`).set(owner);
      const feed = await fresh.http().get('/api/activity').set(owner);
      expect(feed.status).toBe(200);
      expect(feed.body.map((a: { type: string }) => a.type)).toEqual(['approval_approved', 'access_requested', 'signup', 'signup']);
      expect(feed.body[0].summary).toContain(`approved PCP access for ${u.body.user.email}`);
      expect(feed.headers['content-range']).toBe('activity 0-3/4');
    } finally {
      await fresh.close();
    }
  });
});
