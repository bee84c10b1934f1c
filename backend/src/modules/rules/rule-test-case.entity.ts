import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { Answers } from '@cds/engine';
import { User } from '../users/user.entity';
import { Rule } from './rule.entity';

export const OUTCOMES = ['true', 'false', 'unknown'] as const;
export type StoredOutcome = (typeof OUTCOMES)[number];

/** A saved example for a rule: these answers must give this outcome, or publishing is refused. */
@Entity('rule_test_cases')
@Check('CHK_rule_test_cases_name', `btrim("name") <> ''`)
@Check('CHK_rule_test_cases_answers', `jsonb_typeof("answers") = 'object'`)
@Check('CHK_rule_test_cases_expected', `"expected_outcome" IN ('true', 'false', 'unknown')`)
@Index('IDX_rule_test_cases_rule', ['rule_id'])
export class RuleTestCase {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  rule_id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'jsonb' })
  answers: Answers;

  @Column({ type: 'varchar', length: 7 })
  expected_outcome: StoredOutcome;

  /** The "today" that within_days conditions are measured from; the current time when null. */
  @Column({ type: 'timestamptz', nullable: true })
  reference_date: Date | null;

  @Column({ type: 'uuid', nullable: true })
  created_by: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated_at: Date;

  @ManyToOne(() => Rule, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'rule_id', foreignKeyConstraintName: 'FK_rule_test_cases_rule' })
  rule?: Rule;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'FK_rule_test_cases_created_by' })
  creator?: User | null;
}
