import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { RecordImportInputJson, RecordImportStatus } from '@cds/contracts';
import type { ImportedResource, LineProblem, NdjsonChunk } from './ndjson';

/** Problems kept per import (the count goes on). */
export const MAX_KEPT_ERRORS = 100;

export interface RecordImportRow {
  id: string;
  status: RecordImportStatus;
  requested_by: string | null;
  inputs: RecordImportInputJson[] | null;
  total_lines: number | null;
  chunks_total: number | null;
  chunks_done: number;
  done_lines: number;
  stored: number;
  invalid: number;
  errors: LineProblem[];
  failure: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const COLUMNS = `id, status, requested_by, inputs, total_lines, chunks_total, chunks_done, done_lines, stored, invalid, errors, failure,
  created_at, started_at, finished_at`;

/** `record_imports` and their staging (the only SQL of $import). */
@Injectable()
export class RecordImportsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A new import, with its upload already split into chunks when it came in the request (one transaction). */
  async create(requestedBy: string | null, inputs: RecordImportInputJson[] | null, upload?: { chunks: NdjsonChunk[]; lines: number }) {
    return this.db.transaction(async (m) => {
      const [row]: RecordImportRow[] = await m.query(
        `INSERT INTO record_imports (requested_by, inputs, total_lines, chunks_total) VALUES ($1, $2::jsonb, $3, $4) RETURNING ${COLUMNS}`,
        [requestedBy, inputs ? JSON.stringify(inputs) : null, upload?.lines ?? null, upload?.chunks.length ?? null],
      );
      if (upload) await this.insertChunks(m, row.id, upload.chunks);
      return row;
    });
  }

  private async insertChunks(m: EntityManager, importId: string, chunks: readonly NdjsonChunk[]): Promise<void> {
    // A few hundred chunks per statement keeps each parameter array well inside the driver's limits.
    for (let i = 0; i < chunks.length; i += 200) {
      const part = chunks.slice(i, i + 200);
      await m.query(
        `INSERT INTO record_import_chunks (import_id, seq, first_line, lines)
         SELECT $1, s, f, l FROM unnest($2::int[], $3::int[], $4::text[]) AS u(s, f, l)`,
        [importId, part.map((c) => c.seq), part.map((c) => c.first_line), part.map((c) => c.lines)],
      );
    }
  }

  /** The fetched inputs, staged at once with their line count (a restart before this commit fetches again). */
  async stageFetched(importId: string, upload: { chunks: NdjsonChunk[]; lines: number }): Promise<void> {
    await this.db.transaction(async (m) => {
      await m.query(`DELETE FROM record_import_chunks WHERE import_id = $1`, [importId]);
      await this.insertChunks(m, importId, upload.chunks);
      await m.query(`UPDATE record_imports SET total_lines = $2, chunks_total = $3 WHERE id = $1`, [
        importId,
        upload.lines,
        upload.chunks.length,
      ]);
    });
  }

  async find(id: string): Promise<RecordImportRow | null> {
    const rows: RecordImportRow[] = await this.db.query(`SELECT ${COLUMNS} FROM record_imports WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  async page(offset: number, limit: number): Promise<{ rows: RecordImportRow[]; total: number }> {
    const rows: RecordImportRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM record_imports ORDER BY created_at DESC, id LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    const [{ n }]: { n: number }[] = await this.db.query(`SELECT count(*)::int AS n FROM record_imports`);
    return { rows, total: n };
  }

  /** Imports a restart must take up again: the database, not the queue, says what is unfinished. */
  async unfinishedIds(): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id FROM record_imports WHERE status IN ('queued', 'running') ORDER BY created_at`,
    );
    return rows.map((r) => r.id);
  }

  async markRunning(id: string): Promise<void> {
    await this.db.query(
      `UPDATE record_imports SET status = 'running', started_at = coalesce(started_at, now()) WHERE id = $1 AND status IN ('queued', 'running')`,
      [id],
    );
  }

