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

  @ManyToOne(() => Assessment, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'assessment_id', foreignKeyConstraintName: 'FK_assessment_log_assessment' })
  assessment?: Assessment;
}

/**
 * One counter that every write to the parameters, the rule sets and their versions moves on at its commit
 * (database triggers: migration 1796610000000). What an API process keeps of them is kept with the
 * generation it was read at, and a write decided with it applies only while that generation is current.
 */
@Entity('knowledge_generation')
@Check('CHK_knowledge_generation_one_row', `"id" = 1`)
export class KnowledgeGeneration {
  @PrimaryColumn({ type: 'smallint', default: 1, primaryKeyConstraintName: 'PK_knowledge_generation' })
  id: number;

  @Column({ type: 'bigint', default: 0 })
  generation: string;
}
