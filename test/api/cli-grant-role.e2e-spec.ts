import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from '../support/app';
import { createUser } from '../support/factories';

/**
 * The operator's `npm run cli -- grant-role`: it writes the role with SQL of its own, outside the API, so the API's
 * session cache (which otherwise keeps a session's role for up to 5 s) has to hear of it. A demoted administrator
 * must lose the console at the next request, not seconds later.
 */
const run = promisify(execFile);
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

function cli(...args: string[]) {
  const { databaseUrl, redisUrl, queue } = t.runtime.config;
  return run(process.execPath, [join(__dirname, '..', 'support', 'cli-main.cjs'), ...args], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: queue.prefix,
    },
  }).then(
    ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

const status = async (token: string, path: string) => (await t.http().get(path).set('Authorization', `Bearer ${token}`)).status;

// Without Redis there is one API process and nothing to announce to: its cache keeps a role up to 5 s.
const withRedis = process.env.REDIS_URL ? it : it.skip;

withRedis('an administrator demoted from the CLI loses the console at the next request, on a session the API had cached', async () => {
  const admin = await createUser(t, 'admin');
  expect(await status(admin.access_token, '/api/users')).toBe(200);
  expect(await status(admin.access_token, '/api/users')).toBe(200);
  const out = await cli('grant-role', admin.email, 'pcp');
  expect(out).toMatchObject({ code: 0, stdout: `${admin.email} now has the role pcp.\n` });
  expect(await status(admin.access_token, '/api/users')).toBe(403);
  expect((await t.http().get('/api/auth/user').set('Authorization', `Bearer ${admin.access_token}`)).body.role).toBe('pcp');
});

it('refuses an e-mail with no account and says so', async () => {
  const out = await cli('grant-role', 'nobody-here@example.org', 'super_admin');
  expect(out.code).toBe(1);
  expect(out.stderr).toBe('No account with the email nobody-here@example.org. Sign up first.\n');
});
