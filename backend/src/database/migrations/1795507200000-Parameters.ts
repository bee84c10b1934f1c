import { MigrationInterface, QueryRunner } from 'typeorm';

export class Parameters1795507200000 implements MigrationInterface {
  name = 'Parameters1795507200000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "parameters" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "name" varchar(100) NOT NULL,
      "display_name" varchar(200) NOT NULL,
      "description" text,
      "data_type" varchar(20) NOT NULL,
      "category" varchar(20) NOT NULL,
      "units" varchar(50),
      "is_required" boolean NOT NULL DEFAULT true,
      "is_template" boolean NOT NULL DEFAULT false,
      "template_name" varchar(100),
      "version" integer NOT NULL DEFAULT 1,
      "is_active" boolean NOT NULL DEFAULT true,
      "validation_rules" jsonb NOT NULL DEFAULT '{}',
      "loinc_code" varchar(20),
      "polished_question" text,
      "polished_provider" varchar(40),
      "polished_input_hash" char(64),
      "polished_at" timestamptz,
      "question_override" text,
      "created_by" uuid,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_parameters" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_parameters_data_type" CHECK ("data_type" IN ('number', 'text', 'boolean', 'date', 'select', 'lab_range', 'time_based', 'vitals', 'calculated')),
      CONSTRAINT "CHK_parameters_category" CHECK ("category" IN ('demographics', 'vitals', 'labs', 'history', 'symptoms', 'other')),
      CONSTRAINT "CHK_parameters_name" CHECK (btrim("name") <> '' AND btrim("display_name") <> ''),
      CONSTRAINT "CHK_parameters_version" CHECK ("version" >= 1),
      CONSTRAINT "CHK_parameters_validation_rules" CHECK (jsonb_typeof("validation_rules") = 'object'),
      CONSTRAINT "CHK_parameters_loinc_code" CHECK ("loinc_code" ~ '^[0-9]{1,7}-[0-9]$'),
      CONSTRAINT "CHK_parameters_question_override" CHECK (char_length("question_override") <= 200),
      CONSTRAINT "FK_parameters_created_by" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL
    )`);
    // Rules may name a parameter by name, case-insensitively: two live parameters never share one.
    await q.query(
      `CREATE UNIQUE INDEX "UQ_parameters_active_name" ON "parameters" (lower("name")) WHERE "is_active" AND NOT "is_template"`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_parameters_template_name" ON "parameters" (lower("name")) WHERE "is_template"`);
    await q.query(`CREATE INDEX "IDX_parameters_display_name" ON "parameters" ("display_name")`);
    // No foreign key to parameters: the history of a deleted parameter is kept.
    await q.query(`CREATE TABLE "parameter_changes" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "parameter_id" uuid NOT NULL,
      "parameter_name" varchar(100) NOT NULL,
      "change_type" varchar(20) NOT NULL,
      "old_values" jsonb,
      "new_values" jsonb,
      "changed_by" uuid,
      "changed_at" timestamptz NOT NULL DEFAULT now(),
      "change_reason" text,
      CONSTRAINT "PK_parameter_changes" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_parameter_changes_type" CHECK ("change_type" IN ('created', 'updated', 'deleted', 'activated', 'deactivated')),
      CONSTRAINT "FK_parameter_changes_changed_by" FOREIGN KEY ("changed_by") REFERENCES "users"("id") ON DELETE SET NULL
    )`);
    await q.query(`CREATE INDEX "IDX_parameter_changes_changed_at" ON "parameter_changes" ("changed_at")`);
    await q.query(`CREATE INDEX "IDX_parameter_changes_parameter" ON "parameter_changes" ("parameter_id", "changed_at")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "parameter_changes"`);
    await q.query(`DROP TABLE "parameters"`);
  }
}
