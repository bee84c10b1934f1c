import { Column, CreateDateColumn, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import type { Role, User } from './user.entity';

@Entity('user_roles')
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
  @JoinColumn({ name: 'user_id' })
  user?: User;
}
