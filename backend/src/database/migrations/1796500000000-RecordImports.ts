import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 21 (records in): `POST /api/fhir/$import` as a background job. The row in `record_imports` is the
 * truth (the queue only triggers it); the upload waits in `record_import_chunks` and the validated resources
 * in `record_import_resources` until one transaction moves them all into `fhir_resources`, so a failed or
 * interrupted import never leaves the store half-written.
 */
export class RecordImports1796500000000 implements MigrationInterface {
  name = 'RecordImports1796500000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "record_imports" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "status" varchar(16) NOT NULL DEFAULT 'queued',
      "requested_by" uuid,
      "inputs" jsonb,
      "total_lines" integer,
      "chunks_total" integer,
      "chunks_done" integer NOT NULL DEFAULT 0,
      "done_lines" integer NOT NULL DEFAULT 0,
      "stored" integer NOT NULL DEFAULT 0,
      "invalid" integer NOT NULL DEFAULT 0,
      "errors" jsonb NOT NULL DEFAULT '[]',
      "failure" text,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "started_at" timestamptz,
      "finished_at" timestamptz,
      CONSTRAINT "PK_record_imports" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_record_imports_status" CHECK ("status" IN ('queued', 'running', 'completed', 'failed')),
      CONSTRAINT "FK_record_imports_requested_by" FOREIGN KEY ("requested_by") REFERENCES "users"("id") ON DELETE SET NULL
    )`);
    await q.query(`CREATE INDEX "IDX_record_imports_created" ON "record_imports" ("created_at")`);
    await q.query(`CREATE TABLE "record_import_chunks" (
      "import_id" uuid NOT NULL,
      "seq" integer NOT NULL,
      "first_line" integer NOT NULL,
      "lines" text NOT NULL,
      CONSTRAINT "PK_record_import_chunks" PRIMARY KEY ("import_id", "seq"),
      CONSTRAINT "FK_record_import_chunks_import" FOREIGN KEY ("import_id") REFERENCES "record_imports"("id") ON DELETE CASCADE
    )`);
    await q.query(`CREATE TABLE "record_import_resources" (
      "import_id" uuid NOT NULL,
      "resource_type" varchar(64) NOT NULL,
      "id" varchar(255) NOT NULL,
      "patient_id" varchar(255),
      "resource" jsonb NOT NULL,
      CONSTRAINT "PK_record_import_resources" PRIMARY KEY ("import_id", "resource_type", "id"),
      CONSTRAINT "FK_record_import_resources_import" FOREIGN KEY ("import_id") REFERENCES "record_imports"("id") ON DELETE CASCADE
    )`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "record_import_resources"`);
    await q.query(`DROP TABLE "record_import_chunks"`);
    await q.query(`DROP TABLE "record_imports"`);
  }
}
