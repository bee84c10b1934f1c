import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../backend/src/config/app-config';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../backend/src/database/embedded';
import { startRuntime, type Runtime } from '../../backend/src/runtime';
import { createTestDatabase, testAppOf, type TestApp } from '../support/app';
import { createCast } from '../support/factories';
import { postgresTarget, postgresUrlVia, startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

// Issue 24, item 4: a database that hangs (a lock never released, a server that stopped answering) must
// cost a request a 503 with Retry-After after about DATABASE_STATEMENT_TIMEOUT_MS, never a request that
// waits as long as the database does. The suite's own database sits behind a proxy the test freezes.
const STATEMENT_TIMEOUT_MS = 1000;
// Far beyond the 1 s deadlines (about 2 s at most): a request still waiting then is a hang.
const HANG_MS = 20_000;

let runtime: Runtime;
let proxy: TcpProxy;
let embedded: EmbeddedDatabase | undefined;
let drop: () => Promise<void> = async () => undefined;
let url: string;
let dataDir: string;
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  const db = await createTestDatabase();
  drop = db.drop;
  url = db.url ?? '';
  if (!url) {
    embedded = await startEmbeddedPostgres(undefined);
    url = embedded.url;
  }
  proxy = await startTcpProxy(postgresTarget(url));
  dataDir = mkdtempSync(join(tmpdir(), 'cds-dbhung-'));
  // One secret for both runtimes: the cast signed up under the first keeps its tokens under the second.
  const jwtSecret = randomBytes(32).toString('hex');
  const config = (timeouts: Record<string, string>) =>
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: '0',
      JWT_SECRET: jwtSecret,
      DATABASE_URL: postgresUrlVia(url, proxy.port),
      ...timeouts,
      LOG_LEVEL: 'silent',
      AUTH_RATE_LIMIT_PER_IP: '100000',
      AUTH_RATE_LIMIT_PER_EMAIL: '100000',
    });
  // The fresh database is migrated first at the default deadlines: every migration commits in one
  // transaction, which took longer than 1 s on a loaded machine (parallel suites sharing one embedded
  // PostgreSQL process). The users are signed up there too: a sign-up's writes took longer than 1 s in the
  // same loaded pass (503 in beforeAll). The hangs under test come after.
  const setup = await startRuntime(config({}));
  cast = await createCast(testAppOf(setup));
  await setup.close();
  runtime = await startRuntime(
    config({ DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS), DATABASE_ACQUIRE_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) }),
  );
  t = testAppOf(runtime);
});

afterAll(async () => {
  proxy?.thaw();
  await runtime?.close();
  await proxy?.close();
  await embedded?.close();
  await drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (path: string, role: 'pcp' | 'admin') => t.http().get(path).set(cast[role].auth).timeout(HANG_MS);

const expect503 = (res: request.Response) => {
  expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'service_unavailable' });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
};

/** The app answers 200 again once the database does (its pool recovers on its own). */
async function recovers() {
  let status = 0;
  for (let i = 0; i < 40 && status !== 200; i++) {
    status = (await get('/api/me', 'pcp')).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  expect(status).toBe(200);
}

describe('a database that hangs', () => {
  it('a table locked by another session (a stuck migration, a long report): /api/me and /api/assessments get 503 with Retry-After, then 200 once the lock goes', async () => {
    await recovers();
    const holder = new Client({ connectionString: url });
    holder.on('error', () => undefined);
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE users, assessments IN ACCESS EXCLUSIVE MODE');
      expect503(await get('/api/me', 'pcp'));
      expect503(await get('/api/assessments', 'pcp'));
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
    await recovers();
  });

  it('a server that stops answering altogether (frozen): requests get 503 with Retry-After, new connections included, then 200 once it answers again', async () => {
    await recovers();
    proxy.freeze();
    try {
      const responses = await Promise.all([
        get('/api/me', 'pcp'),
        get('/api/assessments', 'pcp'),
        // More at once than the pool has connections: the rest wait for one, or open new ones that never answer.
        ...Array.from({ length: 12 }, () => get('/api/parameters', 'admin')),
      ]);
      responses.forEach(expect503);
    } finally {
      proxy.thaw();
    }
    await recovers();
  });

  // Last: a second app in this process takes over passport's strategy registry.
  it('an API process starting while another migrates for longer than the statement timeout waits for it, then starts', async () => {
    const migrating = new Client({ connectionString: url });
    migrating.on('error', () => undefined);
    await migrating.connect();
    let second: Runtime | undefined;
    try {
      await migrating.query('SELECT pg_advisory_lock(7261002)');
      const starting = startRuntime(
        loadConfig({
          NODE_ENV: 'test',
          DATA_DIR: dataDir,
          PORT: '0',
          JWT_SECRET: randomBytes(32).toString('hex'),
          DATABASE_URL: url,
          DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
          LOG_LEVEL: 'silent',
        }),
        { listen: false },
      );
      // The other process "migrates" for twice the statement timeout.
      await new Promise((r) => setTimeout(r, 2 * STATEMENT_TIMEOUT_MS));
      await migrating.query('SELECT pg_advisory_unlock(7261002)');
      second = await starting;
      expect(second.app.get(DataSource).isInitialized).toBe(true);
    } finally {
      await second?.close();
      await migrating.end();
    }
  });
});
