import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { ImpactGroupJson, RuleChangeJson } from '@cds/contracts';
import { RuleSetVersion } from '../rules/rule-set-version.entity';
import { RuleSet } from '../rules/rule-set.entity';
import { User } from '../users/user.entity';

/**
 * What publishing a rule set's draft would do to the reference populations, as shown to the
 * admin. Publishing names it; it is then kept with the version it led to (`version_id`).
 */
@Entity('rule_set_impact_previews')
@Check('CHK_rule_set_impact_previews_groups', `jsonb_typeof("groups") = 'array'`)
@Check('CHK_rule_set_impact_previews_changes', `jsonb_typeof("changes") = 'array'`)
@Index('IDX_rule_set_impact_previews_rule_set', ['rule_set_id', 'created_at'])
@Index('UQ_rule_set_impact_previews_version', ['version_id'], { unique: true })
@Index('IDX_rule_set_impact_previews_unreferenced', ['created_at'], { where: '"version_id" IS NULL' })
export class ImpactPreview {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  rule_set_id: string;

  /** contentHash() of the draft previewed. */
  @Column({ type: 'char', length: 64 })
  draft_hash: string;

  /** Number of the published version compared against; null when none. */
  @Column({ type: 'integer', nullable: true })
  base_version: number | null;

  @Column({ type: 'integer' })
  seed: number;

  @Column({ type: 'jsonb' })
  groups: ImpactGroupJson[];

  /** What the draft changes per rule, old → new. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  changes: RuleChangeJson[];

  /**
   * Hash of the other active rule sets' published version ids when the preview was made: the
   * recorded patients are classified by the combination, so another set's publish makes it stale.
   * Null for previews stored before it was recorded (always stale).
   */
  @Column({ type: 'char', length: 64, nullable: true })
  combination_hash: string | null;

  @Column({ type: 'integer' })
  elapsed_ms: number;

  @Column({ type: 'uuid', nullable: true })
  created_by: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  /** The version published with this preview. */
  @Column({ type: 'uuid', nullable: true })
  version_id: string | null;

  @ManyToOne(() => RuleSet, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'rule_set_id', foreignKeyConstraintName: 'FK_rule_set_impact_previews_rule_set' })
  ruleSet?: RuleSet;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'FK_rule_set_impact_previews_created_by' })
  creator?: User | null;

  @ManyToOne(() => RuleSetVersion, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'version_id', foreignKeyConstraintName: 'FK_rule_set_impact_previews_version' })
  version?: RuleSetVersion | null;
}
