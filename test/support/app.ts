import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../backend/src/config/app-config';
import { startRuntime, type Runtime } from '../../backend/src/runtime';
import { ECQM_DIR } from './conformance';
import { BROKER_ENV, createEmbeddedTestDatabase } from './embedded-postgres-broker';

export interface TestApp {
  runtime: Runtime;
  url: string;
  db: DataSource;
  http: () => ReturnType<typeof request>;
  close(): Promise<void>;
}

/** A TestApp over a runtime the suite started itself (and closes itself: `close` does nothing). */
export function testAppOf(runtime: Runtime): TestApp {
  return { runtime, url: runtime.url, db: runtime.app.get(DataSource), http: () => request(runtime.url), close: async () => undefined };
}

/**
 * A fresh database per suite: a new database on the PostgreSQL server named by
 * DATABASE_URL (CI), or an in-memory embedded PostgreSQL from the broker Jest's global setup
 * starts (the default; see embedded-postgres-broker.ts).
 */
export async function createTestDatabase(): Promise<{ url?: string; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const broker = process.env[BROKER_ENV];
    return broker ? createEmbeddedTestDatabase(broker) : { url: undefined, drop: async () => undefined };
  }
  const name = `cds_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

// Passport keeps strategies in one process-wide registry, so apps in one test process share a secret.
const JWT_SECRET = randomBytes(32).toString('hex');

let live = 0;

export async function startTestApp(env: Record<string, string | undefined> = {}, opts: { frontendDist?: string } = {}): Promise<TestApp> {
  if (live > 0) throw new Error('Close the running test app first: apps in one process share the passport registry');
  live += 1;
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'cds-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: '0',
    JWT_SECRET,
    DATABASE_URL: database.url,
    REDIS_URL: process.env.REDIS_URL,
    // HTTP_ADAPTER=express npm run test:one -- <suite> runs a suite on Express (docs/operations.md#http-adapter).
    HTTP_ADAPTER: process.env.HTTP_ADAPTER,
    AUTH_RATE_LIMIT_PER_IP: '100000',
    AUTH_RATE_LIMIT_PER_EMAIL: '1000',
    LOG_LEVEL: 'silent',
    // Each app gets its own Redis keys, so suites and runs never see each other's jobs.
    QUEUE_PREFIX: `cds-test-${randomBytes(4).toString('hex')}`,
    // The official decks where the suites read them (the admin console's conformance report runs them).
    ECQM_DIR,
    ...env,
  });
  let runtime: Runtime;
  try {
    runtime = await startRuntime(config, { inMemory: true, frontendDist: opts.frontendDist });
  } catch (e) {
    live -= 1;
    await database.drop();
    throw e;
  }
  return {
    ...testAppOf(runtime),
    async close() {
      await runtime.close();
      live -= 1;
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
