import 'reflect-metadata';
import cluster from 'node:cluster';
import { runPrimary } from './cluster';
import { flushLogs, useProcessLogOutput } from './common/logger';
import { ConfigError, embeddedDataDirOf, loadConfig } from './config/app-config';
import { DataDirLockedError, lockDataDir, type DataDirLock } from './database/embedded';

async function main() {
  // First of all: a second process on the same DATA_DIR must leave at once, having bound no
  // port and written no file (not even the generated JWT secret).
  let lock: DataDirLock | undefined;
  const dataDir = embeddedDataDirOf();
  if (dataDir) {
    try {
      lock = lockDataDir(dataDir);
    } catch (e) {
      if (e instanceof DataDirLockedError) {
        process.stderr.write(`${e.message}\n`);
        process.exit(1);
      }
      throw e;
    }
  }
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      lock?.release();
      process.exit(1);
    }
    throw e;
  }
  if (config.apiProcesses > 1 && cluster.isPrimary) return runPrimary(config.apiProcesses);
  useProcessLogOutput();
  const started = Date.now();
  // Loaded here, not at the top: a cluster primary never needs Nest (it stays ~55 MB instead of ~145 MB RSS).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberate lazy load (CommonJS build)
  const { startRuntime } = require('./runtime') as typeof import('./runtime');
  const runtime = await startRuntime(config, { dataDirLock: lock });
  const db =
    config.databaseMode === 'embedded' ? `embedded PostgreSQL (PGlite) in ${config.dataDir}` : 'external PostgreSQL (DATABASE_URL)';
  const queue = config.redisUrl ? 'BullMQ on Redis (REDIS_URL)' : 'in-process job runner';
  process.stdout.write(
    `\nDiabetes CDS is running at ${runtime.url}  (ready in ${Date.now() - started} ms)\n  database: ${db}\n  queue:    ${queue}\n\n`,
  );

  const stop = async (signal: string) => {
    process.stdout.write(`${signal} received, shutting down\n`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await runtime.close();
    flushLogs();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e) => {
  flushLogs();
  process.stderr.write(`Start-up failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
