import { MigrationInterface, QueryRunner } from 'typeorm';

export class Assessments1795650060000 implements MigrationInterface {
  name = 'Assessments1795650060000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "assessments" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "user_id" uuid NOT NULL,
      "rule_set_versions" jsonb NOT NULL,
      "answers" jsonb NOT NULL DEFAULT '{}',
      "completed_parameter_ids" jsonb NOT NULL DEFAULT '[]',
      "answer_details" jsonb NOT NULL DEFAULT '[]',
      "current_parameter_id" uuid,
      "current_question" jsonb,
      "step" integer NOT NULL DEFAULT 1,
      "is_completed" boolean NOT NULL DEFAULT false,
      "recommendation" jsonb,
      "undetermined_rules" jsonb NOT NULL DEFAULT '[]',
      "debug_log" jsonb NOT NULL DEFAULT '[]',
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      "completed_at" timestamptz,
      CONSTRAINT "PK_assessments" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_assessments_step" CHECK ("step" >= 1),
      CONSTRAINT "CHK_assessments_answers" CHECK (jsonb_typeof("answers") = 'object'),
      CONSTRAINT "CHK_assessments_lists" CHECK (jsonb_typeof("rule_set_versions") = 'array' AND jsonb_typeof("completed_parameter_ids") = 'array' AND jsonb_typeof("answer_details") = 'array' AND jsonb_typeof("undetermined_rules") = 'array' AND jsonb_typeof("debug_log") = 'array'),
      CONSTRAINT "CHK_assessments_completion" CHECK ("is_completed" = ("completed_at" IS NOT NULL) AND "is_completed" = ("current_parameter_id" IS NULL) AND ("recommendation" IS NULL OR "is_completed")),
      CONSTRAINT "FK_assessments_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT
    )`);
    await q.query(`CREATE INDEX "IDX_assessments_user_created" ON "assessments" ("user_id", "created_at")`);
    await q.query(`CREATE INDEX "IDX_assessments_created" ON "assessments" ("created_at")`);
    // Analytics find the assessments that evaluated a rule set: rule_set_versions @> '[{"rule_set_id": ...}]'.
    await q.query(`CREATE INDEX "IDX_assessments_rule_set_versions" ON "assessments" USING gin ("rule_set_versions" jsonb_path_ops)`);
    await q.query(`CREATE TABLE "chatbot_sessions" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "user_id" uuid NOT NULL,
      "session_data" jsonb NOT NULL DEFAULT '{}',
      "answered_parameters" jsonb NOT NULL DEFAULT '[]',
      "matched_rules" jsonb NOT NULL DEFAULT '[]',
      "conversation_history" jsonb NOT NULL DEFAULT '[]',
      "current_step" integer NOT NULL DEFAULT 1,
      "is_completed" boolean NOT NULL DEFAULT false,
      "final_recommendations" jsonb,
      "pending" jsonb,
      "rule_set_versions" jsonb NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      "completed_at" timestamptz,
      CONSTRAINT "PK_chatbot_sessions" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_chatbot_sessions_step" CHECK ("current_step" >= 1),
      CONSTRAINT "CHK_chatbot_sessions_data" CHECK (jsonb_typeof("session_data") = 'object'),
      CONSTRAINT "CHK_chatbot_sessions_lists" CHECK (jsonb_typeof("answered_parameters") = 'array' AND jsonb_typeof("matched_rules") = 'array' AND jsonb_typeof("conversation_history") = 'array' AND jsonb_typeof("rule_set_versions") = 'array'),
      CONSTRAINT "CHK_chatbot_sessions_completion" CHECK ("is_completed" = ("completed_at" IS NOT NULL) AND ("pending" IS NULL OR NOT "is_completed") AND ("final_recommendations" IS NULL OR "is_completed")),
      CONSTRAINT "FK_chatbot_sessions_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT
    )`);
    await q.query(`CREATE INDEX "IDX_chatbot_sessions_user_created" ON "chatbot_sessions" ("user_id", "created_at")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "chatbot_sessions"`);
    await q.query(`DROP TABLE "assessments"`);
  }
}
