import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 11 (CDS Hooks feedback): every card issued, with the rule and version it stands for, and
 * the EHR's feedback on it (accepted or overridden, the override reason and the clinician's comment).
 */
export class CdsFeedback1795900000001 implements MigrationInterface {
  name = 'CdsFeedback1795900000001';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "cds_cards" (
      "uuid" uuid NOT NULL,
      "issuer" varchar(500) NOT NULL,
      "service_id" varchar(100) NOT NULL,
      "rule_set_id" uuid,
      "rule_id" uuid,
      "rule_version" integer,
      "rule_set_version" integer,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_cds_cards" PRIMARY KEY ("uuid")
    )`);
    await q.query(`CREATE INDEX "IDX_cds_cards_rule_set_id" ON "cds_cards" ("rule_set_id")`);
    await q.query(`CREATE TABLE "cds_feedback" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "card_uuid" uuid NOT NULL,
      "outcome" varchar(20) NOT NULL,
      "override_reason" jsonb,
      "user_comment" text,
      "outcome_at" timestamptz NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_cds_feedback" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_cds_feedback_outcome" CHECK ("outcome" IN ('accepted', 'overridden')),
      CONSTRAINT "FK_cds_feedback_card" FOREIGN KEY ("card_uuid") REFERENCES "cds_cards"("uuid") ON DELETE CASCADE
    )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_cds_feedback_card_uuid" ON "cds_feedback" ("card_uuid")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "cds_feedback"`);
    await q.query(`DROP TABLE "cds_cards"`);
  }
}
