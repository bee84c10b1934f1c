import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import { QueueConsumer, type JobQueue } from '../../polish';
import { RECORD_IMPORT_JOB_QUEUE, type RecordImportJobData } from './record-imports.constants';
import { RecordImportsProcessor } from './record-imports.processor';
import { RecordImportsService } from './record-imports.service';

/**
 * Consumes the record-import queue where the polish queue is consumed (QueueConsumer), and re-queues every
 * import the database says is unfinished: at start-up and when the queue reconnects. A job id is its import's
 * id, so re-queueing a pending one does nothing, and an import cut short by a restart resumes at its first
 * uncommitted chunk.
 */
@Injectable()
export class RecordImportsRunner extends QueueConsumer<RecordImportJobData> {
  constructor(
    @Inject(RECORD_IMPORT_JOB_QUEUE) queue: JobQueue<RecordImportJobData>,
    processor: RecordImportsProcessor,
    private readonly imports: RecordImportsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(queue, config, new Logger('RecordImports'), {
      process: (job) => processor.process(job),
      catchUp: () => imports.resumeUnfinished(),
      queued: (n, reason) => `Queued ${n} unfinished import(s) (${reason})`,
    });
  }

  /** Re-queues the unfinished imports now; the number queued. */
  resume(reason: string): Promise<number> {
    return this.catchUp(reason);
  }

  /** Before the database closes: an active import commits the chunk in hand, then stops until the next start. */
  override async onModuleDestroy() {
    this.imports.stop();
    await super.onModuleDestroy();
  }
}
