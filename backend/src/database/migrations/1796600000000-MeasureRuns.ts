import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 21 (population runs): measure results stored per patient, measure version and period, and what
 * tells a stored result from a stale one.
 *
 * `patient_record_stamps` holds, per patient, a number that moves on whenever any of their resources is
 * written or moved away (drawn from one sequence, so it only grows). Triggers on `fhir_resources` write it,
 * whatever wrote the resource (`POST /api/fhir`, an import's final transaction, or anything added later), so no
 * write path can forget it. A result stores the stamp its record was read under: equal stamps mean the record
 * is the one the result was computed from.
 */
export class MeasureRuns1796600000000 implements MigrationInterface {
  name = 'MeasureRuns1796600000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE "record_change_seq"`);
    await q.query(`CREATE TABLE "patient_record_stamps" (
      "patient_id" varchar(255) NOT NULL,
      "stamp" bigint NOT NULL,
      CONSTRAINT "PK_patient_record_stamps" PRIMARY KEY ("patient_id")
    )`);
    // One stamp per statement: every patient a statement touched gets the same new number.
    await q.query(`CREATE FUNCTION "stamp_patient_records"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE s bigint := nextval('record_change_seq');
      BEGIN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO patient_record_stamps (patient_id, stamp)
            SELECT DISTINCT patient_id, s FROM new_rows WHERE patient_id IS NOT NULL
            ON CONFLICT (patient_id) DO UPDATE SET stamp = EXCLUDED.stamp;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          INSERT INTO patient_record_stamps (patient_id, stamp)
            SELECT DISTINCT patient_id, s FROM old_rows WHERE patient_id IS NOT NULL
            ON CONFLICT (patient_id) DO UPDATE SET stamp = EXCLUDED.stamp;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER "TRG_fhir_resources_stamp_insert" AFTER INSERT ON "fhir_resources"
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "stamp_patient_records"()`);
    await q.query(`CREATE TRIGGER "TRG_fhir_resources_stamp_update" AFTER UPDATE ON "fhir_resources"
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "stamp_patient_records"()`);
    await q.query(`CREATE TRIGGER "TRG_fhir_resources_stamp_delete" AFTER DELETE ON "fhir_resources"
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "stamp_patient_records"()`);
    await q.query(`INSERT INTO "patient_record_stamps" ("patient_id", "stamp")
      SELECT "patient_id", nextval('record_change_seq') FROM (SELECT DISTINCT "patient_id" FROM "fhir_resources" WHERE "patient_id" IS NOT NULL) p`);

    await q.query(`CREATE TABLE "measure_runs" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "status" varchar(16) NOT NULL DEFAULT 'queued',
      "measure_ids" text[] NOT NULL,
      "period_start" date NOT NULL,
      "period_end" date NOT NULL,
      "trend" boolean NOT NULL DEFAULT false,
      "requested_by" uuid,
      "total" integer,
      "done" integer NOT NULL DEFAULT 0,
      "evaluated" integer NOT NULL DEFAULT 0,
      "cursor" varchar(255),
      "failure" text,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "started_at" timestamptz,
      "finished_at" timestamptz,
      CONSTRAINT "PK_measure_runs" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_measure_runs_status" CHECK ("status" IN ('queued', 'running', 'completed', 'failed')),
      CONSTRAINT "FK_measure_runs_requested_by" FOREIGN KEY ("requested_by") REFERENCES "users"("id") ON DELETE SET NULL
    )`);
    await q.query(`CREATE INDEX "IDX_measure_runs_created" ON "measure_runs" ("created_at")`);
    await q.query(`CREATE TABLE "measure_results" (
      "measure_id" varchar(128) NOT NULL,
      "measure_version" varchar(64) NOT NULL,
      "period_start" date NOT NULL,
      "period_end" date NOT NULL,
      "patient_id" varchar(255) NOT NULL,
      "record_stamp" bigint NOT NULL,
      "valid_until" timestamptz,
      "populations" jsonb NOT NULL,
      "answers" jsonb NOT NULL DEFAULT '{}',
      "hba1c_band" varchar(32),
      "evaluated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_measure_results" PRIMARY KEY ("measure_id", "period_start", "period_end", "patient_id", "measure_version")
    )`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "measure_results"`);
    await q.query(`DROP TABLE "measure_runs"`);
    await q.query(`DROP TRIGGER "TRG_fhir_resources_stamp_delete" ON "fhir_resources"`);
    await q.query(`DROP TRIGGER "TRG_fhir_resources_stamp_update" ON "fhir_resources"`);
    await q.query(`DROP TRIGGER "TRG_fhir_resources_stamp_insert" ON "fhir_resources"`);
    await q.query(`DROP FUNCTION "stamp_patient_records"()`);
    await q.query(`DROP TABLE "patient_record_stamps"`);
    await q.query(`DROP SEQUENCE "record_change_seq"`);
  }
}
