import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 13 (impact preview): what publishing a draft would do to the reference populations,
 * stored when the admin asks for it and kept with the version published with it.
 */
export class ImpactPreviews1795920000000 implements MigrationInterface {
  name = 'ImpactPreviews1795920000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "rule_set_impact_previews" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "rule_set_id" uuid NOT NULL,
      "draft_hash" char(64) NOT NULL,
      "base_version" integer,
      "seed" integer NOT NULL,
      "groups" jsonb NOT NULL,
      "elapsed_ms" integer NOT NULL,
      "created_by" uuid,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "version_id" uuid,
      CONSTRAINT "PK_rule_set_impact_previews" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_rule_set_impact_previews_groups" CHECK (jsonb_typeof("groups") = 'array'),
      CONSTRAINT "FK_rule_set_impact_previews_rule_set" FOREIGN KEY ("rule_set_id") REFERENCES "rule_sets"("id") ON DELETE CASCADE,
      CONSTRAINT "FK_rule_set_impact_previews_created_by" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL,
      CONSTRAINT "FK_rule_set_impact_previews_version" FOREIGN KEY ("version_id") REFERENCES "rule_set_versions"("id") ON DELETE CASCADE
    )`);
    await q.query(`CREATE INDEX "IDX_rule_set_impact_previews_rule_set" ON "rule_set_impact_previews" ("rule_set_id", "created_at")`);
    await q.query(`CREATE UNIQUE INDEX "UQ_rule_set_impact_previews_version" ON "rule_set_impact_previews" ("version_id")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "rule_set_impact_previews"`);
  }
}
