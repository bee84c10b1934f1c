import { Inject, Injectable, Logger } from '@nestjs/common';
import type { MeasureRunJson } from '@cds/contracts';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import { DomainError, notFound } from '../../../common/errors';
import { Page, type ListQuery } from '../../../common/pagination';
import type { JobQueue } from '../../polish';
import { RecordsRepository } from '../../records';
import { MeasuresService, trendMonths } from '../measures.service';
import type { MeasureRunRequest } from './run-request.pipe';
import { MEASURE_RUN_JOB_QUEUE, MEASURE_RUN_JOBS, type MeasureRunJobData } from './measure-runs.constants';
import { MeasureRunsRepository, type MeasureRunRow } from './measure-runs.repository';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const toJson = (r: MeasureRunRow): MeasureRunJson => ({
  id: r.id,
  kind: 'measure-run',
  status: r.status,
  measure_ids: r.measure_ids,
  period: { start: r.period_start, end: r.period_end },
  trend: r.trend,
  progress: { done: r.done, total: r.total },
  evaluated: r.evaluated,
  failure: r.failure,
  requested_by: r.requested_by,
  created_at: new Date(r.created_at).toISOString(),
  started_at: iso(r.started_at),
  finished_at: iso(r.finished_at),
});

/**
 * Population runs (issue 21): the shipped measures over every patient, as a background job. The run's row is
 * the truth and the queue only triggers it. Patients are taken in id order, a chunk at a time: the ones whose
 * stored result is current are skipped, the others evaluated and stored, and the progress moved on past the
 * chunk. A restart resumes after the last chunk committed.
 */
@Injectable()
export class MeasureRunsService {
  private readonly logger = new Logger('MeasureRuns');
  private stopping = false;

  constructor(
    private readonly repo: MeasureRunsRepository,
    private readonly measures: MeasuresService,
    private readonly records: RecordsRepository,
    @Inject(MEASURE_RUN_JOB_QUEUE) private readonly queue: JobQueue<MeasureRunJobData>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Starts a run: the measures' value sets must be loaded (409 otherwise, as for $evaluate-measure). */
  async start(request: MeasureRunRequest, requestedBy: string | null): Promise<MeasureRunJson> {
    const { measure_ids: measureIds, trend } = request;
    const period = { start: request.period_start, end: request.period_end };
    await this.measures.prepare(await this.measures.measuresOf(measureIds));
    const row = await this.repo.create(requestedBy, measureIds, period, trend);
    await this.enqueue(row.id);
    return toJson(row);
  }

  async get(id: string): Promise<MeasureRunJson> {
    const row = await this.repo.find(id);
    if (!row) throw notFound('Measure run');
    return toJson(row);
  }

  async list(q: ListQuery): Promise<Page<MeasureRunJson>> {
    const { rows, total } = await this.repo.page(q.offset, q.limit);
    return new Page('measure-runs', rows.map(toJson), total, q.offset);
  }

  /** Queues the run's job (idempotent: the job id is the run's). Without the queue, start-up or a reconnect queues it. */
  async enqueue(id: string): Promise<void> {
    try {
      await this.queue.add(MEASURE_RUN_JOBS.run, { runId: id }, id);
    } catch (e) {
      this.logger.warn(`Measure run ${id} stays queued until the job queue is back: ${(e as Error).message}`);
    }
  }

  /** Shutting down: a running run stops after the chunk in hand and stays `running`, for the next start to resume. */
  stop(): void {
    this.stopping = true;
  }

  async resumeUnfinished(): Promise<number> {
    const ids = await this.repo.unfinishedIds();
    for (const id of ids) await this.enqueue(id);
    return ids.length;
  }

  /** Runs (or resumes) one run to its end; on the last attempt a failure is final and recorded. */
  async run(id: string, lastAttempt: boolean): Promise<void> {
    try {
      await this.runSteps(id);
    } catch (e) {
      this.logger.warn(`Measure run ${id} ${lastAttempt ? 'failed' : 'will be retried'}: ${(e as Error).message}`);
      if (!lastAttempt) throw e;
      await this.repo.fail(id, e instanceof DomainError ? e.message : `The run stopped: ${(e as Error).message}`);
    }
  }

  private async runSteps(id: string): Promise<void> {
    let row = await this.repo.find(id);
    if (!row || row.status === 'completed' || row.status === 'failed') return;
    // Each step reads the measures as published now: a publish during a run stores the later chunks under the new
    // version, and the earlier ones go stale with the old version, as any stored result of it does.
    const set = await this.measures.prepare(await this.measures.measuresOf(row.measure_ids));
    // The trend's months are those of the day the run was started, so a resumed run stores the same ones.
    const periods = [
      { start: row.period_start, end: row.period_end },
      ...(row.trend ? trendMonths(new Date(row.created_at)).map((m) => m.period) : []),
    ].filter((p, i, all) => all.findIndex((q) => q.start === p.start && q.end === p.end) === i);
    await this.repo.markRunning(id, (await this.records.patientIds()).length);
    row = (await this.repo.find(id))!;
    let cursor = row.cursor;
    for (;;) {
      if (this.stopping) return;
      const ids = await this.records.patientsAfter(cursor, this.config.measureRunChunkPatients);
      if (!ids.length) break;
      const stale = await this.measures.staleAmong(set, periods, ids);
      await this.measures.evaluateAndStore(set, periods, stale);
      if (!(await this.repo.advance(id, cursor, ids[ids.length - 1], ids.length, stale.length))) return; // another run of this job went on
      cursor = ids[ids.length - 1];
    }
    await this.measures.dropOtherVersions(set, periods);
    await this.repo.complete(id);
  }
}
