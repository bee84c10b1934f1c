import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** A bench's own database and data folder, and the environment an API started on them reads. */
export interface Scratch {
  /** The scratch database's name. */
  name: string;
  /** A connection to the server's maintenance database (statistics, the final drop). */
  admin: Client;
  env: NodeJS.ProcessEnv;
  /** Drops the database and removes the data folder. */
  drop(): Promise<void>;
}

/**
 * Creates a scratch database on DATABASE_URL's server (default the local postgres) for an API
 * under load: logging off unless `logLevel` says otherwise, sign-in rate limits out of the way,
 * a fresh JWT secret.
 */
export async function scratchDatabase(label: string, logLevel = 'silent'): Promise<Scratch> {
  const server = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const name = `cds_bench_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: server.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const scratch = new URL(server.toString());
  scratch.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), `cds-bench-${label}-`));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: scratch.toString(),
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: logLevel,
    JWT_SECRET: randomBytes(32).toString('hex'),
    AUTH_RATE_LIMIT_PER_IP: '100000000',
    AUTH_RATE_LIMIT_PER_EMAIL: '100000000',
  };
  return {
    name,
    admin,
    env,
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}
