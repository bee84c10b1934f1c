import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import { PolishRunner, type JobQueue } from '../../polish';
import { MEASURE_RUN_JOB_QUEUE, type MeasureRunJobData } from './measure-runs.constants';
import { MeasureRunsProcessor } from './measure-runs.processor';
import { MeasureRunsService } from './measure-runs.service';

/**
 * Consumes the measure-run queue where the other queues are consumed (the API process without Redis or with
 * the embedded database; else `npm run worker`), and re-queues every run the database says is unfinished: at
 * start-up and when the queue reconnects. A job id is its run's id, so re-queueing a pending one does nothing.
 */
@Injectable()
export class MeasureRunsRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('MeasureRuns');
  private started = false;

  constructor(
    @Inject(MEASURE_RUN_JOB_QUEUE) private readonly queue: JobQueue<MeasureRunJobData>,
    private readonly processor: MeasureRunsProcessor,
    private readonly runs: MeasureRunsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap() {
    if (PolishRunner.runsInApiProcess(this.config)) await this.start();
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.queue.process((job) => this.processor.process(job));
    void this.resume('start-up');
    this.queue.onReconnect(() => void this.resume('queue reconnected'));
  }

  async resume(reason: string): Promise<number> {
    try {
      const n = await this.runs.resumeUnfinished();
      if (n > 0) this.logger.log(`Queued ${n} unfinished measure run(s) (${reason})`);
      return n;
    } catch (err) {
      this.logger.warn(`Measure run resume (${reason}) failed: ${(err as Error).message}`);
      return 0;
    }
  }

  async onModuleDestroy() {
    this.runs.stop();
    await this.queue.close();
  }
}
