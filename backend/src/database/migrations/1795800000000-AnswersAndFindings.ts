import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 9: an assessment keeps every finding (not only the primary recommendation), and a chat
 * session keeps its answers as entered (value, unit, how given, label), like an assessment.
 */
export class AnswersAndFindings1795800000000 implements MigrationInterface {
  name = 'AnswersAndFindings1795800000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "assessments" ADD "findings" jsonb NOT NULL DEFAULT '[]'`);
    // Assessments completed before this kept one recommendation: it was their only finding.
    await q.query(`UPDATE "assessments" SET "findings" = jsonb_build_array("recommendation") WHERE "recommendation" IS NOT NULL`);
    await q.query(`ALTER TABLE "assessments" DROP CONSTRAINT "CHK_assessments_lists"`);
    await q.query(
      `ALTER TABLE "assessments" ADD CONSTRAINT "CHK_assessments_lists" CHECK (jsonb_typeof("rule_set_versions") = 'array' AND jsonb_typeof("completed_parameter_ids") = 'array' AND jsonb_typeof("answer_details") = 'array' AND jsonb_typeof("undetermined_rules") = 'array' AND jsonb_typeof("debug_log") = 'array' AND jsonb_typeof("findings") = 'array')`,
    );
    await q.query(`ALTER TABLE "assessments" ADD CONSTRAINT "CHK_assessments_findings" CHECK ("findings" = '[]'::jsonb OR "is_completed")`);
    await q.query(`ALTER TABLE "chatbot_sessions" ADD "answer_details" jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`ALTER TABLE "chatbot_sessions" DROP CONSTRAINT "CHK_chatbot_sessions_lists"`);
    await q.query(
      `ALTER TABLE "chatbot_sessions" ADD CONSTRAINT "CHK_chatbot_sessions_lists" CHECK (jsonb_typeof("answered_parameters") = 'array' AND jsonb_typeof("matched_rules") = 'array' AND jsonb_typeof("conversation_history") = 'array' AND jsonb_typeof("rule_set_versions") = 'array' AND jsonb_typeof("answer_details") = 'array')`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chatbot_sessions" DROP CONSTRAINT "CHK_chatbot_sessions_lists"`);
    await q.query(`ALTER TABLE "chatbot_sessions" DROP COLUMN "answer_details"`);
    await q.query(
      `ALTER TABLE "chatbot_sessions" ADD CONSTRAINT "CHK_chatbot_sessions_lists" CHECK (jsonb_typeof("answered_parameters") = 'array' AND jsonb_typeof("matched_rules") = 'array' AND jsonb_typeof("conversation_history") = 'array' AND jsonb_typeof("rule_set_versions") = 'array')`,
    );
    await q.query(`ALTER TABLE "assessments" DROP CONSTRAINT "CHK_assessments_findings"`);
    await q.query(`ALTER TABLE "assessments" DROP CONSTRAINT "CHK_assessments_lists"`);
    await q.query(`ALTER TABLE "assessments" DROP COLUMN "findings"`);
    await q.query(
      `ALTER TABLE "assessments" ADD CONSTRAINT "CHK_assessments_lists" CHECK (jsonb_typeof("rule_set_versions") = 'array' AND jsonb_typeof("completed_parameter_ids") = 'array' AND jsonb_typeof("answer_details") = 'array' AND jsonb_typeof("undetermined_rules") = 'array' AND jsonb_typeof("debug_log") = 'array')`,
    );
  }
}
