import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Impact preview, second pass: the per-rule change list (old → new) is stored with the preview,
 * and the published versions of the other active rule sets it was computed against, so a publish
 * of another set in between makes the preview stale. Unreferenced previews are pruned by age.
 */
export class ImpactPreviewChanges1795960000000 implements MigrationInterface {
  name = 'ImpactPreviewChanges1795960000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "rule_set_impact_previews" ADD "changes" jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`ALTER TABLE "rule_set_impact_previews" ADD "combination_hash" char(64)`);
    await q.query(
      `ALTER TABLE "rule_set_impact_previews" ADD CONSTRAINT "CHK_rule_set_impact_previews_changes" CHECK (jsonb_typeof("changes") = 'array')`,
    );
    await q.query(
      `CREATE INDEX "IDX_rule_set_impact_previews_unreferenced" ON "rule_set_impact_previews" ("created_at") WHERE "version_id" IS NULL`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_rule_set_impact_previews_unreferenced"`);
    await q.query(`ALTER TABLE "rule_set_impact_previews" DROP CONSTRAINT "CHK_rule_set_impact_previews_changes"`);
    await q.query(`ALTER TABLE "rule_set_impact_previews" DROP COLUMN "combination_hash"`);
    await q.query(`ALTER TABLE "rule_set_impact_previews" DROP COLUMN "changes"`);
  }
}
