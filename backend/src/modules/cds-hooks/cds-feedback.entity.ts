import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { CdsCardIssued } from './cds-card-issued.entity';

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
