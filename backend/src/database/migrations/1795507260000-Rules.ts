import { MigrationInterface, QueryRunner } from 'typeorm';

export class Rules1795507260000 implements MigrationInterface {
  name = 'Rules1795507260000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "rule_sets" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "name" varchar(200) NOT NULL,
      "description" text,
      "is_active" boolean NOT NULL DEFAULT true,
      "is_published" boolean NOT NULL DEFAULT false,
      "is_template" boolean NOT NULL DEFAULT false,
      "version" integer NOT NULL DEFAULT 1,
      "created_by" uuid,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      "deleted_at" timestamptz,
      "deleted_by" uuid,
      CONSTRAINT "PK_rule_sets" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_rule_sets_name" CHECK (btrim("name") <> ''),
      CONSTRAINT "CHK_rule_sets_version" CHECK ("version" >= 1),
      CONSTRAINT "FK_rule_sets_created_by" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL,
      CONSTRAINT "FK_rule_sets_deleted_by" FOREIGN KEY ("deleted_by") REFERENCES "users"("id") ON DELETE SET NULL
    )`);
    await q.query(`CREATE INDEX "IDX_rule_sets_created_at" ON "rule_sets" ("created_at")`);
    await q.query(`CREATE TABLE "rules" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "rule_set_id" uuid NOT NULL,
      "name" varchar(200) NOT NULL,
      "description" text NOT NULL DEFAULT '',
      "priority" integer NOT NULL DEFAULT 0,
      "conditions" jsonb NOT NULL DEFAULT '[]',
      "actions" jsonb NOT NULL DEFAULT '[]',
      "is_active" boolean NOT NULL DEFAULT true,
      "created_by" uuid,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_rules" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_rules_name" CHECK (btrim("name") <> ''),
      CONSTRAINT "CHK_rules_priority" CHECK ("priority" BETWEEN 0 AND 100),
      CONSTRAINT "CHK_rules_conditions" CHECK (jsonb_typeof("conditions") = 'array'),
      CONSTRAINT "CHK_rules_actions" CHECK (jsonb_typeof("actions") = 'array'),
      CONSTRAINT "FK_rules_rule_set" FOREIGN KEY ("rule_set_id") REFERENCES "rule_sets"("id") ON DELETE CASCADE,
      CONSTRAINT "FK_rules_created_by" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL
    )`);
    await q.query(`CREATE INDEX "IDX_rules_rule_set_priority" ON "rules" ("rule_set_id", "priority")`);
    await q.query(`CREATE TABLE "rule_set_versions" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "rule_set_id" uuid NOT NULL,
      "number" integer NOT NULL,
      "name" varchar(200) NOT NULL,
      "content_hash" char(64) NOT NULL,
      "rules" jsonb NOT NULL,
      "parameters" jsonb NOT NULL,
      "published_by" uuid,
      "published_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_rule_set_versions" PRIMARY KEY ("id"),
      CONSTRAINT "UQ_rule_set_versions_number" UNIQUE ("rule_set_id", "number"),
      CONSTRAINT "CHK_rule_set_versions_number" CHECK ("number" >= 1),
      CONSTRAINT "CHK_rule_set_versions_rules" CHECK (jsonb_typeof("rules") = 'array'),
      CONSTRAINT "CHK_rule_set_versions_parameters" CHECK (jsonb_typeof("parameters") = 'array'),
      CONSTRAINT "FK_rule_set_versions_rule_set" FOREIGN KEY ("rule_set_id") REFERENCES "rule_sets"("id") ON DELETE CASCADE,
      CONSTRAINT "FK_rule_set_versions_published_by" FOREIGN KEY ("published_by") REFERENCES "users"("id") ON DELETE SET NULL
    )`);
    // What assessments were decided with must never change after the fact.
    await q.query(`CREATE FUNCTION "rule_set_versions_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'published rule set versions are immutable';
      END
    $$`);
    await q.query(`CREATE TRIGGER "TRG_rule_set_versions_immutable" BEFORE UPDATE ON "rule_set_versions"
      FOR EACH ROW EXECUTE FUNCTION "rule_set_versions_immutable"()`);
    await q.query(`CREATE TABLE "rule_test_cases" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "rule_id" uuid NOT NULL,
      "name" varchar(200) NOT NULL,
      "answers" jsonb NOT NULL,
      "expected_outcome" varchar(7) NOT NULL,
      "reference_date" timestamptz,
      "created_by" uuid,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_rule_test_cases" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_rule_test_cases_name" CHECK (btrim("name") <> ''),
      CONSTRAINT "CHK_rule_test_cases_answers" CHECK (jsonb_typeof("answers") = 'object'),
      CONSTRAINT "CHK_rule_test_cases_expected" CHECK ("expected_outcome" IN ('true', 'false', 'unknown')),
      CONSTRAINT "FK_rule_test_cases_rule" FOREIGN KEY ("rule_id") REFERENCES "rules"("id") ON DELETE CASCADE,
      CONSTRAINT "FK_rule_test_cases_created_by" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL
    )`);
    await q.query(`CREATE INDEX "IDX_rule_test_cases_rule" ON "rule_test_cases" ("rule_id")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "rule_test_cases"`);
    await q.query(`DROP TRIGGER "TRG_rule_set_versions_immutable" ON "rule_set_versions"`);
    await q.query(`DROP FUNCTION "rule_set_versions_immutable"()`);
    await q.query(`DROP TABLE "rule_set_versions"`);
    await q.query(`DROP TABLE "rules"`);
    await q.query(`DROP TABLE "rule_sets"`);
  }
}
