import type { CdsPrefillValue } from '@cds/contracts';
import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The values a card's link opens the clinical assessment with: one-time, short-lived, found by the
 * SHA-256 of the token in the link (the link carries no patient data, the table no usable token).
 */
@Entity('cds_prefill_tickets')
export class CdsPrefillTicket {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('UQ_cds_prefill_tickets_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  token_hash!: string;

  @Column({ type: 'varchar', length: 500 })
  issuer!: string;

  /** The values, on a ticket without a record context; a ticket with one reads them from it (kept once per call). */
  @Column({ type: 'jsonb', nullable: true })
  answers!: CdsPrefillValue[] | null;

  @Index('IDX_cds_prefill_tickets_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expires_at!: Date;

  @Column({ name: 'redeemed_at', type: 'timestamptz', nullable: true })
  redeemed_at!: Date | null;

  @Column({ name: 'redeemed_by', type: 'uuid', nullable: true })
  redeemed_by!: string | null;

  /** The record context the values were read with (`cds_record_contexts`, one per hook call); null on tickets without one. */
  @Column({ name: 'context_id', type: 'uuid', nullable: true })
  context_id!: string | null;

  /** The assessment that took the record context (once). */
  @Column({ name: 'assessment_id', type: 'uuid', nullable: true })
  assessment_id!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at!: Date;
}
