import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createApp } from './app';
import type { AppConfig } from './config/app-config';
import { embeddedDataDir, lockDataDir, startEmbeddedPostgres, type DataDirLock, type EmbeddedDatabase } from './database/embedded';

export interface Runtime {
  app: INestApplication;
  config: AppConfig;
  url: string;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Embedded mode only: keep the database in memory instead of under DATA_DIR (tests). */
  inMemory?: boolean;
  listen?: boolean;
  /** A lock on DATA_DIR already taken by the caller (main.ts takes it before anything else runs). */
  dataDirLock?: DataDirLock;
  /** The built web app to serve (tests: a fixture); default the frontend's dist. */
  frontendDist?: string;
}

/**
 * Starts the product: the embedded database when no DATABASE_URL is set, pending
 * migrations, then the HTTP app.
 */
export async function startRuntime(config: AppConfig, opts: RuntimeOptions = {}): Promise<Runtime> {
  let embedded: EmbeddedDatabase | undefined;
  let lock: DataDirLock | undefined;
  let resolved = config;
  let app: INestApplication | undefined;
  try {
    if (!config.databaseUrl) {
      if (!opts.inMemory) lock = opts.dataDirLock ?? lockDataDir(config.dataDir);
      embedded = await startEmbeddedPostgres(opts.inMemory ? undefined : embeddedDataDir(config.dataDir));
      resolved = { ...config, databaseUrl: embedded.url };
    }
    app = await createApp(resolved, opts.frontendDist);
    await runMigrationsOnce(app.get(DataSource));
    // No Nest shutdown hooks: main.ts closes the runtime on SIGTERM/SIGINT, in order (HTTP, database, DATA_DIR lock).
    if (opts.listen !== false) await app.listen(resolved.port, '0.0.0.0');
    else await app.init();
  } catch (e) {
    await app?.close().catch(() => undefined);
    await embedded?.close().catch(() => undefined);
    lock?.release();
    throw e;
  }
  const address = opts.listen !== false ? app.getHttpServer().address() : null;
  const port = address && typeof address === 'object' ? address.port : resolved.port;
  let closed = false;
  return {
    app,
    config: resolved,
    url: `http://localhost:${port}`,
    async close() {
      if (closed) return;
      closed = true;
      await app!.close();
      await embedded?.close();
      lock?.release();
    },
  };
}

const MIGRATION_LOCK = 7261002;
const MIGRATION_LOCK_POLL_MS = 100;

/**
 * Several API processes (API_PROCESSES, replicas) start at once on one database: the first
 * migrates while the others wait on an advisory lock, then find nothing pending. They poll for it:
 * a wait inside one statement would be cancelled by the statement timeout while the first migrates.
 */
async function runMigrationsOnce(db: DataSource): Promise<void> {
  const runner = db.createQueryRunner();
  await runner.connect();
  try {
    while (!(await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK]))[0].locked) {
      await new Promise((r) => setTimeout(r, MIGRATION_LOCK_POLL_MS));
    }
    try {
      await db.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await runner.release();
  }
}
