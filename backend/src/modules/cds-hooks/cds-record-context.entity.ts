import type { CdsPrefillValue, RecordPatientJson } from '@cds/contracts';
import type { RecordHistorySnapshot } from '../assessments';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The record context of a hook call (or of the Panel's "Start assessment"): whose values its tickets carry
 * and the results they were read from, kept once however many card tickets name it. Forgotten with them:
 * it expires when they do.
 */
@Entity('cds_record_contexts')
export class CdsRecordContext {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'jsonb' })
  patient!: RecordPatientJson;

  @Column({ type: 'jsonb' })
  history!: RecordHistorySnapshot;

  /** The values its tickets carry (the same for every card of a call); null on contexts written before they were kept here. */
  @Column({ type: 'jsonb', nullable: true })
  answers!: CdsPrefillValue[] | null;

  @Index('IDX_cds_record_contexts_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expires_at!: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  created_at!: Date;
}
