import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type {
  AnswerDetailJson,
  DebugLogEntryJson,
  FindingJson,
  QuestionJson,
  RuledOutJson,
  RecordPatientJson,
  RuleSetVersionRefJson,
  UndeterminedRuleJson,
} from '@cds/contracts';
import type { Answers } from '@cds/engine';
import { User } from '../users/user.entity';
import type { RecordHistorySnapshot } from './record-context';

/** A published rule-set version an assessment or chat session was decided with. */
export type VersionRef = RuleSetVersionRefJson;
export type DebugLogEntry = DebugLogEntryJson;

/** The question as it was put to the clinician: the answer is checked against exactly this. */
export type AskedQuestion = QuestionJson;

/**
 * A clinical assessment, persisted so PCPs keep a case history. It is decided only with the
 * rule-set versions it started with: later edits and publishes never change it.
 */
@Entity('assessments')
@Check('CHK_assessments_step', `"step" >= 1`)
@Check('CHK_assessments_answers', `jsonb_typeof("answers") = 'object'`)
@Check(
  'CHK_assessments_lists',
  `jsonb_typeof("rule_set_versions") = 'array' AND jsonb_typeof("completed_parameter_ids") = 'array' AND jsonb_typeof("answer_details") = 'array' AND jsonb_typeof("undetermined_rules") = 'array' AND jsonb_typeof("debug_log") = 'array' AND jsonb_typeof("findings") = 'array'`,
)
@Check('CHK_assessments_ruled_out', `jsonb_typeof("ruled_out") = 'array'`)
@Check('CHK_assessments_findings', `"findings" = '[]'::jsonb OR "is_completed"`)
@Check(
  'CHK_assessments_completion',
  `"is_completed" = ("completed_at" IS NOT NULL) AND "is_completed" = ("current_parameter_id" IS NULL) AND ("recommendation" IS NULL OR "is_completed")`,
)
@Index('IDX_assessments_user_created', ['user_id', 'created_at'])
@Index('IDX_assessments_created', ['created_at'])
// GIN (jsonb_path_ops) on rule_set_versions, for analytics by rule set; invisible to TypeORM.
@Index('IDX_assessments_rule_set_versions', { synchronize: false })
export class Assessment {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  user_id: string;

  @Column({ type: 'jsonb' })
  rule_set_versions: VersionRef[];

  /** Keyed by parameter id. */
  @Column({ type: 'jsonb', default: () => `'{}'` })
  answers: Answers;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  completed_parameter_ids: string[];

  @Column({ type: 'jsonb', default: () => `'[]'` })
  answer_details: AnswerDetailJson[];

  @Column({ type: 'uuid', nullable: true })
  current_parameter_id: string | null;

  @Column({ type: 'jsonb', nullable: true })
  current_question: AskedQuestion | null;

  /** 1 + the number of answers; an answer only applies to the step it was read at. */
  @Column({ type: 'integer', default: 1 })
  step: number;

  @Column({ type: 'boolean', default: false })
  is_completed: boolean;

  /** The primary card: findings[0] when the assessment completed with one. */
  @Column({ type: 'jsonb', nullable: true })
  recommendation: FindingJson | null;

  /** Every rule that fired, ranked as the engine ranks them. */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  findings: FindingJson[];

  @Column({ type: 'jsonb', default: () => `'[]'` })
  undetermined_rules: UndeterminedRuleJson[];

  /** With no finding: what the answers ruled out, as the physician was shown it. */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  ruled_out: RuledOutJson[];

  @Column({ type: 'jsonb', default: () => `'[]'` })
  debug_log: DebugLogEntry[];

  /** Whose values it was started with (a prefill's record context); null when started without one. */
  @Column({ type: 'jsonb', nullable: true })
  record_patient: RecordPatientJson | null;

  /** The results those values were read from, as read then (the EHR is not read again). */
  @Column({ type: 'jsonb', nullable: true })
  record_history: RecordHistorySnapshot | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated_at: Date;

  @Column({ type: 'timestamptz', nullable: true })
  completed_at: Date | null;

  // RESTRICT: deleting a user must never silently take a clinical record with it.
  @ManyToOne(() => User, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_assessments_user' })
  user?: User;
}
