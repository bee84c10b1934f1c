import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, CreateDateColumn } from 'typeorm';
import type { ChangeType } from '@cds/contracts';
import { User } from '../users/user.entity';

/**
 * The audit trail of the parameter catalogue. parameter_id deliberately has no foreign key:
 * the history of a deleted parameter is kept, with the name it had.
 */
@Entity('parameter_changes')
@Check('CHK_parameter_changes_type', `"change_type" IN ('created', 'updated', 'deleted', 'activated', 'deactivated')`)
@Index('IDX_parameter_changes_changed_at', ['changed_at'])
@Index('IDX_parameter_changes_parameter', ['parameter_id', 'changed_at'])
export class ParameterChange {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  parameter_id: string;

  @Column({ type: 'varchar', length: 100 })
  parameter_name: string;

  @Column({ type: 'varchar', length: 20 })
  change_type: ChangeType;

  @Column({ type: 'jsonb', nullable: true })
  old_values: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  new_values: Record<string, unknown> | null;

  @Column({ type: 'uuid', nullable: true })
  changed_by: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  changed_at: Date;

  @Column({ type: 'text', nullable: true })
  change_reason: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'changed_by', foreignKeyConstraintName: 'FK_parameter_changes_changed_by' })
  changer?: User | null;
}
