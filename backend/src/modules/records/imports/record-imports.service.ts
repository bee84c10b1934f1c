import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RecordImportInputJson, RecordImportJson, RecordImportRequestJson } from '@cds/contracts';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import { DomainError, notFound, validationFailed } from '../../../common/errors';
import { Page, type ListQuery } from '../../../common/pagination';
import { limitInBytes } from '../../../http/shared';
import type { JobQueue } from '../../polish';
import { chunkLines, readChunk, type NdjsonChunk } from './ndjson';
import { fetchNdjson, ImportSourceError, isAllowedSource } from './import-sources';
import { RECORD_IMPORT_JOB_QUEUE, RECORD_IMPORT_JOBS, type RecordImportJobData } from './record-imports.constants';
import { RecordImportsRepository, type RecordImportRow } from './record-imports.repository';

const toJson = (r: RecordImportRow): RecordImportJson => ({
  id: r.id,
  kind: 'fhir-import',
  status: r.status,
  progress: { done: r.done_lines, total: r.total_lines },
  stored: r.stored,
  invalid: r.invalid,
  errors: r.errors,
  failure: r.failure,
  inputs: r.inputs,
  requested_by: r.requested_by,
  created_at: new Date(r.created_at).toISOString(),
  started_at: r.started_at ? new Date(r.started_at).toISOString() : null,
  finished_at: r.finished_at ? new Date(r.finished_at).toISOString() : null,
});

/**
 * `POST /api/fhir/$import` (issue 21): a panel's NDJSON imported as a background job. The database row is
 * the truth and the queue only triggers it: chunk after chunk is validated and staged (each with its progress
 * in one transaction, so a restart redoes at most one chunk), then one transaction moves every staged
 * resource into the store. A failed import clears its staging: the store is untouched.
 */
@Injectable()
export class RecordImportsService {
  private readonly logger = new Logger('RecordImports');
  private stopping = false;

  constructor(
    private readonly repo: RecordImportsRepository,
    @Inject(RECORD_IMPORT_JOB_QUEUE) private readonly queue: JobQueue<RecordImportJobData>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The upload itself (one resource a line): staged in chunks before the answer, then run in the background. */
  async importUpload(text: string, requestedBy: string | null): Promise<RecordImportJson> {
    const upload = chunkLines(text, this.config.importChunkLines);
    if (!upload.lines) throw validationFailed([{ field: 'body', message: 'The NDJSON body holds no resource' }]);
    return this.started(await this.repo.create(requestedBy, null, upload));
  }

  /** `{ inputFormat, input: [{ type, url }] }`: every URL must be under an allow-listed server, or nothing is fetched. */
  async importFromUrls(request: RecordImportRequestJson, requestedBy: string | null): Promise<RecordImportJson> {
    const inputs = request.input;
    const refused = inputs.filter((i) => !isAllowedSource(i.url, this.config.importAllowedBases));
    if (refused.length) {
      const message = this.config.importAllowedBases.length
        ? `Not under an allow-listed FHIR server (IMPORT_ALLOWED_BASES): ${refused.map((i) => i.url.slice(0, 200)).join(', ')}`
        : 'No FHIR server is allow-listed for imports (IMPORT_ALLOWED_BASES is not set)';
      throw new DomainError(
        'import_source_not_allowed',
        message,
        refused.map((i) => ({ field: `input[${inputs.indexOf(i)}].url`, message: 'not under an allow-listed FHIR server' })),
      );
    }
    return this.started(await this.repo.create(requestedBy, inputs, undefined));
  }

  private async started(row: RecordImportRow): Promise<RecordImportJson> {
    await this.enqueue(row.id);
    return toJson(row);
  }

  /** Queues the import's job (idempotent: the job id is the import's). Without the queue, start-up or a reconnect queues it. */
  async enqueue(id: string): Promise<void> {
    try {
      await this.queue.add(RECORD_IMPORT_JOBS.import, { importId: id }, id);
    } catch (e) {
      this.logger.warn(`Import ${id} stays queued until the job queue is back: ${(e as Error).message}`);
    }
  }

  /**
   * The process is shutting down: a running import stops after the chunk in hand and stays `running`, for
   * the next start-up (or another worker) to resume, instead of holding the shutdown for the rest of a panel.
   */
  stop(): void {
    this.stopping = true;
  }

  /** Queues every import the database says is unfinished (after a restart, or when the queue reconnects). */
  async resumeUnfinished(): Promise<number> {
    const ids = await this.repo.unfinishedIds();
    for (const id of ids) await this.enqueue(id);
    return ids.length;
  }

  async get(id: string): Promise<RecordImportJson> {
    const row = await this.repo.find(id);
    if (!row) throw notFound('Job');
    return toJson(row);
  }

  async list(q: ListQuery): Promise<Page<RecordImportJson>> {
    const { rows, total } = await this.repo.page(q.offset, q.limit);
    return new Page('jobs', rows.map(toJson), total, q.offset);
  }

  /**
   * Runs (or resumes) one import to its end. `lastAttempt`: a failure now is final, so the import is marked
   * failed and its staging cleared; before that, the error is thrown for the queue to retry.
   */
  async run(id: string, lastAttempt: boolean): Promise<void> {
    try {
      await this.runSteps(id);
    } catch (e) {
      const final = lastAttempt || e instanceof ImportSourceError;
      this.logger.warn(`Import ${id} ${final ? 'failed' : 'will be retried'}: ${(e as Error).message}`);
      if (!final) throw e;
      await this.repo.fail(id, e instanceof ImportSourceError ? e.message : `The import stopped: ${(e as Error).message}`);
    }
  }

  private async runSteps(id: string): Promise<void> {
    let row = await this.repo.find(id);
    if (!row || row.status === 'completed' || row.status === 'failed') return;
    await this.repo.markRunning(id);
    if (row.chunks_total === null) {
      await this.repo.stageFetched(id, await this.fetchInputs(row.inputs ?? []));
      row = (await this.repo.find(id))!;
    }
    for (let seq = row.chunks_done; seq < (row.chunks_total ?? 0); seq++) {
      if (this.stopping) return;
      await this.processChunk(id, seq);
    }
    await this.repo.complete(id);
  }

  /** One staged chunk validated and committed with its progress; false when there was none to do. */
  async processChunk(id: string, seq: number): Promise<boolean> {
    const chunk = await this.repo.nextChunk(id, seq);
    if (!chunk) return false;
    const { resources, problems, lines } = readChunk(chunk);
    return this.repo.commitChunk(id, seq, lines, resources, problems);
  }

  /** Every URL input in order, lines numbered across them as one file. */
  private async fetchInputs(inputs: readonly RecordImportInputJson[]): Promise<{ chunks: NdjsonChunk[]; lines: number }> {
    const maxBytes = limitInBytes(this.config.importBodyLimit);
    const chunks: NdjsonChunk[] = [];
    let lines = 0;
    for (const input of inputs) {
      const text = await fetchNdjson(input.url, this.config.importAllowedBases, maxBytes);
      const part = chunkLines(text, this.config.importChunkLines, chunks.length, lines + 1);
      chunks.push(...part.chunks);
      lines += part.lines;
    }
    return { chunks, lines };
  }
}
