import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { PanelHba1cBand } from '@cds/contracts';
import type { Answers, MeasureOutcome } from '@cds/engine';

/** One patient's stored result on one measure version for one period. */
export interface StoredResult {
  measure_id: string;
  patient_id: string;
  populations: MeasureOutcome['populations'];
  answers: Answers;
  hba1c_band: PanelHba1cBand | null;
}

/** A result to store: what it is about, the record stamp it was read under, and until when it holds. */
export interface ResultRow extends StoredResult {
  measure_version: string;
  record_stamp: string;
  /** The earliest future-dated resource the evaluation set aside: when it stops being future, the result is stale. */
  valid_until: number | null;
}

/**
 * `measure_results` and `patient_record_stamps` (the only SQL of stored results).
 *
 * A stored result is **current** when all of these hold: it is for the measure version now in force (the
 * measure's model and the codes of the value sets it names, hashed: `measureVersion`), for the same period,
 * its `record_stamp` equals the patient's stamp now (no resource of theirs was written or moved away since
 * their record was read), and no future-dated resource it set aside has come due (`valid_until`).
 */
@Injectable()
export class MeasureResultsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Each patient's record stamp now (as text: a bigint); a patient never stamped has '0'. Read before their record. */
  async stamps(patientIds: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>(patientIds.map((id) => [id, '0']));
    if (!patientIds.length) return out;
    const rows: { patient_id: string; stamp: string }[] = await this.db.query(
      `SELECT patient_id, stamp::text AS stamp FROM patient_record_stamps WHERE patient_id = ANY($1::text[])`,
      [patientIds],
    );
    for (const r of rows) out.set(r.patient_id, r.stamp);
    return out;
  }

  /** The current results of these measure versions for these patients and period (see the class comment). */
  async current(
    versions: ReadonlyMap<string, string>,
    period: { start: string; end: string },
    patientIds: readonly string[],
  ): Promise<StoredResult[]> {
    if (!patientIds.length || !versions.size) return [];
    return this.db.query(
      `SELECT r.measure_id, r.patient_id, r.populations, r.answers, r.hba1c_band
         FROM measure_results r
         JOIN unnest($1::text[], $2::text[]) AS v(m, ver) ON r.measure_id = v.m AND r.measure_version = v.ver
         LEFT JOIN patient_record_stamps s ON s.patient_id = r.patient_id
        WHERE r.period_start = $3 AND r.period_end = $4 AND r.patient_id = ANY($5::text[])
          AND r.record_stamp = coalesce(s.stamp, 0)
          AND (r.valid_until IS NULL OR r.valid_until > now())`,
      [[...versions.keys()], [...versions.values()], period.start, period.end, patientIds],
    );
  }

  /** Stores results (replacing one for the same measure version, period and patient). */
  async store(period: { start: string; end: string }, rows: readonly ResultRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 1000) {
      const part = rows.slice(i, i + 1000);
      await this.db.query(
        `INSERT INTO measure_results (measure_id, measure_version, period_start, period_end, patient_id, record_stamp, valid_until, populations, answers, hba1c_band)
         SELECT m, v, $1, $2, p, s::bigint, to_timestamp(u / 1000.0), po::jsonb, a::jsonb, b
           FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::text[], $9::text[], $10::text[]) AS x(m, v, p, s, u, po, a, b)
         ON CONFLICT (measure_id, period_start, period_end, patient_id, measure_version) DO UPDATE
           SET record_stamp = EXCLUDED.record_stamp, valid_until = EXCLUDED.valid_until, populations = EXCLUDED.populations,
               answers = EXCLUDED.answers, hba1c_band = EXCLUDED.hba1c_band, evaluated_at = now()`,
        [
          period.start,
          period.end,
          part.map((r) => r.measure_id),
          part.map((r) => r.measure_version),
          part.map((r) => r.patient_id),
          part.map((r) => r.record_stamp),
          part.map((r) => r.valid_until),
          part.map((r) => JSON.stringify(r.populations)),
          part.map((r) => JSON.stringify(r.answers)),
          part.map((r) => r.hba1c_band),
        ],
      );
    }
  }

  /** Results of other versions of these measures for the period: never current again once a run has stored the new one. */
  async dropOtherVersions(versions: ReadonlyMap<string, string>, period: { start: string; end: string }): Promise<void> {
    await this.db.query(
      `DELETE FROM measure_results r USING unnest($1::text[], $2::text[]) AS v(m, ver)
        WHERE r.measure_id = v.m AND r.measure_version <> v.ver AND r.period_start = $3 AND r.period_end = $4`,
      [[...versions.keys()], [...versions.values()], period.start, period.end],
    );
  }
}
