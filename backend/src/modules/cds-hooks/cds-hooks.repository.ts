import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RECORD_CONTEXT_TTL_MINUTES, type CdsPrefillValue, type RecordPatientJson } from '@cds/contracts';
import type { RecordContext } from '../assessments';
import { DataSource, EntityManager, In } from 'typeorm';
import { Batched } from '../../database/batched';
import { preparedQuery } from '../../database/prepared';
import { CdsCardIssued } from './cds-card-issued.entity';
import { CdsClient } from './cds-client.entity';

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

/** A hook call as it is recorded: its client JWT's id, and the generation of what it was evaluated with. */
export interface RecordedHookCall {
  generation: string;
  issuer: string;
  jti: string;
  jti_expires_at: Date;
}

/**
 * What a ticket holds: the values, and the record context they were read with. With a context, the values are
 * kept once in its row, however many tickets name it; a ticket without one keeps its own.
 */
export interface TicketContent {
  answers: readonly CdsPrefillValue[];
  context?: RecordContext | null;
}

/** A hook call as its batch's statement reads it: the call, its cards and tickets, and its record context's row (or nulls). */
interface HookCallRecord extends RecordedHookCall {
  service_id: string;
  cards: readonly IssuedCard[];
  token_hashes: string[];
  answers: readonly CdsPrefillValue[];
  expires_at: Date;
  sweep: boolean;
  context_id: string | null;
  patient: RecordPatientJson | null;
  history: RecordContext['history'] | null;
}

/** The record context's row id, and its patient and history as JSON text (null without a context). */
const contextParams = (context: RecordContext | null | undefined) =>
  context ? [randomUUID(), JSON.stringify(context.patient), JSON.stringify(context.history)] : [null, null, null];

/** A redeemed ticket. */
export interface RedeemedTicket {
  id: string;
  issuer: string;
  /** The ticket's own values, else its record context's; null only when neither row holds them. */
  answers: CdsPrefillValue[] | null;
  patient: RecordPatientJson | null;
  has_history: boolean;
  created_at: Date;
}

/**
 * Tickets are forgotten once expired and past the time a redeemed one's context may still be taken (a
 * ticket is redeemed before it expires), so a sweep never takes a context from under a clinician.
 */
const SWEEPABLE = `expires_at < now() - interval '${RECORD_CONTEXT_TTL_MINUTES} minutes'`;

