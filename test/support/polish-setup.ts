import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, type TestApp } from './app';
import { dropQueuePrefix, uniqueQueuePrefix } from './queue';
import { spawnWorker, type WorkerProcess } from './worker-process';

/**
 * With Redis and an external database (CI), the API only queues and `npm run worker` runs
 * the jobs, so the suites start a real worker process. Otherwise the API runs them itself.
 */
export const SEPARATE_WORKER = Boolean(process.env.REDIS_URL && process.env.DATABASE_URL);

export interface PolishSetup {
  t: TestApp;
  prefix: string;
  /** Worker processes started so far (their output, for log checks). */
  workers: WorkerProcess[];
  /** Starts one more worker process on the same database, Redis and prefix. */
  startWorker(env?: Record<string, string | undefined>): WorkerProcess;
  close(): Promise<void>;
}

export async function startPolishApp(env: Record<string, string | undefined> = {}, opts: { worker?: boolean } = {}): Promise<PolishSetup> {
  const prefix = uniqueQueuePrefix();
  const t = await startTestApp({ QUEUE_PREFIX: prefix, ...env });
  const workers: WorkerProcess[] = [];
  const dirs: string[] = [];
  const setup: PolishSetup = {
    t,
    prefix,
    workers,
    startWorker(extra = {}) {
      const dir = mkdtempSync(join(tmpdir(), 'cds-worker-'));
      dirs.push(dir);
      const w = spawnWorker({
        DATABASE_URL: t.runtime.config.databaseUrl,
        REDIS_URL: process.env.REDIS_URL,
        QUEUE_PREFIX: prefix,
        JWT_SECRET: randomBytes(32).toString('hex'),
        DATA_DIR: dir,
        ...env,
        ...extra,
      });
      workers.push(w);
      return w;
    },
    async close() {
      await Promise.all(workers.map((w) => w.stop('SIGKILL')));
      await t.close();
      await dropQueuePrefix(prefix);
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
  if (SEPARATE_WORKER && opts.worker !== false) {
    try {
      await setup.startWorker().ready;
    } catch (e) {
      await setup.close();
      throw e;
    }
  }
  return setup;
}
