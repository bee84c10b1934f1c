export const POLISH_QUEUE = 'question-polish';

/** Job names on the question-polish queue. */
export const POLISH_JOBS = { parameter: 'polish-parameter' } as const;

/** Only ids: the processor reloads the parameter, so no clinical or patient text sits in Redis. */
export interface PolishJobData {
  parameterId: string;
  inputHash: string;
}

export const POLISH_JOB_QUEUE = Symbol('POLISH_JOB_QUEUE');

export const POLISH_QUEUE_OPTIONS = { attempts: 3, backoffMs: 5_000, concurrency: 4, keepCompleted: 1_000, keepFailed: 1_000 };
