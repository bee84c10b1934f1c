import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { conflict, DomainError } from '../../common/errors';
import type { CheckedBody } from './checked-body';
import { CdsHooksRepository } from './cds-hooks.repository';
import { ClientJwtVerifier } from './client-jwt';
import type { FeedbackItem } from './feedback';
import { PATIENT_VIEW, unknownService } from './hook-request';

/** The EHR's feedback on issued cards (accepted or overridden); cards are recorded with their prefill tickets. */
@Injectable()
export class CardFeedback {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: CdsHooksRepository,
    private readonly jwt: ClientJwtVerifier,
  ) {}

  /**
   * Feedback sent to service `serviceId`: the client JWT first (spent once, whatever follows), then the service,
   * then the body its pipe checked. `audiences`: the URLs the token's aud may name.
   */
  async receive(
    authorization: string | undefined,
    serviceId: string,
    audiences: string[],
    feedback: CheckedBody<FeedbackItem[]>,
  ): Promise<void> {
    const caller = await this.jwt.verifyOnce(authorization, serviceId, audiences);
    if (serviceId !== PATIENT_VIEW) throw unknownService(serviceId);
    await this.record(caller.issuer, serviceId, feedback.get());
  }

  /** Records every item or none: each card must be one this service issued to this client, with no feedback yet. */
  async record(issuer: string, serviceId: string, items: readonly FeedbackItem[]): Promise<void> {
    await this.db.transaction(async (m) => {
      const ids = await this.repo.issuedCardIds(
        m,
        items.map((i) => i.card),
        issuer,
        serviceId,
      );
      const unknown = items.find((i) => !ids.has(i.card));
      if (unknown) throw new DomainError('not_found', `No card ${unknown.card} was returned to this client by ${serviceId}`);
      const inserted = await this.repo.insertFeedback(
        m,
        items.map((i) => ({
          card_uuid: i.card,
          outcome: i.outcome,
          override_reason: i.override_reason,
          user_comment: i.user_comment,
          outcome_at: i.outcome_at.toISOString(),
        })),
      );
      if (inserted !== items.length) throw conflict('Feedback on one of these cards was already recorded');
    });
  }
}
