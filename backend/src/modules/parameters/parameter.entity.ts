import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { ParameterCategory, ParameterDataType } from '@cds/contracts';
import { User } from '../users/user.entity';

@Entity('parameters')
@Check(
  'CHK_parameters_data_type',
  `"data_type" IN ('number', 'text', 'boolean', 'date', 'select', 'lab_range', 'time_based', 'vitals', 'calculated')`,
)
@Check('CHK_parameters_category', `"category" IN ('demographics', 'vitals', 'labs', 'history', 'symptoms', 'other')`)
@Check('CHK_parameters_name', `btrim("name") <> '' AND btrim("display_name") <> ''`)
@Check('CHK_parameters_version', `"version" >= 1`)
@Check('CHK_parameters_validation_rules', `jsonb_typeof("validation_rules") = 'object'`)
@Check('CHK_parameters_loinc_code', `"loinc_code" ~ '^[0-9]{1,7}-[0-9]$'`)
@Check('CHK_parameters_question_override', `char_length("question_override") <= 200`)
// Rules may name a parameter by name (case-insensitively): two live parameters must never share
// one, or a rule could silently read the wrong value. Expression indexes are invisible to TypeORM.
@Index('UQ_parameters_active_name', { synchronize: false })
@Index('UQ_parameters_template_name', { synchronize: false })
@Index('IDX_parameters_display_name', ['display_name'])
export class Parameter {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 200 })
  display_name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 20 })
  data_type: ParameterDataType;

  @Column({ type: 'varchar', length: 20 })
  category: ParameterCategory;

  @Column({ type: 'varchar', length: 50, nullable: true })
  units: string | null;

  @Column({ type: 'boolean', default: true })
  is_required: boolean;

  @Column({ type: 'boolean', default: false })
  is_template: boolean;

  @Column({ type: 'varchar', length: 100, nullable: true })
  template_name: string | null;

  @Column({ type: 'integer', default: 1 })
  version: number;

  @Column({ type: 'boolean', default: true })
  is_active: boolean;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  validation_rules: Record<string, unknown>;

  @Column({ type: 'varchar', length: 20, nullable: true })
  loinc_code: string | null;

  /** Written by the question-polishing worker; keyed by a hash of what it was given. */
  @Column({ type: 'text', nullable: true })
  polished_question: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  polished_provider: string | null;

  @Column({ type: 'char', length: 64, nullable: true })
  polished_input_hash: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  polished_at: Date | null;

  /** An administrator's own wording; wins over the polished one. */
  @Column({ type: 'text', nullable: true })
  question_override: string | null;

  @Column({ type: 'uuid', nullable: true })
  created_by: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated_at: Date;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'FK_parameters_created_by' })
  creator?: User | null;
}
