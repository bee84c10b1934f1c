import { MigrationInterface, QueryRunner } from 'typeorm';

export class Invitations1795650000000 implements MigrationInterface {
  name = 'Invitations1795650000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "invitations" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "email" varchar(254) NOT NULL,
      "role" varchar(20),
      "token_hash" char(64) NOT NULL,
      "invited_by" uuid,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "expires_at" timestamptz NOT NULL,
      "accepted_at" timestamptz,
      "accepted_user_id" uuid,
      "revoked_at" timestamptz,
      CONSTRAINT "PK_invitations" PRIMARY KEY ("id"),
      CONSTRAINT "UQ_invitations_token_hash" UNIQUE ("token_hash"),
      CONSTRAINT "CHK_invitations_role" CHECK ("role" IS NULL OR "role" IN ('admin', 'super_admin', 'pcp')),
      CONSTRAINT "CHK_invitations_email_lower" CHECK ("email" = lower("email")),
      CONSTRAINT "FK_invitations_invited_by" FOREIGN KEY ("invited_by") REFERENCES "users"("id") ON DELETE SET NULL,
      CONSTRAINT "FK_invitations_accepted_user" FOREIGN KEY ("accepted_user_id") REFERENCES "users"("id") ON DELETE SET NULL
    )`);
    // One open invitation per address: a second invite while one is pending is refused.
    await q.query(
      `CREATE UNIQUE INDEX "UQ_invitations_open_email" ON "invitations" ("email") WHERE "accepted_at" IS NULL AND "revoked_at" IS NULL`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "invitations"`);
  }
}
