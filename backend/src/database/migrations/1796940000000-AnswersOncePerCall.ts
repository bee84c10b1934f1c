import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 22: a hook call's prefill values (~870 bytes in bench:cds) were still copied onto every card's ticket,
 * though every ticket of a call carries the same ones. They are now kept once, in the call's record context
 * row; a ticket keeps its own only when it has no context. Existing tickets keep theirs (a ticket's own values
 * are read first), so nothing moves on the way up; down copies a context's values back onto its tickets.
 */
export class AnswersOncePerCall1796940000000 implements MigrationInterface {
  name = 'AnswersOncePerCall1796940000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "cds_record_contexts" ADD "answers" jsonb`);
    await q.query(`ALTER TABLE "cds_prefill_tickets" ALTER COLUMN "answers" DROP NOT NULL`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE "cds_prefill_tickets" t SET "answers" = c."answers"
         FROM "cds_record_contexts" c WHERE c."id" = t."context_id" AND t."answers" IS NULL`,
    );
    // A ticket whose context was already swept has expired: it is never redeemed, whatever it holds.
    await q.query(`UPDATE "cds_prefill_tickets" SET "answers" = '[]' WHERE "answers" IS NULL`);
    await q.query(`ALTER TABLE "cds_prefill_tickets" ALTER COLUMN "answers" SET NOT NULL`);
    await q.query(`ALTER TABLE "cds_record_contexts" DROP COLUMN "answers"`);
  }
}
