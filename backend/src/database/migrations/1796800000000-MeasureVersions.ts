import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 21: a quality measure's local versions. Version 1 of each measure is the CMS definition the product
 * ships (in code, checked against the official decks): it has no row. A row is an administrator's edit of the
 * population rules: the one draft of a measure, then published with a change note (the previous published one
 * retired), never edited after.
 */
export class MeasureVersions1796800000000 implements MigrationInterface {
  name = 'MeasureVersions1796800000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "measure_versions" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "measure_id" varchar(128) NOT NULL,
      "version" integer NOT NULL,
      "status" varchar(16) NOT NULL,
      "revision" integer NOT NULL DEFAULT 1,
      "rules" jsonb NOT NULL,
      "note" text,
      "created_by" uuid,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_by" uuid,
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      "published_by" uuid,
      "published_at" timestamptz,
      CONSTRAINT "PK_measure_versions" PRIMARY KEY ("id"),
      CONSTRAINT "UQ_measure_versions_number" UNIQUE ("measure_id", "version"),
      CONSTRAINT "CHK_measure_versions_version" CHECK ("version" >= 2),
      CONSTRAINT "CHK_measure_versions_status" CHECK ("status" IN ('draft', 'published', 'retired')),
      CONSTRAINT "CHK_measure_versions_rules" CHECK (jsonb_typeof("rules") = 'array'),
      CONSTRAINT "CHK_measure_versions_published" CHECK ("status" = 'draft' OR ("note" IS NOT NULL AND "published_at" IS NOT NULL)),
      CONSTRAINT "FK_measure_versions_created_by" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL,
      CONSTRAINT "FK_measure_versions_updated_by" FOREIGN KEY ("updated_by") REFERENCES "users"("id") ON DELETE SET NULL,
      CONSTRAINT "FK_measure_versions_published_by" FOREIGN KEY ("published_by") REFERENCES "users"("id") ON DELETE SET NULL
    )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_measure_versions_one_draft" ON "measure_versions" ("measure_id") WHERE "status" = 'draft'`);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_measure_versions_one_published" ON "measure_versions" ("measure_id") WHERE "status" = 'published'`,
    );
    // A hook call's copy holds which version of each measure is published (its gap cards): a publish, or a published
    // row removed, moves the hook generation, so a call evaluated on the old version is evaluated again.
    await q.query(`CREATE CONSTRAINT TRIGGER "TRG_measure_versions_cds_hook_generation_update" AFTER UPDATE ON "measure_versions"
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN (OLD."status" IS DISTINCT FROM NEW."status" AND 'published' IN (OLD."status", NEW."status"))
      EXECUTE FUNCTION "bump_cds_hook_generation"()`);
    await q.query(`CREATE CONSTRAINT TRIGGER "TRG_measure_versions_cds_hook_generation_delete" AFTER DELETE ON "measure_versions"
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD."status" = 'published') EXECUTE FUNCTION "bump_cds_hook_generation"()`);
    await q.query(`CREATE TRIGGER "TRG_measure_versions_cds_hook_generation_truncate" AFTER TRUNCATE ON "measure_versions"
      FOR EACH STATEMENT EXECUTE FUNCTION "bump_cds_hook_generation"()`);
  }

  public async down(q: QueryRunner): Promise<void> {
    // Its triggers go with the table.
    await q.query(`DROP TABLE "measure_versions"`);
  }
}
