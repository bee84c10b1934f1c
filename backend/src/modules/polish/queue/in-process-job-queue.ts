import { UnrecoverableError } from 'bullmq';
import {
  backoffDelay,
  silentLogger,
  type AddResult,
  type JobCounts,
  type JobProcessor,
  type JobQueue,
  type JobQueueOptions,
  type JobState,
  type QueueLogger,
} from './job-queue';

interface JobRecord<T> {
  id: string;
  name: string;
  data: T;
  state: Exclude<JobState, 'unknown'>;
  attemptsMade: number;
  timer?: NodeJS.Timeout;
}

const PENDING: ReadonlySet<JobState> = new Set(['waiting', 'delayed', 'active']);

export function isUnrecoverable(err: unknown): boolean {
  return err instanceof UnrecoverableError || (err as Error | undefined)?.name === 'UnrecoverableError';
}

/**
 * Runs jobs inside this process, with BullMQ's semantics: id de-duplication, attempts,
 * exponential backoff, UnrecoverableError, bounded history. Jobs live in memory only, so
 * a restart loses the pending ones; the polish module re-queues whatever is still
 * unpolished when it starts.
 */
export class InProcessJobQueue<T> implements JobQueue<T> {
  readonly driver = 'in-process' as const;
  private readonly jobs = new Map<string, JobRecord<T>>();
  private readonly ready: string[] = [];
  private readonly finished: Record<'completed' | 'failed', string[]> = { completed: [], failed: [] };
  private processor?: JobProcessor<T>;
  private active = 0;
  private closing = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    readonly name: string,
    private readonly opts: JobQueueOptions,
    private readonly logger: QueueLogger = silentLogger,
  ) {}

  async add(name: string, data: T, jobId: string): Promise<AddResult> {
    if (this.closing) throw new Error(`Queue ${this.name} is closed`);
    const existing = this.jobs.get(jobId);
    if (existing && PENDING.has(existing.state)) return { id: jobId, added: false };
    if (existing) this.forgetFinished(existing);
    // Jobs cross a serialisation boundary in BullMQ; copying here keeps the two drivers honest.
    const record: JobRecord<T> = { id: jobId, name, data: JSON.parse(JSON.stringify(data)) as T, state: 'waiting', attemptsMade: 0 };
    this.jobs.set(jobId, record);
    this.ready.push(jobId);
    this.schedulePump();
    return { id: jobId, added: true };
  }

  async process(processor: JobProcessor<T>): Promise<void> {
    if (this.processor) throw new Error(`Queue ${this.name} already has a processor`);
    this.processor = processor;
    this.schedulePump();
  }

  async counts(): Promise<JobCounts> {
    const counts: JobCounts = { waiting: 0, active: 0, completed: 0, failed: 0, delayed: 0 };
    for (const job of this.jobs.values()) counts[job.state] += 1;
    return counts;
  }

  async state(jobId: string): Promise<JobState> {
    return this.jobs.get(jobId)?.state ?? 'unknown';
  }

  async isHealthy(): Promise<boolean> {
    return !this.closing;
  }

  /** In memory: there is no connection to lose. */
  onReconnect(): void {}

  async close(): Promise<void> {
    if (this.closing) return this.whenIdle();
    this.closing = true;
    let dropped = 0;
    for (const job of this.jobs.values()) {
      if (job.timer) {
        clearTimeout(job.timer);
        dropped += 1;
      }
    }
    dropped += this.ready.length;
    if (dropped > 0) this.logger.warn(`Queue ${this.name}: ${dropped} pending job(s) dropped at shutdown`);
    await this.whenIdle();
  }

  private whenIdle(): Promise<void> {
    return this.active === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  // Asynchronous like a real queue: add() returns before the job starts.
  private schedulePump() {
    setImmediate(() => this.pump());
  }

  private pump() {
    while (this.processor && !this.closing && this.active < this.opts.concurrency && this.ready.length > 0) {
      const job = this.jobs.get(this.ready.shift()!);
      if (job?.state === 'waiting') void this.run(job, this.processor);
    }
  }

  private async run(job: JobRecord<T>, processor: JobProcessor<T>) {
    job.state = 'active';
    this.active += 1;
    try {
      await processor({ id: job.id, name: job.name, data: JSON.parse(JSON.stringify(job.data)) as T, attemptsMade: job.attemptsMade });
      job.attemptsMade += 1;
      this.finish(job, 'completed');
    } catch (err) {
      job.attemptsMade += 1;
      const message = err instanceof Error ? err.message : String(err);
      if (isUnrecoverable(err) || job.attemptsMade >= this.opts.attempts || this.closing) {
        this.logger.warn(`Job ${job.name} ${job.id} failed after ${job.attemptsMade} attempt(s): ${message}`);
        this.finish(job, 'failed');
      } else {
        job.state = 'delayed';
        job.timer = setTimeout(
          () => {
            job.timer = undefined;
            job.state = 'waiting';
            this.ready.push(job.id);
            this.pump();
          },
          backoffDelay(this.opts.backoffMs, job.attemptsMade),
        );
        job.timer.unref();
      }
    } finally {
      this.active -= 1;
      if (this.active === 0 && this.closing) this.idleWaiters.splice(0).forEach((resolve) => resolve());
      this.pump();
    }
  }

  private forgetFinished(job: JobRecord<T>) {
    if (job.state !== 'completed' && job.state !== 'failed') return;
    const list = this.finished[job.state];
    const at = list.indexOf(job.id);
    if (at >= 0) list.splice(at, 1);
  }

  private finish(job: JobRecord<T>, state: 'completed' | 'failed') {
    job.state = state;
    const list = this.finished[state];
    list.push(job.id);
    const keep = state === 'completed' ? this.opts.keepCompleted : this.opts.keepFailed;
    while (list.length > keep) {
      const id = list.shift()!;
      if (this.jobs.get(id)?.state === state) this.jobs.delete(id);
    }
  }
}