/** How recording a hook call went: done; refused because what it read has changed since (nothing written); or its jti was used. */
export type HookCallOutcome = 'recorded' | 'stale' | 'replayed';

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

  /**
   * The generation of what hook calls read (bumped by every committed change to clients, rule sets,
   * versions and parameters) and every active client, in one snapshot.
   */
  async hookGenerationAndClients(): Promise<{ generation: string; clients: (VerifiableClient & { issuer: string })[] }> {
    const rows: { generation: string; clients: (VerifiableClient & { issuer: string })[] }[] = await this.db.query(
      `SELECT g.generation::text AS generation,
              coalesce((SELECT json_agg(json_build_object('issuer', c.issuer, 'jwks_url', c.jwks_url, 'jwk', c.jwk,
                                 'allowed_services', c.allowed_services, 'allowed_fhir_servers', c.allowed_fhir_servers))
                          FROM cds_clients c WHERE c.is_active), '[]'::json) AS clients
         FROM cds_hook_generation g`,
    );
    return rows[0];
  }

  /**
   * The generation alone: whether a copy is still current, for a call that must know before it acts on
   * it (a refusal, a fetch from a FHIR server). One row, one statement, instead of reading the copy again.
   */
  async hookGeneration(): Promise<string> {
    const rows = await preparedQuery<{ generation: string }>(
      this.db,
      'cds_hook_generation',
      `SELECT generation::text AS generation FROM cds_hook_generation`,
      [],
    );
    return rows[0].generation;
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

  // Hook calls: the client JWT id, the cards and their prefill tickets
  /** Hook calls that arrive while others are being recorded are recorded together (see Batched). */
  private readonly calls = new Batched<HookCallRecord, HookCallOutcome>((all) => this.recordHookCalls(all));

  /**
   * Records a hook call (the only write of a call whose copy of clients and published versions is current): only if
   * the generation is still the one the call was evaluated with, its jti is recorded (refused when already used and
   * unexpired); only then its cards and their prefill tickets (one per token hash, all naming the one record context
   * row written for the call, which holds their values once). All of it is written, or none. Expired jtis, tickets and
   * contexts are forgotten now and then (`sweep`), in the same statement, not on every call.
   */
  recordHookCall(
    call: RecordedHookCall,
    serviceId: string,
    cards: readonly IssuedCard[],
    tokenHashes: string[],
    ticket: TicketContent & { expires_at: Date },
    sweep: boolean,
  ): Promise<HookCallOutcome> {
    const [context_id, patient, history] = ticket.context
      ? [randomUUID(), ticket.context.patient, ticket.context.history]
      : [null, null, null];
    return this.calls.submit({
      ...call,
      service_id: serviceId,
      cards,
      token_hashes: tokenHashes,
      answers: ticket.answers,
      expires_at: ticket.expires_at,
      sweep,
      context_id,
      patient,
      history,
    });
  }

  /**
   * Several hook calls in one statement and one commit, prepared once per connection on PostgreSQL: each call as
   * `recordHookCall` says, on its own (a call is recorded or not whatever the others are); the outcome of each, in
   * order. One jti twice in a batch fails the statement (a row cannot be claimed twice in one), and Batched records
   * each call again on its own: the first then is recorded, the other replayed.
   */
  private async recordHookCalls(all: HookCallRecord[]): Promise<HookCallOutcome[]> {
    const rows = await preparedQuery<{ fresh: number[] | null; recorded: number[] | null }>(
      this.db,
      'cds_record_hook_call',
      `WITH current AS (SELECT generation FROM cds_hook_generation),
            c AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS c(n int, generation bigint, issuer text, jti text,
                    jti_expires_at timestamptz, service_id text, cards jsonb, token_hashes jsonb, answers jsonb,
                    expires_at timestamptz, sweep boolean, context_id uuid, patient jsonb, history jsonb)),
            jti AS (
              INSERT INTO cds_seen_jtis (issuer, jti, expires_at)
              SELECT issuer, jti, jti_expires_at FROM c WHERE c.generation = (SELECT generation FROM current)
                ON CONFLICT (issuer, jti) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE cds_seen_jtis.expires_at < now()
              RETURNING issuer, jti),
            rec AS (SELECT c.* FROM c JOIN jti USING (issuer, jti)),
            sweep AS (SELECT bool_or(sweep) AS now FROM c),
            swept_jtis AS (
              DELETE FROM cds_seen_jtis s WHERE (SELECT now FROM sweep) AND s.expires_at < now()
                 AND NOT EXISTS (SELECT 1 FROM c WHERE c.issuer = s.issuer AND c.jti = s.jti)),
            swept_tickets AS (DELETE FROM cds_prefill_tickets WHERE (SELECT now FROM sweep) AND ${SWEEPABLE}),
            swept_contexts AS (DELETE FROM cds_record_contexts WHERE (SELECT now FROM sweep) AND ${SWEEPABLE}),
            context AS (
              INSERT INTO cds_record_contexts (id, patient, history, answers, expires_at)
              SELECT context_id, coalesce(patient, 'null'), coalesce(history, 'null'), answers, expires_at FROM rec
               WHERE context_id IS NOT NULL AND jsonb_array_length(token_hashes) > 0),
            tickets AS (
              INSERT INTO cds_prefill_tickets (token_hash, issuer, answers, expires_at, context_id)
              SELECT h, rec.issuer, CASE WHEN rec.context_id IS NULL THEN rec.answers END, rec.expires_at, rec.context_id
                FROM rec, jsonb_array_elements_text(rec.token_hashes) AS h),
            cards AS (
              INSERT INTO cds_cards (uuid, issuer, service_id, rule_set_id, rule_id, rule_version, rule_set_version)
              SELECT x.uuid, rec.issuer, rec.service_id, x.rule_set_id, x.rule_id, x.rule_version, x.rule_set_version
                FROM rec, jsonb_to_recordset(rec.cards)
                  AS x(uuid uuid, rule_set_id uuid, rule_id uuid, rule_version integer, rule_set_version integer))
       SELECT (SELECT array_agg(n) FROM c WHERE c.generation = (SELECT generation FROM current)) AS fresh,
              (SELECT array_agg(n) FROM rec) AS recorded`,
      [JSON.stringify(all.map((call, n) => ({ ...call, n })))],
    );
    const fresh = new Set(rows[0].fresh ?? []);
    const recorded = new Set(rows[0].recorded ?? []);
    return all.map((_, n) => (!fresh.has(n) ? 'stale' : recorded.has(n) ? 'recorded' : 'replayed'));
  }

  // Prefill tickets

  /** One ticket on its own (the Panel's "Start assessment": a ticket for values read from the stored record, no hook call). */
  async insertPrefillTicket(tokenHash: string, issuer: string, ticket: TicketContent, expiresAt: Date): Promise<void> {
    await this.db.query(
      `WITH context AS (
         INSERT INTO cds_record_contexts (id, patient, history, answers, expires_at)
         SELECT $5::uuid, $6::jsonb, $7::jsonb, $3::jsonb, $4 WHERE $5::uuid IS NOT NULL)
       INSERT INTO cds_prefill_tickets (token_hash, issuer, answers, expires_at, context_id)
       VALUES ($1, $2, CASE WHEN $5::uuid IS NULL THEN $3::jsonb END, $4, $5::uuid)`,
      [tokenHash, issuer, JSON.stringify(ticket.answers), expiresAt, ...contextParams(ticket.context)],
    );
  }

  /** Marks an unexpired, unused ticket redeemed and returns its values; null when there is none. */
  async redeemPrefillTicket(tokenHash: string, userId: string): Promise<RedeemedTicket | null> {
    const rows: RedeemedTicket[] = await this.db.query(
      `WITH used AS (
         UPDATE cds_prefill_tickets SET redeemed_at = now(), redeemed_by = $2
          WHERE token_hash = $1 AND redeemed_at IS NULL AND expires_at > now()
          RETURNING id, issuer, answers, context_id, created_at)
       SELECT u.id, u.issuer, coalesce(u.answers, c.answers) AS answers, c.patient, c.id IS NOT NULL AS has_history, u.created_at
         FROM used u LEFT JOIN cds_record_contexts c ON c.id = u.context_id`,
      [tokenHash, userId],
    );
    return rows[0] ?? null;
  }

  /**
   * Ties a redeemed ticket's record context to an assessment, in one statement: only the clinician who
   * redeemed it, within RECORD_CONTEXT_TTL_MINUTES, and only once. Null when it cannot be.
   */
  async attachRecordContext(id: string, userId: string, assessmentId: string): Promise<RecordContext | null> {
    const rows: RecordContext[] = await this.db.query(
      `WITH taken AS (
         UPDATE cds_prefill_tickets SET assessment_id = $3
          WHERE id = $1 AND redeemed_by = $2 AND assessment_id IS NULL
            AND EXISTS (SELECT 1 FROM cds_record_contexts c WHERE c.id = cds_prefill_tickets.context_id)
            AND redeemed_at > now() - make_interval(mins => $4)
          RETURNING context_id)
       SELECT c.patient, c.history FROM taken JOIN cds_record_contexts c ON c.id = taken.context_id`,
      [id, userId, assessmentId, RECORD_CONTEXT_TTL_MINUTES],
    );
    return rows[0] ?? null;
  }

  async releaseRecordContext(id: string, assessmentId: string): Promise<void> {
    await this.db.query(`UPDATE cds_prefill_tickets SET assessment_id = NULL WHERE id = $1 AND assessment_id = $2`, [id, assessmentId]);
  }
}
