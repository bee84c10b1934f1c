import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { CdsPrefillValue } from '@cds/contracts';
import { DataSource, EntityManager, In } from 'typeorm';
import { CdsCardIssued, CdsClient } from './cds-client.entity';

/** What a card stands for, kept when it is issued. */
export interface IssuedCard {
  uuid: string;
  rule_set_id: string | null;
  rule_id: string | null;
  rule_version: number | null;
  rule_set_version: number | null;
}

/** What the JWT verifier needs of a client. */
export type VerifiableClient = Pick<CdsClient, 'jwks_url' | 'jwk' | 'allowed_services' | 'allowed_fhir_servers'>;

/** The CDS Hooks tables: registered clients, seen JWT ids, issued cards and their feedback, prefill tickets. */
@Injectable()
export class CdsHooksRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  // Clients
  listClients(): Promise<CdsClient[]> {
    return this.db.getRepository(CdsClient).find({ order: { created_at: 'ASC', id: 'ASC' } });
  }

  findClient(where: { id: string } | { issuer: string }): Promise<CdsClient | null> {
    return this.db.getRepository(CdsClient).findOne({ where });
  }

  /**
   * The active client with this issuer, if any: what the JWT verifier needs, on every hook call. Read
   * fresh, so a deactivation in any API process counts at once; plain SQL, no query builder.
   */
  async activeClient(issuer: string): Promise<VerifiableClient | null> {
    const rows: VerifiableClient[] = await this.db.query(
      `SELECT jwks_url, jwk, allowed_services, allowed_fhir_servers FROM cds_clients WHERE issuer = $1 AND is_active`,
      [issuer],
    );
    return rows[0] ?? null;
  }

  saveClient(row: Partial<CdsClient>): Promise<CdsClient> {
    const repo = this.db.getRepository(CdsClient);
    return repo.save(repo.create(row));
  }

  async deleteClient(id: string): Promise<void> {
    await this.db.getRepository(CdsClient).delete({ id });
  }

  // Client JWT ids
  /**
   * Records a JWT id until it expires; false when it is already recorded and unexpired (a replay).
   * Expired ids are forgotten now and then (`sweep`), not on every request.
   */
  async recordJti(issuer: string, jti: string, expiresAt: Date, sweep: boolean): Promise<boolean> {
    if (sweep) await this.db.query(`DELETE FROM cds_seen_jtis WHERE expires_at < now()`);
    const rows: unknown[] = await this.db.query(
      `INSERT INTO cds_seen_jtis (issuer, jti, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (issuer, jti) DO UPDATE SET expires_at = EXCLUDED.expires_at
           WHERE cds_seen_jtis.expires_at < now()
       RETURNING jti`,
      [issuer, jti, expiresAt],
    );
    return rows.length > 0;
  }

  // Cards and feedback
  async issuedCardIds(m: EntityManager, uuids: string[], issuer: string, serviceId: string): Promise<Set<string>> {
    const known = await m
      .getRepository(CdsCardIssued)
      .find({ select: { uuid: true }, where: { uuid: In(uuids), issuer, service_id: serviceId } });
    return new Set(known.map((k) => k.uuid));
  }

  /** Inserts the feedback rows that are new; returns how many were (a card's feedback is recorded once). */
  async insertFeedback(
    m: EntityManager,
    items: { card_uuid: string; outcome: string; override_reason: unknown; user_comment: string | null | undefined; outcome_at: string }[],
  ): Promise<number> {
    const rows: { card_uuid: string }[] = await m.query(
      `INSERT INTO cds_feedback (card_uuid, outcome, override_reason, user_comment, outcome_at)
       SELECT * FROM jsonb_to_recordset($1::jsonb)
         AS x(card_uuid uuid, outcome varchar, override_reason jsonb, user_comment text, outcome_at timestamptz)
       ON CONFLICT (card_uuid) DO NOTHING
       RETURNING card_uuid`,
      [JSON.stringify(items)],
    );
    return rows.length;
  }

  // Prefill tickets
  /**
   * A hook call's cards and their prefill tickets (one per token hash, all for the same values), in one
   * statement: both are written or neither (plain SQL: on every hook call). Expired tickets are
   * forgotten now and then (`sweep`), in the same statement, not on every call.
   */
  async insertCardsAndTickets(
    serviceId: string,
    cards: readonly IssuedCard[],
    tokenHashes: string[],
    ticket: { issuer: string; answers: readonly CdsPrefillValue[]; expires_at: Date },
    sweep: boolean,
  ): Promise<void> {
    await this.db.query(
      `WITH swept AS (DELETE FROM cds_prefill_tickets WHERE $7::boolean AND expires_at < now()),
            tickets AS (
              INSERT INTO cds_prefill_tickets (token_hash, issuer, answers, expires_at)
              SELECT h, $2, $5::jsonb, $6 FROM unnest($4::text[]) AS h)
       INSERT INTO cds_cards (uuid, issuer, service_id, rule_set_id, rule_id, rule_version, rule_set_version)
       SELECT uuid, $2, $3, rule_set_id, rule_id, rule_version, rule_set_version
         FROM jsonb_to_recordset($1::jsonb) AS x(uuid uuid, rule_set_id uuid, rule_id uuid, rule_version integer, rule_set_version integer)`,
      [JSON.stringify(cards), ticket.issuer, serviceId, tokenHashes, JSON.stringify(ticket.answers), ticket.expires_at, sweep],
    );
  }

  /** Marks an unexpired, unused ticket redeemed and returns its values; null when there is none. */
  async redeemPrefillTicket(tokenHash: string, userId: string): Promise<{ answers: CdsPrefillValue[]; created_at: Date } | null> {
    const rows: { answers: CdsPrefillValue[]; created_at: Date }[] = await this.db.query(
      `WITH used AS (
         UPDATE cds_prefill_tickets SET redeemed_at = now(), redeemed_by = $2
          WHERE token_hash = $1 AND redeemed_at IS NULL AND expires_at > now()
          RETURNING answers, created_at)
       SELECT answers, created_at FROM used`,
      [tokenHash, userId],
    );
    return rows[0] ?? null;
  }
}
