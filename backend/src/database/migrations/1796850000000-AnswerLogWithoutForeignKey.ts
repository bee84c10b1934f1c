import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The foreign key from `assessment_log` to `assessments` cost every start and every answer a check of its own
 * inside the one statement (`SELECT 1 FROM assessments … FOR KEY SHARE`, 0.05–0.08 ms of its 0.25–0.45 ms executing,
 * EXPLAIN ANALYZE in docs/benchmarks.md), and it could not fail: a log row is only ever written by the statement
 * that inserts or updates its assessment, from that statement's `RETURNING id`. Its other duty, taking the log away
 * when an assessment is deleted, has no caller: no code path deletes an assessment (a user's deletion is refused
 * while they have any, FK_assessments_user RESTRICT). The log is only read by its assessment's id, so a row left by
 * a hand-made delete is never shown. Down deletes such rows, then adds the key back as it was.
 */
export class AnswerLogWithoutForeignKey1796850000000 implements MigrationInterface {
  name = 'AnswerLogWithoutForeignKey1796850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "assessment_log" DROP CONSTRAINT "FK_assessment_log_assessment"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "assessment_log" l WHERE NOT EXISTS (SELECT 1 FROM "assessments" a WHERE a."id" = l."assessment_id")`);
    await q.query(
      `ALTER TABLE "assessment_log" ADD CONSTRAINT "FK_assessment_log_assessment"
         FOREIGN KEY ("assessment_id") REFERENCES "assessments"("id") ON DELETE CASCADE`,
    );
  }
}
