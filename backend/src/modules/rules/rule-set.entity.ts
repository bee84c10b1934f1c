import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../users/user.entity';

@Entity('rule_sets')
@Check('CHK_rule_sets_name', `btrim("name") <> ''`)
@Check('CHK_rule_sets_version', `"version" >= 1`)
@Index('IDX_rule_sets_created_at', ['created_at'])
@Index('UQ_rule_sets_content_pack', { synchronize: false })
export class RuleSet {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** The guideline the rule set follows; a rule without its own source cites this one. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  source: string | null;

  @Column({ type: 'boolean', default: true })
  is_active: boolean;

  @Column({ type: 'boolean', default: false })
  is_published: boolean;

  @Column({ type: 'boolean', default: false })
  is_template: boolean;

  /** The shipped content pack this template installs (`rules/content/`); null for every other set. */
  @Column({ type: 'varchar', length: 50, nullable: true })
  content_pack: string | null;

  /** The number of the latest published version (1 until the first publish). */
  @Column({ type: 'integer', default: 1 })
  version: number;

  @Column({ type: 'uuid', nullable: true })
  created_by: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated_at: Date;

  /** Soft delete: published versions stay, since past assessments point at them. */
  @Column({ type: 'timestamptz', nullable: true })
  deleted_at: Date | null;

  @Column({ type: 'uuid', nullable: true })
  deleted_by: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'FK_rule_sets_created_by' })
  creator?: User | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'deleted_by', foreignKeyConstraintName: 'FK_rule_sets_deleted_by' })
  deleter?: User | null;
}
