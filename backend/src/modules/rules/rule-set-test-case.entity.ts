import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { Answers } from '@cds/engine';
import { User } from '../users/user.entity';
import { RuleSet } from './rule-set.entity';

/**
 * A patient vignette saved on a rule set: these answers, run through every rule a PCP would get,
 * must fire exactly `expected_fired` with `expected_primary` on top, or publishing is refused.
 */
@Entity('rule_set_test_cases')
@Check('CHK_rule_set_test_cases_name', `btrim("name") <> ''`)
@Check('CHK_rule_set_test_cases_answers', `jsonb_typeof("answers") = 'object'`)
@Check('CHK_rule_set_test_cases_fired', `jsonb_typeof("expected_fired") = 'array'`)
@Index('IDX_rule_set_test_cases_rule_set', ['rule_set_id'])
export class RuleSetTestCase {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  rule_set_id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'jsonb' })
  answers: Answers;

  /** Rule ids. */
  @Column({ type: 'jsonb' })
  expected_fired: string[];

  /** Rule id of the expected primary recommendation; null when no rule should fire. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  expected_primary: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  reference_date: Date | null;

  @Column({ type: 'uuid', nullable: true })
  created_by: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated_at: Date;

  @ManyToOne(() => RuleSet, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'rule_set_id', foreignKeyConstraintName: 'FK_rule_set_test_cases_rule_set' })
  ruleSet?: RuleSet;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'FK_rule_set_test_cases_created_by' })
  creator?: User | null;
}
