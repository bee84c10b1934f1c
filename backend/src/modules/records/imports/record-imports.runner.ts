import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import { PolishRunner, type JobQueue } from '../../polish';
import { RECORD_IMPORT_JOB_QUEUE, type RecordImportJobData } from './record-imports.constants';
import { RecordImportsProcessor } from './record-imports.processor';
import { RecordImportsService } from './record-imports.service';

/**
 * Consumes the record-import queue where the polish queue is consumed (the API process without Redis or
 * with the embedded database; else `npm run worker`), and re-queues every import the database says is
 * unfinished: at start-up and when the queue reconnects. A job id is its import's id, so re-queueing a
 * pending one does nothing, and an import cut short by a restart resumes at its first uncommitted chunk.
 */
@Injectable()
export class RecordImportsRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('RecordImports');
  private started = false;

  constructor(
    @Inject(RECORD_IMPORT_JOB_QUEUE) private readonly queue: JobQueue<RecordImportJobData>,
    private readonly processor: RecordImportsProcessor,
    private readonly imports: RecordImportsService,
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

  /** Re-queues the unfinished imports; a failure (database or Redis away) waits for the next trigger. */
  async resume(reason: string): Promise<number> {
    try {
      const n = await this.imports.resumeUnfinished();
      if (n > 0) this.logger.log(`Queued ${n} unfinished import(s) (${reason})`);
      return n;
    } catch (err) {
      this.logger.warn(`Import resume (${reason}) failed: ${(err as Error).message}`);
      return 0;
    }
  }

  /** Before the database closes: an active import commits the chunk in hand, then stops until the next start. */
  async onModuleDestroy() {
    this.imports.stop();
    await this.queue.close();
  }
}
