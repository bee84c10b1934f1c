import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 11 (CDS Hooks): the registered CDS clients (issuer, JWKS URL or one public JWK, the
 * services each may call) and the client-JWT ids already seen, kept until they expire so a
 * replayed token is refused.
 */
export class CdsClients1795840000000 implements MigrationInterface {
  name = 'CdsClients1795840000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "cds_clients" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "issuer" varchar(500) NOT NULL,
      "name" varchar(200) NOT NULL,
      "jwks_url" varchar(2000),
      "jwk" jsonb,
      "allowed_services" text array NOT NULL,
      "is_active" boolean NOT NULL DEFAULT true,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_cds_clients" PRIMARY KEY ("id"),
      CONSTRAINT "CHK_cds_clients_key" CHECK (("jwks_url" IS NOT NULL) <> ("jwk" IS NOT NULL)),
      CONSTRAINT "CHK_cds_clients_issuer" CHECK (btrim("issuer") <> '')
    )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_cds_clients_issuer" ON "cds_clients" ("issuer")`);
    await q.query(`CREATE TABLE "cds_seen_jtis" (
      "issuer" varchar(500) NOT NULL,
      "jti" varchar(500) NOT NULL,
      "expires_at" timestamptz NOT NULL,
      CONSTRAINT "PK_cds_seen_jtis" PRIMARY KEY ("issuer", "jti")
    )`);
    await q.query(`CREATE INDEX "IDX_cds_seen_jtis_expires_at" ON "cds_seen_jtis" ("expires_at")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "cds_seen_jtis"`);
    await q.query(`DROP TABLE "cds_clients"`);
  }
}
