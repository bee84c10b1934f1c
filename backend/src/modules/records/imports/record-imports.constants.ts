export const RECORD_IMPORT_QUEUE = 'record-import';

/** Job names on the record-import queue. */
export const RECORD_IMPORT_JOBS = { import: 'fhir-import' } as const;

/** Only the import's id: the upload waits in the database, so no patient data sits in Redis. */
export interface RecordImportJobData {
  importId: string;
}

export const RECORD_IMPORT_JOB_QUEUE = Symbol('RECORD_IMPORT_JOB_QUEUE');

/**
 * One import at a time per process (validation is CPU-bound); a failed run is retried twice, then the
 * import fails for good and its staging is cleared.
 */
export const RECORD_IMPORT_QUEUE_OPTIONS = { attempts: 3, backoffMs: 1_000, concurrency: 1, keepCompleted: 200, keepFailed: 200 };
