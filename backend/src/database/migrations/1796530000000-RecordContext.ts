import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 20: a prefill ticket keeps whose values it carries and the results they were read from (the
 * Panel's stored record, or the EHR's Observations in a hook call), and the assessment started with it
 * takes a copy, once: its case detail names the patient and plots each parameter's history as it was
 * read. Nullable: tickets and assessments without a context stay as they were.
 */
export class RecordContext1796530000000 implements MigrationInterface {
  name = 'RecordContext1796530000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "cds_prefill_tickets" ADD "patient" jsonb`);
    await q.query(`ALTER TABLE "cds_prefill_tickets" ADD "history" jsonb`);
    await q.query(`ALTER TABLE "cds_prefill_tickets" ADD "assessment_id" uuid`);
    await q.query(`ALTER TABLE "assessments" ADD "record_patient" jsonb`);
    await q.query(`ALTER TABLE "assessments" ADD "record_history" jsonb`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "assessments" DROP COLUMN "record_history"`);
    await q.query(`ALTER TABLE "assessments" DROP COLUMN "record_patient"`);
    await q.query(`ALTER TABLE "cds_prefill_tickets" DROP COLUMN "assessment_id"`);
    await q.query(`ALTER TABLE "cds_prefill_tickets" DROP COLUMN "history"`);
    await q.query(`ALTER TABLE "cds_prefill_tickets" DROP COLUMN "patient"`);
  }
}
