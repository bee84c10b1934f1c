import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { POLISH_JOB_QUEUE, type PolishJobData } from './polish.constants';
import { PolishProcessor } from './polish.processor';
import { PolishService } from './polish.service';
import type { JobQueue } from './queue/job-queue';
import { QueueConsumer } from './queue/queue-consumer';

/**
 * Consumes the question-polish queue in this process (see QueueConsumer for which process). Its catch-up
 * queues whatever was missed: jobs lost with an in-process runner, parameters older than this feature, and
 * parameters saved while Redis was away (their save could not queue a job): at start, when the queue's
 * connection comes back, and every POLISH_SWEEP_INTERVAL_MS.
 */
@Injectable()
export class PolishRunner extends QueueConsumer<PolishJobData> {
  constructor(
    @Inject(POLISH_JOB_QUEUE) queue: JobQueue<PolishJobData>,
    processor: PolishProcessor,
    polish: PolishService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(queue, config, new Logger('PolishRunner'), {
      process: (job) => processor.process(job),
      catchUp: () => polish.sweep(),
      queued: (n, reason) => `Queued ${n} parameter(s) whose question was missing or out of date (${reason})`,
      intervalMs: config.polishSweepIntervalMs,
    });
  }
}
