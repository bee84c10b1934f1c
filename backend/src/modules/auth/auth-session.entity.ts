import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One signed-in session: the family of refresh tokens issued from one sign-in.
 * Revoking it ends the session on every token of the family, access tokens included.
 */
@Entity('auth_sessions')
export class AuthSession {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  user_id: string;

  @Column({ type: 'timestamptz', nullable: true })
  revoked_at: Date | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  revoked_reason: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;
}

@Entity('refresh_tokens')
export class RefreshToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  session_id: string;

  /** SHA-256 of the token: a database leak does not leak usable tokens. */
  @Column({ type: 'char', length: 64, unique: true })
  token_hash: string;

  @Column({ type: 'timestamptz', nullable: true })
  spent_at: Date | null;

  @Column({ type: 'timestamptz' })
  expires_at: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;
}
