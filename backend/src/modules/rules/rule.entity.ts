import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { Action, Condition } from '@cds/engine';
import { User } from '../users/user.entity';
import { RuleSet } from './rule-set.entity';

export const RULE_PRIORITY_MIN = 0;
export const RULE_PRIORITY_MAX = 100;

@Entity('rules')
@Check('CHK_rules_name', `btrim("name") <> ''`)
@Check('CHK_rules_priority', `"priority" BETWEEN 0 AND 100`)
@Check('CHK_rules_conditions', `jsonb_typeof("conditions") = 'array'`)
@Check('CHK_rules_actions', `jsonb_typeof("actions") = 'array'`)
@Index('IDX_rules_rule_set_priority', ['rule_set_id', 'priority'])
export class Rule {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  rule_set_id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'integer', default: 0 })
  priority: number;

  /** Stored normalised: `parameter` holds the parameter id, `logic` is AND or OR. */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  conditions: Condition[];

  @Column({ type: 'jsonb', default: () => `'[]'` })
  actions: Action[];

  @Column({ type: 'boolean', default: true })
  is_active: boolean;

  /** The guideline the rule follows, e.g. "ADA Standards of Care in Diabetes—2026, Section 2". */
  @Column({ type: 'varchar', length: 500, nullable: true })
  source: string | null;

  @Column({ type: 'uuid', nullable: true })
  created_by: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated_at: Date;

  @ManyToOne(() => RuleSet, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'rule_set_id', foreignKeyConstraintName: 'FK_rules_rule_set' })
  ruleSet?: RuleSet;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'FK_rules_created_by' })
  creator?: User | null;
}
