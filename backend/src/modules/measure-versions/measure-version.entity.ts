import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { MeasureDraftRuleJson, MeasureVersionStatus } from '@cds/contracts';
import { User } from '../users/user.entity';

/**
 * A quality measure's local version (issue 21): an administrator's population rules on the measure's shipped
 * record criteria, saved as the measure's one draft, then published with a change note. Version 1 is the CMS
 * definition the product ships; it lives in code, checked against the official decks, and has no row (a seeded
 * copy would be a second source that a product update of the shipped definition would not move).
 */
@Entity('measure_versions')
@Unique('UQ_measure_versions_number', ['measure_id', 'version'])
@Index('UQ_measure_versions_one_draft', ['measure_id'], { unique: true, where: `"status" = 'draft'` })
@Index('UQ_measure_versions_one_published', ['measure_id'], { unique: true, where: `"status" = 'published'` })
@Check('CHK_measure_versions_version', `"version" >= 2`)
@Check('CHK_measure_versions_status', `"status" IN ('draft', 'published', 'retired')`)
@Check('CHK_measure_versions_rules', `jsonb_typeof("rules") = 'array'`)
@Check('CHK_measure_versions_published', `"status" = 'draft' OR ("note" IS NOT NULL AND "published_at" IS NOT NULL)`)
export class MeasureVersion {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The FHIR Measure id of the shipped measure it changes. */
  @Column({ type: 'varchar', length: 128 })
  measure_id: string;

  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'varchar', length: 16 })
  status: MeasureVersionStatus;

  /** Moves on with every save of the draft: the optimistic check of an edit and of a publish. */
  @Column({ type: 'integer', default: 1 })
  revision: number;

  /** The population rules, as a draft gives them (published: every rule named). */
  @Column({ type: 'jsonb' })
  rules: MeasureDraftRuleJson[];

  /** Why the measure changed: required to publish. */
  @Column({ type: 'text', nullable: true })
  note: string | null;

  @Column({ type: 'uuid', nullable: true })
  created_by: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  @Column({ type: 'uuid', nullable: true })
  updated_by: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated_at: Date;

  @Column({ type: 'uuid', nullable: true })
  published_by: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  published_at: Date | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'FK_measure_versions_created_by' })
  creator?: User | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'updated_by', foreignKeyConstraintName: 'FK_measure_versions_updated_by' })
  updater?: User | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'published_by', foreignKeyConstraintName: 'FK_measure_versions_published_by' })
  publisher?: User | null;
}
