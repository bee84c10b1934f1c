import { startTestApp } from '../support/app';
import { PASSWORD, uniqueEmail } from '../support/factories';

// Each test needs an instance of its own: apps run one at a time (passport keeps one registry per process).
describe('ownership of a new instance', () => {
  it('becomes super_admin on an instance with no administrator (and only the first)', async () => {
    const fresh = await startTestApp();
    try {
      const [a, b] = await Promise.all([
        fresh.http().post('/api/auth/signup').send({ email: uniqueEmail('first'), password: PASSWORD }),
        fresh.http().post('/api/auth/signup').send({ email: uniqueEmail('second'), password: PASSWORD }),
      ]);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect([a.body.user.role, b.body.user.role].sort()).toEqual(['super_admin', null].sort());
      const c = await fresh.http().post('/api/auth/signup').send({ email: uniqueEmail('third'), password: PASSWORD });
      expect(c.body.user.role).toBeNull();
    } finally {
      await fresh.close();
    }
  });

  it('the last super_admin cannot be demoted', async () => {
    const fresh = await startTestApp();
    try {
      const owner = await fresh.http().post('/api/auth/signup').send({ email: uniqueEmail('owner'), password: PASSWORD });
      const res = await fresh.http().put(`/api/users/${owner.body.user.id}/role`)
        .set('Authorization', `Bearer ${owner.body.access_token}`).send({ role: 'admin' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('conflict');
    } finally {
      await fresh.close();
    }
  });
});
