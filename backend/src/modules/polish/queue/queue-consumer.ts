import type { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../../../config/app-config';
import type { JobProcessor, JobQueue } from './job-queue';

/**
 * A queue consumed in this process, with the catch-up that re-queues from the database what the queue may not
 * hold (jobs lost with the in-process runner, work saved while Redis was away): at start-up, when the queue's
 * connection comes back, and every `intervalMs` when one is given. Job ids come from the database rows, so
 * re-queueing pending work does nothing. The API process consumes only when no other process could: without
 * Redis (jobs live in its memory) or with the embedded database (no other process can reach it); otherwise
 * `npm run worker` calls start().
 */
export abstract class QueueConsumer<T> implements OnApplicationBootstrap, OnModuleDestroy {
  private started = false;
  private timer?: NodeJS.Timeout;
  private sweep: Promise<number> | null = null;

  protected constructor(
    private readonly queue: JobQueue<T>,
    private readonly config: AppConfig,
    private readonly logger: Logger,
    private readonly job: {
      process: JobProcessor<T>;
      /** Re-queues what the database says is pending; the number queued. */
      catchUp: () => Promise<number>;
      /** The log line once `n` were queued. */
      queued: (n: number, reason: string) => string;
      /** Catch-up every so many milliseconds as well (0: never). */
      intervalMs?: number;
    },
  ) {}

  static runsInApiProcess(config: AppConfig): boolean {
    return !config.redisUrl || config.databaseMode === 'embedded';
  }

  async onApplicationBootstrap() {
    if (QueueConsumer.runsInApiProcess(this.config)) await this.start();
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.queue.process(this.job.process);
    void this.catchUp('start-up');
    this.queue.onReconnect(() => void this.catchUp('queue reconnected'));
    if (this.job.intervalMs) {
      this.timer = setInterval(() => void this.catchUp('periodic'), this.job.intervalMs);
      this.timer.unref();
    }
  }

  /** One catch-up at a time (a trigger during one gets its count); a failed one (database or Redis away) waits for the next trigger. */
  catchUp(reason: string): Promise<number> {
    this.sweep ??= this.job
      .catchUp()
      .then(
        (n) => {
          if (n > 0) this.logger.log(this.job.queued(n, reason));
          return n;
        },
        (err: unknown) => {
          this.logger.warn(`Catch-up (${reason}) failed: ${(err as Error).message}`);
          return 0;
        },
      )
      .finally(() => (this.sweep = null));
    return this.sweep;
  }

  /** Before the database closes (onApplicationShutdown): active jobs still need it. */
  async onModuleDestroy() {
    clearInterval(this.timer);
    await this.queue.close();
  }
}
