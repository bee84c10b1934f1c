import type { CdsPrefillValue } from '@cds/contracts';
import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** An EHR (CDS client) allowed to call our CDS Hooks services: it signs each request with a key we can find. */
@Entity('cds_clients')
@Check('CHK_cds_clients_key', `("jwks_url" IS NOT NULL) <> ("jwk" IS NOT NULL)`)
@Check('CHK_cds_clients_issuer', `btrim("issuer") <> ''`)
export class CdsClient {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('UQ_cds_clients_issuer', { unique: true })
  @Column({ type: 'varchar', length: 500 })
  issuer!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ name: 'jwks_url', type: 'varchar', length: 2000, nullable: true })
  jwks_url!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  jwk!: Record<string, unknown> | null;

  @Column({ name: 'allowed_services', type: 'text', array: true })
  allowed_services!: string[];

  /** FHIR base URLs this client may name as fhirServer; any other is refused before a fetch. */
  @Column({ name: 'allowed_fhir_servers', type: 'text', array: true, default: () => "'{}'" })
  allowed_fhir_servers!: string[];

  @Column({ name: 'is_active', type: 'boolean', default: true })
  is_active!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updated_at!: Date;
}

/** A client JWT id already used: refused until its token has expired anyway. */
@Entity('cds_seen_jtis')
export class CdsSeenJti {
  @PrimaryColumn({ type: 'varchar', length: 500 })
  issuer!: string;

  @PrimaryColumn({ type: 'varchar', length: 500 })
  jti!: string;

  @Index('IDX_cds_seen_jtis_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expires_at!: Date;
}

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

  @Column({ type: 'jsonb' })
  answers!: CdsPrefillValue[];

  @Index('IDX_cds_prefill_tickets_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expires_at!: Date;

  @Column({ name: 'redeemed_at', type: 'timestamptz', nullable: true })
  redeemed_at!: Date | null;

  @Column({ name: 'redeemed_by', type: 'uuid', nullable: true })
  redeemed_by!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at!: Date;
}

/** A card as issued: its uuid maps feedback back to the rule and version it stands for (none for the undetermined card). */
@Entity('cds_cards')
export class CdsCardIssued {
  @PrimaryColumn({ type: 'uuid' })
  uuid!: string;

  @Column({ type: 'varchar', length: 500 })
  issuer!: string;

  @Column({ name: 'service_id', type: 'varchar', length: 100 })
  service_id!: string;

  @Index('IDX_cds_cards_rule_set_id')
  @Column({ name: 'rule_set_id', type: 'uuid', nullable: true })
  rule_set_id!: string | null;

  @Column({ name: 'rule_id', type: 'uuid', nullable: true })
  rule_id!: string | null;

  @Column({ name: 'rule_version', type: 'integer', nullable: true })
  rule_version!: number | null;

  @Column({ name: 'rule_set_version', type: 'integer', nullable: true })
  rule_set_version!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at!: Date;
}

/** The EHR's feedback on one card (CDS Hooks 2.0): accepted, or overridden with a reason and comment. */
@Entity('cds_feedback')
@Check('CHK_cds_feedback_outcome', `"outcome" IN ('accepted', 'overridden')`)
export class CdsFeedback {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('UQ_cds_feedback_card_uuid', { unique: true })
  @ManyToOne(() => CdsCardIssued, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'card_uuid', foreignKeyConstraintName: 'FK_cds_feedback_card' })
  card!: CdsCardIssued;

  @Column({ name: 'card_uuid', type: 'uuid' })
  card_uuid!: string;

  @Column({ type: 'varchar', length: 20 })
  outcome!: 'accepted' | 'overridden';

  @Column({ name: 'override_reason', type: 'jsonb', nullable: true })
  override_reason!: { system?: string; code?: string; display?: string } | null;

  @Column({ name: 'user_comment', type: 'text', nullable: true })
  user_comment!: string | null;

  @Column({ name: 'outcome_at', type: 'timestamptz' })
  outcome_at!: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at!: Date;
}

export const CDS_HOOKS_ENTITIES = [CdsClient, CdsSeenJti, CdsPrefillTicket, CdsCardIssued, CdsFeedback];