  async nextChunk(id: string, seq: number): Promise<NdjsonChunk | null> {
    const rows: NdjsonChunk[] = await this.db.query(
      `SELECT seq, first_line, lines FROM record_import_chunks WHERE import_id = $1 AND seq = $2`,
      [id, seq],
    );
    return rows[0] ?? null;
  }

  /**
   * One chunk's resources staged and the progress moved on, in one transaction; false when another run
   * already committed this chunk (the progress guard), so nothing is counted twice.
   */
  async commitChunk(id: string, seq: number, lines: number, resources: readonly ImportedResource[], problems: readonly LineProblem[]) {
    return this.db.transaction(async (m) => {
      // As a SELECT: TypeORM answers an UPDATE with [rows, count], whatever it returned.
      const moved: unknown[] = await m.query(
        `WITH moved AS (UPDATE record_imports SET chunks_done = chunks_done + 1, done_lines = done_lines + $3, invalid = invalid + $4,
           errors = CASE WHEN jsonb_array_length(errors) >= ${MAX_KEPT_ERRORS} THEN errors
                         ELSE errors || (SELECT coalesce(jsonb_agg(e), '[]'::jsonb) FROM (SELECT e FROM jsonb_array_elements($5::jsonb) e
                                         LIMIT ${MAX_KEPT_ERRORS} - jsonb_array_length(errors)) x) END
         WHERE id = $1 AND chunks_done = $2 AND status = 'running' RETURNING id) SELECT id FROM moved`,
        [id, seq, lines, problems.length, JSON.stringify(problems)],
      );
      if (!moved.length) return false;
      if (resources.length)
        await m.query(
          `INSERT INTO record_import_resources (import_id, resource_type, id, patient_id, resource)
           SELECT $1, t, i, p, r::jsonb FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS u(t, i, p, r)
           ON CONFLICT (import_id, resource_type, id) DO UPDATE SET resource = EXCLUDED.resource, patient_id = EXCLUDED.patient_id`,
          [
            id,
            resources.map((r) => r.resource_type),
            resources.map((r) => r.id),
            resources.map((r) => r.patient_id),
            resources.map((r) => JSON.stringify(r.resource)),
          ],
        );
      return true;
    });
  }

  /**
   * Every staged resource into the store at once, with `POST /api/fhir`'s upsert (a resource already
   * stored is replaced and its version moves on), the staging cleared and the import completed: all or nothing.
   */
  async complete(id: string): Promise<boolean> {
    return this.db.transaction(async (m) => {
      const locked: unknown[] = await m.query(`SELECT id FROM record_imports WHERE id = $1 AND status = 'running' FOR UPDATE`, [id]);
      if (!locked.length) return false;
      const stored: unknown[] = await m.query(
        `INSERT INTO fhir_resources (resource_type, id, patient_id, resource)
         SELECT resource_type, id, patient_id, resource FROM record_import_resources WHERE import_id = $1
         ON CONFLICT (resource_type, id) DO UPDATE
           SET resource = EXCLUDED.resource, patient_id = EXCLUDED.patient_id,
               version_id = fhir_resources.version_id + 1, last_updated = now()
         RETURNING id`,
        [id],
      );
      await m.query(`DELETE FROM record_import_resources WHERE import_id = $1`, [id]);
      await m.query(`DELETE FROM record_import_chunks WHERE import_id = $1`, [id]);
      await m.query(`UPDATE record_imports SET status = 'completed', stored = $2, finished_at = now() WHERE id = $1`, [id, stored.length]);
      return true;
    });
  }

  /** Failed for good: the staging is cleared and the store was never touched. */
  async fail(id: string, reason: string): Promise<void> {
    await this.db.transaction(async (m) => {
      await m.query(`DELETE FROM record_import_resources WHERE import_id = $1`, [id]);
      await m.query(`DELETE FROM record_import_chunks WHERE import_id = $1`, [id]);
      await m.query(
        `UPDATE record_imports SET status = 'failed', failure = $2, finished_at = now() WHERE id = $1 AND status IN ('queued', 'running')`,
        [id, reason.slice(0, 1000)],
      );
    });
  }
}
