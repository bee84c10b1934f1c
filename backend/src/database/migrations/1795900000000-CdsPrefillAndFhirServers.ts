import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 11 (CDS Hooks): the FHIR servers each CDS client may send us to (anything else is refused,
 * never fetched), and the one-time prefill tickets behind a card's link: the prefetched values wait
 * here, so the link itself carries no patient data.
 */
export class CdsPrefillAndFhirServers1795900000000 implements MigrationInterface {
  name = 'CdsPrefillAndFhirServers1795900000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "cds_clients" ADD "allowed_fhir_servers" text array NOT NULL DEFAULT '{}'`);
    await q.query(`CREATE TABLE "cds_prefill_tickets" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "token_hash" varchar(64) NOT NULL,
      "issuer" varchar(500) NOT NULL,
      "answers" jsonb NOT NULL,
      "expires_at" timestamptz NOT NULL,
      "redeemed_at" timestamptz,
      "redeemed_by" uuid,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_cds_prefill_tickets" PRIMARY KEY ("id")
    )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_cds_prefill_tickets_token_hash" ON "cds_prefill_tickets" ("token_hash")`);
    await q.query(`CREATE INDEX "IDX_cds_prefill_tickets_expires_at" ON "cds_prefill_tickets" ("expires_at")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "cds_prefill_tickets"`);
    await q.query(`ALTER TABLE "cds_clients" DROP COLUMN "allowed_fhir_servers"`);
  }
}
