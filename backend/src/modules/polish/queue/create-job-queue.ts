import type { AppConfig } from '../../../config/app-config';
import { BullmqJobQueue } from './bullmq-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import type { JobQueue, JobQueueOptions, QueueLogger } from './job-queue';

/** BullMQ when REDIS_URL is set, the in-process runner otherwise. */
export function createJobQueue<T>(config: AppConfig, name: string, opts: JobQueueOptions, logger?: QueueLogger): JobQueue<T> {
  if (config.redisUrl) {
    return new BullmqJobQueue<T>(
      name,
      { url: config.redisUrl, prefix: config.queue.prefix, stalledIntervalMs: config.queue.stalledIntervalMs },
      opts,
      logger,
    );
  }
  return new InProcessJobQueue<T>(name, opts, logger);
}
