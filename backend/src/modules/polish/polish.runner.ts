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
    // Catches up on whatever was missed: jobs lost with an in-process runner, a Redis outage
    // while parameters were saved, parameters older than this feature.
    this.polish.sweep().then(
      (n) => { if (n > 0) this.logger.log(`Queued ${n} parameter(s) whose question was missing or out of date`); },
      (err: Error) => this.logger.warn(`Start-up sweep failed: ${err.message}`),
    );
  }

  /** Before the database closes (onApplicationShutdown): active jobs still need it. */
  async onModuleDestroy() {
    await this.queue.close();
  }
}
