import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 22: a hook call's record context (the patient and the results its values were read from, ~2 kB) was
 * copied onto every card's prefill ticket, so the call's one recording statement wrote and TOAST-compressed it
 * once per card (3.6 times per call in bench:cds). It is now a row of its own that the call's tickets name;
 * each ticket is still redeemed and attached once. Existing tickets' contexts move to a row each (the ticket's
 * id is reused as the context's); down copies them back onto their tickets.
 *
 * No foreign key: a context and its tickets expire together and are swept together (a key would need an
 * index on `context_id`, one more per ticket written), and a ticket naming a context no longer there reads
 * as one without a context, as before issue 20.
 */
export class RecordContextOncePerCall1796910000000 implements MigrationInterface {
  name = 'RecordContextOncePerCall1796910000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "cds_record_contexts" (
      "id" uuid NOT NULL,
      "patient" jsonb NOT NULL,
      "history" jsonb NOT NULL,
      "expires_at" timestamptz NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_cds_record_contexts" PRIMARY KEY ("id")
    )`);
    await q.query(`CREATE INDEX "IDX_cds_record_contexts_expires_at" ON "cds_record_contexts" ("expires_at")`);
    await q.query(`ALTER TABLE "cds_prefill_tickets" ADD "context_id" uuid`);
    await q.query(
      `INSERT INTO "cds_record_contexts" ("id", "patient", "history", "expires_at", "created_at")
       SELECT "id", "patient", "history", "expires_at", "created_at" FROM "cds_prefill_tickets"
        WHERE "patient" IS NOT NULL AND "history" IS NOT NULL`,
    );
    await q.query(`UPDATE "cds_prefill_tickets" SET "context_id" = "id" WHERE "patient" IS NOT NULL AND "history" IS NOT NULL`);
    await q.query(`ALTER TABLE "cds_prefill_tickets" DROP COLUMN "history"`);
    await q.query(`ALTER TABLE "cds_prefill_tickets" DROP COLUMN "patient"`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "cds_prefill_tickets" ADD "patient" jsonb`);
    await q.query(`ALTER TABLE "cds_prefill_tickets" ADD "history" jsonb`);
    await q.query(
      `UPDATE "cds_prefill_tickets" t SET "patient" = c."patient", "history" = c."history"
         FROM "cds_record_contexts" c WHERE c."id" = t."context_id"`,
    );
    await q.query(`ALTER TABLE "cds_prefill_tickets" DROP COLUMN "context_id"`);
    await q.query(`DROP TABLE "cds_record_contexts"`);
  }
}
