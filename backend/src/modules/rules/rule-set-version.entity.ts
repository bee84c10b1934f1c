import { Check, Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { WarningAcknowledgementJson } from '@cds/contracts';
import type { EngineParameter, EngineRule } from '@cds/engine';
import { User } from '../users/user.entity';
import { RuleSet } from './rule-set.entity';

/**
 * A published, immutable snapshot of a rule set: its active rules and the parameters they
 * reference, as they were. A database trigger refuses any UPDATE of a row.
 */
@Entity('rule_set_versions')
@Unique('UQ_rule_set_versions_number', ['rule_set_id', 'number'])
@Check('CHK_rule_set_versions_number', `"number" >= 1`)
@Check('CHK_rule_set_versions_rules', `jsonb_typeof("rules") = 'array'`)
@Check('CHK_rule_set_versions_parameters', `jsonb_typeof("parameters") = 'array'`)
export class RuleSetVersion {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  rule_set_id: string;

  @Column({ type: 'integer' })
  number: number;

  /** The rule set's name when it was published. */
  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** SHA-256 of the canonical JSON of { rules, parameters }. */
  @Column({ type: 'char', length: 64 })
  content_hash: string;

  @Column({ type: 'jsonb' })
  rules: EngineRule[];

  @Column({ type: 'jsonb' })
  parameters: EngineParameter[];

  /** The rule set's source when it was published. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  source: string | null;

  /** The warnings acknowledged to publish this version: who, when and why. */
  @Column({ type: 'jsonb', nullable: true })
  warning_acknowledgement: WarningAcknowledgementJson | null;

  @Column({ type: 'uuid', nullable: true })
  published_by: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  published_at: Date;

  @ManyToOne(() => RuleSet, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'rule_set_id', foreignKeyConstraintName: 'FK_rule_set_versions_rule_set' })
  ruleSet?: RuleSet;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'published_by', foreignKeyConstraintName: 'FK_rule_set_versions_published_by' })
  publisher?: User | null;
}
