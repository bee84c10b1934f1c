import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shipped content (issue 20): template rule sets whose rules, parameters and vignettes live in the
 * code (`modules/rules/content/`), so a fresh install lists them in Rule Designer → Templates and
 * `POST /api/rule-sets/from-template` installs them. A migration rather than a start-up install:
 * it runs once per database under the migration lock (several API processes may start at once),
 * together with the column it needs, and `down()` removes exactly what it added. The row's name and
 * description are frozen here; the pack's content follows the code.
 */
const PACKS = [
  {
    key: 'ada-2026',
    name: 'ADA Standards of Care 2026 — diabetes, kidney and blood pressure',
    description:
      'Diagnosis (confirmed / needs confirmation), prediabetes, discordant results, A1C reliability, hypoglycemia levels 1–2, KDIGO CKD stages, albuminuria and risk grid with nephrology referral, hypertensive crisis and stages, BP goal in diabetes, BMI categories with Asian-American cut-points and diabetes screening. Installs as a draft with its parameters and vignettes.',
    source: 'ADA Standards of Care in Diabetes—2026; KDIGO 2024 CKD guideline; ACC/AHA 2017 High Blood Pressure Guideline',
  },
];

export class ContentPacks1796100000000 implements MigrationInterface {
  name = 'ContentPacks1796100000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "rule_sets" ADD "content_pack" character varying(50)`);
    await q.query(`CREATE UNIQUE INDEX "UQ_rule_sets_content_pack" ON "rule_sets" ("content_pack") WHERE "content_pack" IS NOT NULL`);
    for (const p of PACKS) {
      await q.query(
        `INSERT INTO "rule_sets" ("name", "description", "source", "is_template", "is_active", "content_pack") VALUES ($1, $2, $3, true, true, $4)`,
        [p.name, p.description, p.source, p.key],
      );
    }
    // Fire the deferred cds_hook_generation triggers now: a later ALTER of rule_sets in the same transaction refuses pending trigger events.
    await q.query(`SET CONSTRAINTS ALL IMMEDIATE`);
  }

  public async down(q: QueryRunner): Promise<void> {
    // Installed copies are ordinary rule sets (content_pack null) and stay; the templates go with their rules and vignettes.
    await q.query(`DELETE FROM "rule_sets" WHERE "content_pack" IS NOT NULL`);
    await q.query(`SET CONSTRAINTS ALL IMMEDIATE`);
    await q.query(`DROP INDEX "UQ_rule_sets_content_pack"`);
    await q.query(`ALTER TABLE "rule_sets" DROP COLUMN "content_pack"`);
  }
}
