import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { MeasureRunStatus } from '@cds/contracts';

export interface MeasureRunRow {
  id: string;
  status: MeasureRunStatus;
  measure_ids: string[];
  period_start: string;
  period_end: string;
  trend: boolean;
  requested_by: string | null;
  total: number | null;
  done: number;
  evaluated: number;
  /** The last patient id gone through (patients are taken in id order); null before the first chunk. */
  cursor: string | null;
  failure: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const COLUMNS = `id, status, measure_ids, to_char(period_start, 'YYYY-MM-DD') AS period_start, to_char(period_end, 'YYYY-MM-DD') AS period_end,
  trend, requested_by, total, done, evaluated, cursor, failure, created_at, started_at, finished_at`;

/** `measure_runs` (the only SQL of population runs' bookkeeping). */
@Injectable()
export class MeasureRunsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async create(
    requestedBy: string | null,
    measureIds: readonly string[],
    period: { start: string; end: string },
    trend: boolean,
  ): Promise<MeasureRunRow> {
    const [row]: MeasureRunRow[] = await this.db.query(
      `INSERT INTO measure_runs (requested_by, measure_ids, period_start, period_end, trend) VALUES ($1, $2::text[], $3, $4, $5) RETURNING ${COLUMNS}`,
      [requestedBy, measureIds, period.start, period.end, trend],
    );
    return row;
  }

  async find(id: string): Promise<MeasureRunRow | null> {
    const rows: MeasureRunRow[] = await this.db.query(`SELECT ${COLUMNS} FROM measure_runs WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  async page(offset: number, limit: number): Promise<{ rows: MeasureRunRow[]; total: number }> {
    const rows: MeasureRunRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM measure_runs ORDER BY created_at DESC, id LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    const [{ n }]: { n: number }[] = await this.db.query(`SELECT count(*)::int AS n FROM measure_runs`);
    return { rows, total: n };
  }

  /** Runs a restart must take up again: the database, not the queue, says what is unfinished. */
  async unfinishedIds(): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id FROM measure_runs WHERE status IN ('queued', 'running') ORDER BY created_at`,
    );
    return rows.map((r) => r.id);
  }

  /** Running, with the panel's size counted once (the first start; a resumed run keeps its count). */
  async markRunning(id: string, patients: number): Promise<void> {
    await this.db.query(
      `UPDATE measure_runs SET status = 'running', started_at = coalesce(started_at, now()), total = coalesce(total, $2)
        WHERE id = $1 AND status IN ('queued', 'running')`,
      [id, patients],
    );
  }

  /**
   * One chunk's progress: false when another run of this job already moved past it (the cursor guard),
   * so nothing is counted twice. A panel that grew while the run went on grows its total.
   */
  async advance(id: string, from: string | null, to: string, patients: number, evaluated: number): Promise<boolean> {
    const moved: unknown[] = await this.db.query(
      `WITH moved AS (UPDATE measure_runs SET cursor = $3, done = done + $4, evaluated = evaluated + $5, total = greatest(total, done + $4)
         WHERE id = $1 AND cursor IS NOT DISTINCT FROM $2::text AND status = 'running' RETURNING id) SELECT id FROM moved`,
      [id, from, to, patients, evaluated],
    );
    return moved.length > 0;
  }

  async complete(id: string): Promise<void> {
    await this.db.query(
      `UPDATE measure_runs SET status = 'completed', total = done, finished_at = now() WHERE id = $1 AND status = 'running'`,
      [id],
    );
  }

  async fail(id: string, reason: string): Promise<void> {
    await this.db.query(
      `UPDATE measure_runs SET status = 'failed', failure = $2, finished_at = now() WHERE id = $1 AND status IN ('queued', 'running')`,
      [id, reason.slice(0, 1000)],
    );
  }
}
