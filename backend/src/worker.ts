import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { AppLogger, flushLogs, useProcessLogOutput } from './common/logger';
import { ConfigError, loadConfig, type AppConfig } from './config/app-config';
import { PolishRunner } from './modules/polish/polish.runner';
import { MeasureRunsRunner } from './modules/measures';
import { RecordImportsRunner } from './modules/records';

export interface RunningWorker {
  app: INestApplicationContext;
  close(): Promise<void>;
}

/** Why this configuration cannot run a separate worker, or null when it can. */
export function workerConfigProblem(config: AppConfig): string | null {
  if (!config.redisUrl) return 'The worker needs REDIS_URL. Without Redis, jobs run inside `npm start` (in-process runner).';
  if (!config.databaseUrl) return 'The worker needs DATABASE_URL. With the embedded database, jobs run inside `npm start`.';
  return null;
}

/** The same modules as the API, without HTTP, consuming the queues. */
export async function startWorker(config: AppConfig): Promise<RunningWorker> {
  const problem = workerConfigProblem(config);
  if (problem) throw new ConfigError(problem);
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: new AppLogger(config.logLevel) });
  try {
    await app.init();
    await app.get(PolishRunner).start();
    await app.get(RecordImportsRunner).start();
    await app.get(MeasureRunsRunner).start();
  } catch (e) {
    await app.close().catch(() => undefined);
    throw e;
  }
  let closed = false;
  return {
    app,
    async close() {
      if (closed) return;
      closed = true;
      // Lets active jobs finish; a job cut short by a kill is retaken by another worker (stalled-job check).
      await app.close();
    },
  };
}

export async function main() {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const problem = workerConfigProblem(config);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
  useProcessLogOutput();
  const worker = await startWorker(config);
  process.stdout.write(
    `Worker ready: queues question-polish and record-import on Redis (prefix ${config.queue.prefix}, ${config.workerConcurrency} jobs at a time)\n`,
  );

  const stop = async (signal: string) => {
    process.stdout.write(`${signal} received, finishing active jobs\n`);
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    await worker.close();
    flushLogs();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

if (require.main === module) {
  main().catch((e) => {
    flushLogs();
    process.stderr.write(`Worker start-up failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
