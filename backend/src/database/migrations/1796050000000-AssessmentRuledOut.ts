import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 20: an assessment that ends with no finding keeps what the answers ruled out ("HbA1c
 * 5.2 % is below 5.7 %"), so case detail shows later exactly what the physician was shown.
 * Assessments completed earlier read as an empty list.
 */
export class AssessmentRuledOut1796050000000 implements MigrationInterface {
  name = 'AssessmentRuledOut1796050000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "assessments" ADD "ruled_out" jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`ALTER TABLE "assessments" ADD CONSTRAINT "CHK_assessments_ruled_out" CHECK (jsonb_typeof("ruled_out") = 'array')`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "assessments" DROP CONSTRAINT "CHK_assessments_ruled_out"`);
    await q.query(`ALTER TABLE "assessments" DROP COLUMN "ruled_out"`);
  }
}
