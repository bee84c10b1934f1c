import { startTestApp, type TestApp } from '../support/app';
import { PASSWORD, uniqueEmail } from '../support/factories';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ AUTH_RATE_LIMIT_PER_IP: '8', AUTH_RATE_LIMIT_PER_EMAIL: '3' });
});
afterAll(async () => {
  await t?.close();
});

describe('sign-in and sign-up rate limits', () => {
  it('limits attempts against one e-mail, with Retry-After details', async () => {
    const email = uniqueEmail('target');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (
          await t
            .http()
            .post('/api/auth/token?grant_type=password')
            .send({ email, password: `guess number ${i}` })
        ).status,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    const res = await t.http().post('/api/auth/token?grant_type=password').send({ email, password: PASSWORD });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
    expect(res.body.details.retry_after_seconds).toBeGreaterThan(0);
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('limits attempts from one IP across e-mails (sign-up included)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await t
            .http()
            .post('/api/auth/signup')
            .send({ email: uniqueEmail('spray'), password: PASSWORD })
        ).status,
      );
    }
    // The previous test spent 5 of this address's 8 attempts.
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429]);
  });
});
