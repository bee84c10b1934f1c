import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { codesOf } from './value-set-codes';

/** One resource to store at resourceType/id. */
export interface RecordRow {
  resource_type: string;
  id: string;
  patient_id: string | null;
  resource: Record<string, unknown>;
}

/** Where a resource was stored: its version, and whether the write created it. */
export interface StoredRecord {
  resource_type: string;
  id: string;
  version_id: number;
  created: boolean;
  last_updated: Date;
}

/** Patients' FHIR resources, as the EHR or an import sent them (the store the criteria read). */
@Injectable()
export class RecordsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Stores every row in one statement, all or nothing: a resource already stored at the same
   * resourceType/id is replaced and its version moves on. The rows must be distinct by type and id.
   */
  async upsert(rows: readonly RecordRow[]): Promise<StoredRecord[]> {
    if (!rows.length) return [];
    // xmax = 0 only on a row this statement inserted (PostgreSQL's MVCC): created or replaced.
    const stored: { resource_type: string; id: string; version_id: number; created: boolean; last_updated: Date }[] = await this.db.query(
      `INSERT INTO fhir_resources (resource_type, id, patient_id, resource)
       SELECT t, i, p, r::jsonb FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u(t, i, p, r)
       ON CONFLICT (resource_type, id) DO UPDATE
         SET resource = EXCLUDED.resource, patient_id = EXCLUDED.patient_id,
             version_id = fhir_resources.version_id + 1, last_updated = now()
       RETURNING resource_type, id, version_id, (xmax = 0) AS created, last_updated`,
      [rows.map((r) => r.resource_type), rows.map((r) => r.id), rows.map((r) => r.patient_id), rows.map((r) => JSON.stringify(r.resource))],
    );
    return stored;
  }

  /** One stored resource, or null. */
  async find(resourceType: string, id: string): Promise<{ resource: Record<string, unknown>; version_id: number } | null> {
    const rows: { resource: Record<string, unknown>; version_id: number }[] = await this.db.query(
      `SELECT resource, version_id FROM fhir_resources WHERE resource_type = $1 AND id = $2`,
      [resourceType, id],
    );
    return rows[0] ?? null;
  }

  /** Stores rows that are not stored yet (shipped content), leaving any stored at the same resourceType/id as it is. */
  async insertMissing(rows: readonly RecordRow[]): Promise<number> {
    if (!rows.length) return 0;
    const inserted: unknown[] = await this.db.query(
      `INSERT INTO fhir_resources (resource_type, id, patient_id, resource)
       SELECT t, i, p, r::jsonb FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u(t, i, p, r)
       ON CONFLICT (resource_type, id) DO NOTHING RETURNING id`,
      [rows.map((r) => r.resource_type), rows.map((r) => r.id), rows.map((r) => r.patient_id), rows.map((r) => JSON.stringify(r.resource))],
    );
    return inserted.length;
  }

  /** The ids of every patient with a Patient resource, in id order. */
  async patientIds(): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(`SELECT id FROM fhir_resources WHERE resource_type = 'Patient' ORDER BY id`);
    return rows.map((r) => r.id);
  }

  /** The next `n` patients with a Patient resource after `cursor` (keyset paging of a population run), in id order. */
  async patientsAfter(cursor: string | null, n: number): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id FROM fhir_resources WHERE resource_type = 'Patient' AND ($1::text IS NULL OR id > $1) ORDER BY id LIMIT $2`,
      [cursor, n],
    );
    return rows.map((r) => r.id);
  }

  /** The Patient resources of these ids, by id (ids without one are absent). */
  async patients(ids: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
    if (!ids.length) return new Map();
    const rows: { id: string; resource: Record<string, unknown> }[] = await this.db.query(
      `SELECT id, resource FROM fhir_resources WHERE resource_type = 'Patient' AND id = ANY($1::text[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.resource]));
  }

  /** Each patient's resources (the Patient and everything about it), for the given patient ids. */
  async recordsOf(patientIds: readonly string[]): Promise<Map<string, Record<string, unknown>[]>> {
    const out = new Map<string, Record<string, unknown>[]>(patientIds.map((id) => [id, []]));
    if (!patientIds.length) return out;
    const rows: { patient_id: string; resource: Record<string, unknown> }[] = await this.db.query(
      // The bounds keep the plan an index scan when the table has no statistics yet (right after a bulk import,
      // before autovacuum analyses it): `= ANY` of 500 ids alone is then estimated at 40 % of the table and read
      // by a sequential scan per slice, which made a population pass quadratic in the panel's size.
      `SELECT patient_id, resource FROM fhir_resources
        WHERE patient_id = ANY($1::text[])
          AND patient_id >= (SELECT min(p) FROM unnest($1::text[]) AS p)
          AND patient_id <= (SELECT max(p) FROM unnest($1::text[]) AS p)`,
      [patientIds],
    );
    for (const r of rows) out.get(r.patient_id)?.push(r.resource);
    return out;
  }

  /**
   * The codes of each value set stored under these canonical URLs, as `system|code` tokens: its
   * expansion (nested `contains` included), else the concepts its compose lists. A URL stored under
   * several ids (versions) gets the union. URLs with no usable codes are absent: not loaded.
   */
  async valueSetCodes(urls: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, Set<string>>();
    if (!urls.length) return new Map();
    const rows: { url: string; resource: Record<string, unknown> }[] = await this.db.query(
      `SELECT resource->>'url' AS url, resource FROM fhir_resources WHERE resource_type = 'ValueSet' AND resource->>'url' = ANY($1::text[])`,
      [urls],
    );
    for (const { url, resource } of rows) {
      const tokens = out.get(url) ?? new Set<string>();
      for (const t of codesOf(resource)) tokens.add(t);
      if (tokens.size) out.set(url, tokens);
    }
    return new Map([...out].map(([url, tokens]) => [url, [...tokens]]));
  }

  /** Every stored ValueSet resource with a canonical URL (the criterion editor lists them). */
  async valueSets(): Promise<Record<string, unknown>[]> {
    const rows: { resource: Record<string, unknown> }[] = await this.db.query(
      `SELECT resource FROM fhir_resources WHERE resource_type = 'ValueSet' AND resource->>'url' IS NOT NULL ORDER BY id`,
    );
    return rows.map((r) => r.resource);
  }
}
