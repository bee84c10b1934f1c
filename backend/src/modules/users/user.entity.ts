import { Check, Column, CreateDateColumn, Entity, OneToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Profile } from './profile.entity';
import type { UserRole } from './user-role.entity';

@Entity('users')
@Check('CHK_users_email_lower', `"email" = lower("email")`)
export class User {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Always stored lower-cased: e-mail addresses are case-insensitive here. */
  @Column({ type: 'varchar', length: 254, unique: true })
  email: string;

  @Column({ type: 'text', nullable: true, select: false })
  password_hash: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true, unique: true })
  google_sub: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  email_confirmed_at: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  @OneToOne('UserRole', (r: UserRole) => r.user)
  roleRow?: UserRole | null;

  @OneToOne('Profile', (p: Profile) => p.user)
  profile?: Profile | null;
}
