import { startTestApp, type TestApp } from '../support/app';
import { createCast } from '../support/factories';

// Issue 10, item 6: the invitation token (a credential: it creates an account) must not reach the log.
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let lines: string[] = [];
const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'debug' });
  cast = await createCast(t);
  const capture = (chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  };
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
});
afterAll(async () => {
  process.stdout.write = writes.out;
  process.stderr.write = writes.err;
  await t?.close();
});

it('opening an invitation link logs the request without its token', async () => {
  const created = await t
    .http()
    .post('/api/invitations')
    .set(cast.admin.auth)
    .send({ email: 'invitee.redaction@clinic.test', role: 'pcp' });
  expect(created.status).toBe(201);
  const token = String(created.body.url).split('/invite/')[1];
  expect(token.length).toBeGreaterThan(20);
  lines = [];
  expect((await t.http().get(`/api/invitations/by-token/${token}`)).status).toBe(200);
  expect((await t.http().get(`/api/invitations/by-token/${token}x`)).status).toBe(404);
  await t.http().get(`/api/invitations/by-token/${token}?token=${token}`);
  const log = lines.join('');
  expect(log).toContain('/api/invitations/by-token/[redacted]');
  expect(log).not.toContain(token);
});
