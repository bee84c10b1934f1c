import { Check, Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, OneToOne, PrimaryColumn } from 'typeorm';
import type { Role } from '@cds/contracts';
import type { User } from './user.entity';
import { roleCheck } from '../../common/role-check';

@Entity('user_roles')
@Check('CHK_user_roles_role', roleCheck('role'))
export class UserRole {
  @PrimaryColumn('uuid')
  user_id: string;

  @Column({ type: 'varchar', length: 20 })
  role: Role;

  @Column({ type: 'uuid', nullable: true })
  granted_by: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  @OneToOne('User', (u: User) => u.roleRow, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_user_roles_user' })
  user?: User;

  @ManyToOne('User', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'granted_by', foreignKeyConstraintName: 'FK_user_roles_granted_by' })
  granter?: User | null;
}
