import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Role } from '@cds/contracts';
import { User } from '../users/user.entity';
import { roleCheck } from '../../common/role-check';

@Entity('invitations')
@Check('CHK_invitations_role', `"role" IS NULL OR ${roleCheck('role')}`)
@Check('CHK_invitations_email_lower', `"email" = lower("email")`)
@Index('UQ_invitations_open_email', ['email'], { unique: true, where: `"accepted_at" IS NULL AND "revoked_at" IS NULL` })
export class Invitation {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'varchar', length: 20, nullable: true })
  role: Role | null;

  /** Only the hash is kept: the link itself is shown once, to the inviting admin. */
  @Column({ type: 'char', length: 64, unique: true, select: false })
  token_hash: string;

  @Column({ type: 'uuid', nullable: true })
  invited_by: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  @Column({ type: 'timestamptz' })
  expires_at: Date;

  @Column({ type: 'timestamptz', nullable: true })
  accepted_at: Date | null;

  @Column({ type: 'uuid', nullable: true })
  accepted_user_id: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  revoked_at: Date | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'invited_by', foreignKeyConstraintName: 'FK_invitations_invited_by' })
  inviter?: User | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'accepted_user_id', foreignKeyConstraintName: 'FK_invitations_accepted_user' })
  acceptedUser?: User | null;
}
