import { Injectable } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import type { QueuedJob } from '../../polish';
import { MEASURE_RUN_JOBS, MEASURE_RUN_QUEUE, MEASURE_RUN_QUEUE_OPTIONS, type MeasureRunJobData } from './measure-runs.constants';
import { MeasureRunsService } from './measure-runs.service';

/** Thin: routes each job by name to the service. Both queue drivers call it. */
@Injectable()
export class MeasureRunsProcessor {
  constructor(private readonly runs: MeasureRunsService) {}

  async process(job: QueuedJob<MeasureRunJobData>): Promise<void> {
    switch (job.name) {
      case MEASURE_RUN_JOBS.run:
        return this.runs.run(job.data.runId, job.attemptsMade + 1 >= MEASURE_RUN_QUEUE_OPTIONS.attempts);
      default:
        throw new UnrecoverableError(`Unknown job '${job.name}' on ${MEASURE_RUN_QUEUE}`);
    }
  }
}
