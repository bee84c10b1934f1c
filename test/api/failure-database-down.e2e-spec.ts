import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../backend/src/config/app-config';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../backend/src/database/embedded';
import { startRuntime, type Runtime } from '../../backend/src/runtime';
import { createTestDatabase, testAppOf, type TestApp } from '../support/app';
import { createCast, PASSWORD, uniqueEmail } from '../support/factories';
import { postgresTarget, postgresUrlVia, startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

// Issue 10, item 5: while PostgreSQL is unreachable every request gets 503 service_unavailable with
// Retry-After (never 500), and /api/polish-question still answers with the built-in wording.
// The database really goes away: the app talks to it through a TCP proxy that the test cuts.
let runtime: Runtime;
let proxy: TcpProxy;
let embedded: EmbeddedDatabase | undefined;
let drop: () => Promise<void> = async () => undefined;
let dataDir: string;
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  // On the embedded defaults the database comes from the broker outside the test sandbox:
  // importing PGlite inside it fails once an earlier suite's environment is torn down.
  const db = await createTestDatabase();
  drop = db.drop;
  let url = db.url;
  if (!url) {
    embedded = await startEmbeddedPostgres(undefined);
    url = embedded.url;
  }
  proxy = await startTcpProxy(postgresTarget(url));
  dataDir = mkdtempSync(join(tmpdir(), 'cds-dbdown-'));
  runtime = await startRuntime(
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: '0',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATABASE_URL: postgresUrlVia(url, proxy.port),
      LOG_LEVEL: 'silent',
      AUTH_RATE_LIMIT_PER_IP: '100000',
      AUTH_RATE_LIMIT_PER_EMAIL: '100000',
    }),
  );
  t = testAppOf(runtime);
  cast = await createCast(t);
});

afterAll(async () => {
  await proxy?.restore().catch(() => undefined);
  await runtime?.close();
  await proxy?.close();
  await embedded?.close();
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const expect503 = (res: request.Response) => {
  expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'service_unavailable' });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
};

describe('PostgreSQL down', () => {
  beforeAll(async () => {
    // Sanity: through the proxy the app works.
    expect((await t.http().get('/api/parameters').set(cast.admin.auth)).status).toBe(200);
    await proxy.cut();
  });

  it('sign-up and sign-in get 503 with Retry-After', async () => {
    expect503(
      await t
        .http()
        .post('/api/auth/signup')
        .send({ email: uniqueEmail(), password: PASSWORD, data: { first_name: 'A', last_name: 'B' } }),
    );
    expect503(await t.http().post('/api/auth/token?grant_type=password').send({ email: cast.pcp.email, password: PASSWORD }));
  });

  it.each([
    ['GET', '/api/parameters', 'admin'],
    ['GET', '/api/users', 'admin'],
    ['GET', '/api/me', 'pcp'],
    ['POST', '/api/rule-sets', 'admin'],
    ['GET', '/api/assessments', 'pcp'],
  ] as const)('%s %s as %s gets 503 with Retry-After', async (method, path, role) => {
    const req = method === 'GET' ? t.http().get(path) : t.http().post(path).send({ name: 'During the outage' });
    expect503(await req.set(cast[role].auth));
  });

  it('no request of 40 concurrent ones gets a 500', async () => {
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2
          ? t.http().get('/api/parameters').set(cast.admin.auth)
          : t.http().post('/api/auth/token?grant_type=password').send({ email: cast.admin.email, password: PASSWORD }),
      ),
    );
    expect(responses.map((r) => r.status).filter((s) => s !== 503)).toEqual([]);
  });

  it('/api/polish-question still answers a signed-in user with the built-in wording', async () => {
    const res = await t
      .http()
      .post('/api/polish-question')
      .set(cast.pcp.auth)
      .send({ displayName: 'HbA1c', parameterName: 'hba1c_outage' });
    expect(res.status).toBe(200);
    expect(res.body.polishedQuestion).toMatch(/hba1c/i);
  });

  it('/api/polish-question still refuses a caller without a valid token', async () => {
    const res = await t
      .http()
      .post('/api/polish-question')
      .set('Authorization', 'Bearer not-a-token')
      .send({ displayName: 'HbA1c', parameterName: 'hba1c' });
    expect(res.status).toBe(401);
  });

  it('the app recovers when the database comes back', async () => {
    await proxy.restore();
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await t.http().get('/api/parameters').set(cast.admin.auth)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});
