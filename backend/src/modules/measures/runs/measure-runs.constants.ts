export const MEASURE_RUN_QUEUE = 'measure-run';

/** Job names on the measure-run queue. */
export const MEASURE_RUN_JOBS = { run: 'measure-run' } as const;

/** Only the run's id: the run's row is the truth, so no patient data sits in Redis. */
export interface MeasureRunJobData {
  runId: string;
}

export const MEASURE_RUN_JOB_QUEUE = Symbol('MEASURE_RUN_JOB_QUEUE');

/** One run at a time per process (evaluation is CPU-bound); a failed run is retried twice, then fails for good. */
export const MEASURE_RUN_QUEUE_OPTIONS = { attempts: 3, backoffMs: 1_000, concurrency: 1, keepCompleted: 200, keepFailed: 200 };
