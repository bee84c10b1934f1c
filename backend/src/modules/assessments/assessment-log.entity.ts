import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Assessment, type DebugLogEntry } from './assessment.entity';

/**
 * The evaluation log of a start (step 0) or of one answer, appended in that request's own statement: the log is
 * never rewritten as it grows, and the assessment's row, which every answer rewrites, does not carry it.
 * Assessments started before this table keep their log in `assessments.debug_log`.
 */
@Entity('assessment_log')
@Check('CHK_assessment_log_entries', `jsonb_typeof("entries") = 'array'`)
export class AssessmentLog {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_assessment_log' })
  assessment_id: string;

  /** 0 for the start; else the step the answer was given at. */
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'PK_assessment_log' })
  step: number;

  @Column({ type: 'jsonb' })
  entries: DebugLogEntry[];

  // No foreign key (migration 1796850000000): only the statement that writes the assessment writes its log.
  @ManyToOne(() => Assessment, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'assessment_id' })
  assessment?: Assessment;
}
