import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { POLISH_JOB_QUEUE, type PolishJobData } from './polish.constants';
import { PolishProcessor } from './polish.processor';
import { PolishService } from './polish.service';
import type { JobQueue } from './queue/job-queue';

/**
 * Starts consuming the question-polish queue in this process. The API process does so only
 * when no other process could: without Redis (jobs live in its memory) or with the embedded
 * database (no other process can reach it). Otherwise `npm run worker` calls start().
 */
@Injectable()
export class PolishRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('PolishRunner');
  private started = false;
  private timer?: NodeJS.Timeout;
  private sweeping = false;

  constructor(
    @Inject(POLISH_JOB_QUEUE) private readonly queue: JobQueue<PolishJobData>,
    private readonly processor: PolishProcessor,
    private readonly polish: PolishService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  static runsInApiProcess(config: AppConfig): boolean {
    return !config.redisUrl || config.databaseMode === 'embedded';
  }

  async onApplicationBootstrap() {
    if (PolishRunner.runsInApiProcess(this.config)) await this.start();
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.queue.process((job) => this.processor.process(job));
    // Catches up on whatever was missed: jobs lost with an in-process runner, parameters older
    // than this feature, and parameters saved while Redis was away (their save could not queue
    // a job): at start, when the queue's connection comes back, and every interval.
    void this.catchUp('start-up');
    this.queue.onReconnect(() => void this.catchUp('queue reconnected'));
    if (this.config.polishSweepIntervalMs > 0) {
      this.timer = setInterval(() => void this.catchUp('periodic'), this.config.polishSweepIntervalMs);
      this.timer.unref();
    }
  }

  /** One sweep at a time; a failed one (database or Redis still away) waits for the next trigger. */
  async catchUp(reason: string): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const n = await this.polish.sweep();
      if (n > 0) this.logger.log(`Queued ${n} parameter(s) whose question was missing or out of date (${reason})`);
    } catch (err) {
      this.logger.warn(`Polish catch-up (${reason}) failed: ${(err as Error).message}`);
    } finally {
      this.sweeping = false;
    }
  }

  /** Before the database closes (onApplicationShutdown): active jobs still need it. */
  async onModuleDestroy() {
    clearInterval(this.timer);
    await this.queue.close();
  }
}
