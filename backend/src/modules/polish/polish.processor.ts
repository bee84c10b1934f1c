import { Injectable } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { POLISH_JOBS, POLISH_QUEUE, type PolishJobData } from './polish.constants';
import { PolishService, type PolishOutcome } from './polish.service';
import type { QueuedJob } from './queue/job-queue';

/** Thin: routes each job by name to the service. Both queue drivers call it. */
@Injectable()
export class PolishProcessor {
  constructor(private readonly polish: PolishService) {}

  async process(job: QueuedJob<PolishJobData>): Promise<PolishOutcome> {
    switch (job.name) {
      case POLISH_JOBS.parameter:
        return this.polish.polishStoredParameter(job.data);
      default:
        throw new UnrecoverableError(`Unknown job '${job.name}' on ${POLISH_QUEUE}`);
    }
  }
}
