import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1795420800000 implements MigrationInterface {
  name = 'Foundation1795420800000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "users" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "email" varchar(254) NOT NULL,
      "password_hash" text,
      "google_sub" varchar(255),
      "email_confirmed_at" timestamptz,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_users" PRIMARY KEY ("id"),
      CONSTRAINT "UQ_users_email" UNIQUE ("email"),
      CONSTRAINT "UQ_users_google_sub" UNIQUE ("google_sub"),
      CONSTRAINT "CHK_users_email_lower" CHECK ("email" = lower("email"))
    )`);
    await q.query(`CREATE TABLE "user_roles" (
      "user_id" uuid NOT NULL,
      "role" varchar(20) NOT NULL,
      "granted_by" uuid,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_user_roles" PRIMARY KEY ("user_id"),
      CONSTRAINT "CHK_user_roles_role" CHECK ("role" IN ('admin', 'super_admin', 'pcp')),
      CONSTRAINT "FK_user_roles_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE,
      CONSTRAINT "FK_user_roles_granted_by" FOREIGN KEY ("granted_by") REFERENCES "users"("id") ON DELETE SET NULL
    )`);
    await q.query(`CREATE TABLE "profiles" (
      "id" uuid NOT NULL,
      "first_name" varchar(100),
      "last_name" varchar(100),
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_profiles" PRIMARY KEY ("id"),
      CONSTRAINT "FK_profiles_user" FOREIGN KEY ("id") REFERENCES "users"("id") ON DELETE CASCADE
    )`);
    await q.query(`CREATE TABLE "user_approvals" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "user_id" uuid NOT NULL,
      "requested_role" varchar(20) NOT NULL,
      "status" varchar(20) NOT NULL DEFAULT 'pending',
      "decided_by" uuid,
      "decided_at" timestamptz,
      "reason" text,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_user_approvals" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_user_approvals_role" CHECK ("requested_role" IN ('admin', 'super_admin', 'pcp')),
      CONSTRAINT "CHK_user_approvals_status" CHECK ("status" IN ('pending', 'approved', 'rejected')),
      CONSTRAINT "CHK_user_approvals_decision" CHECK (("status" = 'pending') = ("decided_at" IS NULL)),
      CONSTRAINT "FK_user_approvals_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE,
      CONSTRAINT "FK_user_approvals_decided_by" FOREIGN KEY ("decided_by") REFERENCES "users"("id") ON DELETE SET NULL
    )`);
    // At most one pending request per user: a double click cannot queue two.
    await q.query(`CREATE UNIQUE INDEX "UQ_user_approvals_pending" ON "user_approvals" ("user_id") WHERE "status" = 'pending'`);
    await q.query(`CREATE INDEX "IDX_user_approvals_status_created" ON "user_approvals" ("status", "created_at")`);
    await q.query(`CREATE TABLE "auth_sessions" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "user_id" uuid NOT NULL,
      "revoked_at" timestamptz,
      "revoked_reason" varchar(40),
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_auth_sessions" PRIMARY KEY ("id"),
      CONSTRAINT "FK_auth_sessions_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE
    )`);
    await q.query(`CREATE INDEX "IDX_auth_sessions_user" ON "auth_sessions" ("user_id")`);
    await q.query(`CREATE TABLE "refresh_tokens" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "session_id" uuid NOT NULL,
      "token_hash" char(64) NOT NULL,
      "spent_at" timestamptz,
      "expires_at" timestamptz NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_refresh_tokens" PRIMARY KEY ("id"),
      CONSTRAINT "UQ_refresh_tokens_hash" UNIQUE ("token_hash"),
      CONSTRAINT "FK_refresh_tokens_session" FOREIGN KEY ("session_id") REFERENCES "auth_sessions"("id") ON DELETE CASCADE
    )`);
    await q.query(`CREATE INDEX "IDX_refresh_tokens_session" ON "refresh_tokens" ("session_id")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "refresh_tokens"`);
    await q.query(`DROP TABLE "auth_sessions"`);
    await q.query(`DROP TABLE "user_approvals"`);
    await q.query(`DROP TABLE "profiles"`);
    await q.query(`DROP TABLE "user_roles"`);
    await q.query(`DROP TABLE "users"`);
  }
}
