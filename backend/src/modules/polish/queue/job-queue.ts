/**
 * The one job-queue contract, with two drivers: BullMQ on Redis, and an in-process runner
 * for the one-command embedded mode. Both pass the same contract suite
 * (test/api/queue-contract.e2e-spec.ts).
 */
export type QueueDriver = 'bullmq' | 'in-process';

export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed' | 'unknown';

export interface JobCounts {
  waiting: number;
  active: number;
  completed: number;
  failed: number;
  delayed: number;
}

/** What a processor sees of a job, whichever driver runs it. */
export interface QueuedJob<T> {
  id: string;
  name: string;
  data: T;
  /** Attempts already finished before this one (0 on the first run). */
  attemptsMade: number;
}

export type JobProcessor<T> = (job: QueuedJob<T>) => Promise<unknown>;

export interface AddResult {
  id: string;
  /** False when a job with this id was already waiting, delayed or active: nothing new was queued. */
  added: boolean;
}

export interface JobQueueOptions {
  /** Runs per job, counting the first. */
  attempts: number;
  /** First retry delay; each next retry waits twice as long (exponential backoff). */
  backoffMs: number;
  concurrency: number;
  /** Finished jobs kept for the dashboard and the counts. */
  keepCompleted: number;
  keepFailed: number;
}

export interface JobQueue<T> {
  readonly driver: QueueDriver;
  readonly name: string;
  /**
   * Queues a job under a caller-chosen id. While a job with that id is pending (waiting,
   * delayed, active) the call is a no-op; a finished one with that id is replaced, so the
   * same input can be processed again later.
   */
  add(name: string, data: T, jobId: string): Promise<AddResult>;
  /** Starts consuming in this process. Call once. */
  process(processor: JobProcessor<T>): Promise<void>;
  counts(): Promise<JobCounts>;
  state(jobId: string): Promise<JobState>;
  isHealthy(): Promise<boolean>;
  /**
   * Calls `listener` each time the queue's connection comes back after it was lost (never for
   * the first connection). Jobs that could not be queued meanwhile are the caller's to re-add.
   */
  onReconnect(listener: () => void): void;
  /** Stops taking jobs and waits for the active ones to finish. */
  close(): Promise<void>;
}

/** Logs without a hard dependency on Nest, so the drivers also run outside an app. */
export interface QueueLogger {
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: QueueLogger = { warn: () => undefined, error: () => undefined };

/** Same formula as BullMQ's built-in 'exponential' backoff. */
export function backoffDelay(baseMs: number, attemptsMade: number): number {
  return Math.round(baseMs * 2 ** Math.max(0, attemptsMade - 1));
}
