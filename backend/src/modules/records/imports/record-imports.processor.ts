import { Injectable } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import type { QueuedJob } from '../../polish';
import { RECORD_IMPORT_JOBS, RECORD_IMPORT_QUEUE, RECORD_IMPORT_QUEUE_OPTIONS, type RecordImportJobData } from './record-imports.constants';
import { RecordImportsService } from './record-imports.service';

/** Thin: routes each job by name to the service. Both queue drivers call it. */
@Injectable()
export class RecordImportsProcessor {
  constructor(private readonly imports: RecordImportsService) {}

  async process(job: QueuedJob<RecordImportJobData>): Promise<void> {
    switch (job.name) {
      case RECORD_IMPORT_JOBS.import:
        return this.imports.run(job.data.importId, job.attemptsMade + 1 >= RECORD_IMPORT_QUEUE_OPTIONS.attempts);
      default:
        throw new UnrecoverableError(`Unknown job '${job.name}' on ${RECORD_IMPORT_QUEUE}`);
    }
  }
}
