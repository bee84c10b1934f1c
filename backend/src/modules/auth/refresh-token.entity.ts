import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AuthSession } from './auth-session.entity';

/** One refresh token of a session's family; spent once, then replaced (a second use revokes the session). */
@Entity('refresh_tokens')
@Index('IDX_refresh_tokens_session', ['session_id'])
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

  @ManyToOne(() => AuthSession, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id', foreignKeyConstraintName: 'FK_refresh_tokens_session' })
  session?: AuthSession;
}
