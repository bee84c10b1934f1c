import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/app-config';
import { startRuntime } from './runtime';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const started = Date.now();
  const runtime = await startRuntime(config);
  const db = config.databaseMode === 'embedded' ? `embedded PostgreSQL (PGlite) in ${config.dataDir}` : 'external PostgreSQL (DATABASE_URL)';
  const queue = config.redisUrl ? 'BullMQ on Redis (REDIS_URL)' : 'in-process job runner';
  process.stdout.write(`\nDiabetes CDS is running at ${runtime.url}  (ready in ${Date.now() - started} ms)\n  database: ${db}\n  queue:    ${queue}\n\n`);

  const stop = async (signal: string) => {
    process.stdout.write(`${signal} received, shutting down\n`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e) => {
  process.stderr.write(`Start-up failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
