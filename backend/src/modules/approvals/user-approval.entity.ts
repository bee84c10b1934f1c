import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { ApprovalStatus, Role } from '@cds/contracts';
import { User } from '../users/user.entity';
import { roleCheck } from '../../common/role-check';

@Entity('user_approvals')
@Check('CHK_user_approvals_role', roleCheck('requested_role'))
@Check('CHK_user_approvals_status', `"status" IN ('pending', 'approved', 'rejected')`)
@Check('CHK_user_approvals_decision', `("status" = 'pending') = ("decided_at" IS NULL)`)
// At most one pending request per user: a double click cannot queue two.
@Index('UQ_user_approvals_pending', ['user_id'], { unique: true, where: `"status" = 'pending'` })
@Index('IDX_user_approvals_status_created', ['status', 'created_at'])
export class UserApproval {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  user_id: string;

  @Column({ type: 'varchar', length: 20 })
  requested_role: Role;

  @Column({ type: 'varchar', length: 20, default: 'pending' })
  status: ApprovalStatus;

  @Column({ type: 'uuid', nullable: true })
  decided_by: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  decided_at: Date | null;

  @Column({ type: 'text', nullable: true })
  reason: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_user_approvals_user' })
  user?: User;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'decided_by', foreignKeyConstraintName: 'FK_user_approvals_decided_by' })
  decider?: User | null;
}
