import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CDS_PREFILL_TTL_MINUTES, type CdsPrefillJson, type CdsPrefillValue } from '@cds/contracts';
import { DomainError } from '../../common/errors';
import { RecordContexts, type RecordContext } from '../assessments';
import { CdsHooksRepository, type IssuedCard, type RecordedHookCall } from './cds-hooks.repository';
import { ReplayedJwt } from './client-jwt';
import { StaleSnapshot } from './hook-snapshot';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The issuer of tickets for values read from the stored record (the Panel), per user. */
export const RECORD_STORE_ISSUER = 'record-store:';

/**
 * One-time, short-lived tickets behind the links on CDS cards. The link holds only a random token;
 * the values stay here until a signed-in clinician redeems the ticket, once, within
 * CDS_PREFILL_TTL_MINUTES. A ticket also names its record context (whose values, and the results they
 * were read from; one row per hook call, however many cards), which the assessment started with it may take, once.
 */
@Injectable()
export class PrefillTickets implements RecordContexts {
  constructor(private readonly repo: CdsHooksRepository) {}

  /**
   * Records a hook call (its jti) with its cards (what feedback on each maps back to) and one ticket per
   * card for the same values, so each card's link works once: one statement, all written or none.
   * Returns the tokens, in the cards' order; throws StaleSnapshot when what the call was evaluated with
   * has changed since (nothing is written), and the replay refusal when its jti was already used.
   */
  async issueWithCards(
    call: RecordedHookCall,
    serviceId: string,
    values: readonly CdsPrefillValue[],
    cards: readonly IssuedCard[],
    context: RecordContext | null,
  ): Promise<string[]> {
    // One read of the random source for every card's token (a read per token was 3 % of a call's main thread).
    const random = randomBytes(24 * cards.length);
    const tokens = cards.map((_, i) => random.toString('base64url', 24 * i, 24 * (i + 1)));
    const expires_at = new Date(Date.now() + CDS_PREFILL_TTL_MINUTES * 60_000);
    // Forget expired ids and tickets now and then, not on every call.
    const outcome = await this.repo.recordHookCall(
      call,
      serviceId,
      cards,
      tokens.map(hash),
      { answers: values, context, expires_at },
      Math.random() < 0.05,
    );
    if (outcome === 'stale') throw new StaleSnapshot();
    if (outcome === 'replayed') throw new ReplayedJwt();
    return tokens;
  }

  /**
   * A ticket for values read from the stored record (the Panel's "Start assessment"): the same
   * one-time, short-lived ticket a card link carries, issued to `issuer` without a hook call.
   */
  async issue(issuer: string, values: readonly CdsPrefillValue[], context: RecordContext): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    await this.repo.insertPrefillTicket(
      hash(token),
      issuer,
      { answers: values, context },
      new Date(Date.now() + CDS_PREFILL_TTL_MINUTES * 60_000),
    );
    return token;
  }

  /** The values behind a ticket; a ticket unknown, expired or already used is 410. */
  async redeem(token: string, userId: string): Promise<CdsPrefillJson> {
    const row = await this.repo.redeemPrefillTicket(hash(token), userId);
    if (!row?.answers)
      throw new DomainError(
        'prefill_unavailable',
        `This link has expired or was already used. Links from the EHR work once, within ${CDS_PREFILL_TTL_MINUTES} minutes: open the card in the EHR again.`,
      );
    return {
      values: row.answers,
      issued_at: new Date(row.created_at).toISOString(),
      origin: row.issuer.startsWith(RECORD_STORE_ISSUER) ? 'record' : 'ehr',
      patient: row.patient,
      record_context: row.patient && row.has_history ? row.id : null,
    };
  }

  attach(ref: string, userId: string, assessmentId: string): Promise<RecordContext | null> {
    return this.repo.attachRecordContext(ref, userId, assessmentId);
  }

  release(ref: string, assessmentId: string): Promise<void> {
    return this.repo.releaseRecordContext(ref, assessmentId);
  }
}
