import { Queue, Worker, type JobState as BullJobState } from 'bullmq';
import IORedis from 'ioredis';
import {
  silentLogger,
  type AddResult,
  type JobCounts,
  type JobProcessor,
  type JobQueue,
  type JobQueueOptions,
  type JobState,
  type QueueLogger,
} from './job-queue';

export interface BullmqConnection {
  url: string;
  prefix: string;
  /** Stalled-job check interval, also used as the lock duration: a dead worker's job is retaken after about two of these. */
  stalledIntervalMs: number;
}

const STATE: Partial<Record<BullJobState | 'unknown', JobState>> = {
  waiting: 'waiting',
  prioritized: 'waiting',
  'waiting-children': 'waiting',
  delayed: 'delayed',
  active: 'active',
  completed: 'completed',
  failed: 'failed',
};

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} timed out`)), ms).unref())]);
}

/** The production driver: jobs persist in Redis and survive any process; workers scale out. */
export class BullmqJobQueue<T> implements JobQueue<T> {
  readonly driver = 'bullmq' as const;
  readonly queue: Queue<T>;
  private readonly producerConnection: IORedis;
  private workerConnection?: IORedis;
  private worker?: Worker<T>;
  private readonly concurrency: number;
  private closed = false;
  private readonly reconnectListeners: (() => void)[] = [];

  constructor(
    readonly name: string,
    private readonly connection: BullmqConnection,
    opts: JobQueueOptions,
    private readonly logger: QueueLogger = silentLogger,
  ) {
    // Producers fail fast so a Redis outage never hangs an HTTP request.
    this.producerConnection = new IORedis(connection.url, { maxRetriesPerRequest: 1, connectTimeout: 3000 });
    this.producerConnection.on('error', () => undefined);
    // ioredis reconnects by itself; a 'ready' after a 'close' is the connection coming back.
    let lost = false;
    this.producerConnection.on('close', () => (lost = true));
    this.producerConnection.on('ready', () => {
      if (!lost || this.closed) return;
      lost = false;
      for (const listener of this.reconnectListeners) listener();
    });
    this.queue = new Queue<T>(name, {
      connection: this.producerConnection,
      prefix: connection.prefix,
      defaultJobOptions: {
        attempts: opts.attempts,
        backoff: { type: 'exponential', delay: opts.backoffMs },
        removeOnComplete: { count: opts.keepCompleted },
        removeOnFail: { count: opts.keepFailed },
      },
    });
    this.queue.on('error', (err) => this.logger.warn(`Queue ${name}: ${err.message}`));
    this.concurrency = opts.concurrency;
  }

  /** The producer's Redis connection, for small needs beside the queue (one-time tokens). */
  get redis(): IORedis {
    return this.producerConnection;
  }

  async add(name: string, data: T, jobId: string): Promise<AddResult> {
    return withTimeout(this.addNow(name, data, jobId), 5000, `Adding job ${jobId}`);
  }

  private async addNow(name: string, data: T, jobId: string): Promise<AddResult> {
    const existing = await this.queue.getJobState(jobId);
    if (existing === 'completed' || existing === 'failed') await this.queue.remove(jobId);
    else if (existing !== 'unknown') return { id: jobId, added: false };
    // BullMQ itself ignores an add whose id is taken, which covers a concurrent add between the two calls.
    const job = await this.queue.add(name as never, data as never, { jobId });
    return { id: job.id ?? jobId, added: true };
  }

  async process(processor: JobProcessor<T>): Promise<void> {
    if (this.worker) throw new Error(`Queue ${this.name} already has a processor`);
    // Workers block on Redis and must retry forever (BullMQ requires maxRetriesPerRequest: null).
    this.workerConnection = new IORedis(this.connection.url, { maxRetriesPerRequest: null });
    this.workerConnection.on('error', () => undefined);
    this.worker = new Worker<T>(
      this.name,
      (job) => processor({ id: job.id!, name: job.name, data: job.data, attemptsMade: job.attemptsMade }),
      {
        connection: this.workerConnection,
        prefix: this.connection.prefix,
        concurrency: this.concurrency,
        stalledInterval: this.connection.stalledIntervalMs,
        lockDuration: this.connection.stalledIntervalMs,
        maxStalledCount: 2,
      },
    );
    this.worker.on('error', (err) => this.logger.warn(`Worker ${this.name}: ${err.message}`));
    this.worker.on('failed', (job, err) => {
      if (job) this.logger.warn(`Job ${job.name} ${job.id} attempt ${job.attemptsMade} failed: ${err.message}`);
    });
    await this.worker.waitUntilReady();
  }

  async counts(): Promise<JobCounts> {
    const c = await withTimeout(
      this.queue.getJobCounts('waiting', 'prioritized', 'active', 'completed', 'failed', 'delayed'),
      5000,
      'Counting jobs',
    );
    return {
      waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
      active: c.active ?? 0,
      completed: c.completed ?? 0,
      failed: c.failed ?? 0,
      delayed: c.delayed ?? 0,
    };
  }

  async state(jobId: string): Promise<JobState> {
    return STATE[await this.queue.getJobState(jobId)] ?? 'unknown';
  }

  async isHealthy(): Promise<boolean> {
    try {
      return (await withTimeout(this.producerConnection.ping(), 2000, 'Redis ping')) === 'PONG';
    } catch {
      return false;
    }
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Worker.close() lets the active jobs finish first.
    await this.worker?.close();
    await this.queue.close();
    await Promise.all([this.producerConnection, this.workerConnection].map((c) => c?.quit().catch(() => c.disconnect())));
  }
}
