import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { LogoutScope } from '@cds/contracts';
import { DataSource, EntityManager, In, IsNull, Not } from 'typeorm';
import { AuthSession } from './auth-session.entity';
import { RefreshToken } from './refresh-token.entity';
import type { SessionIdentity } from './session-cache';

/** Sign-in sessions and their refresh-token families: every query on them. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The user's e-mail and current role, if the session is still open: what every authenticated request checks. */
  openSessionIdentity(sessionId: string, userId: string): Promise<SessionIdentity | undefined> {
    return openSessionIdentity(this.db.manager, sessionId, userId);
  }

  async openSession(userId: string, m: EntityManager = this.db.manager): Promise<AuthSession> {
    return m.save(AuthSession, m.create(AuthSession, { user_id: userId }));
  }

  async insertRefreshToken(m: EntityManager, row: { session_id: string; token_hash: string; expires_at: Date }): Promise<void> {
    await m.insert(RefreshToken, row);
  }

  /** Locks the refresh token and then its session, in that order, for rotation. */
  lockRefreshToken(m: EntityManager, tokenHash: string): Promise<RefreshToken | null> {
    return m.findOne(RefreshToken, { where: { token_hash: tokenHash }, lock: { mode: 'pessimistic_write' } });
  }

  lockSession(m: EntityManager, id: string): Promise<AuthSession | null> {
    return m.findOne(AuthSession, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async markSpent(m: EntityManager, refreshTokenId: string): Promise<void> {
    await m.update(RefreshToken, { id: refreshTokenId }, { spent_at: new Date() });
  }

  async revokeSession(m: EntityManager, id: string, reason: string): Promise<void> {
    await m.update(AuthSession, { id }, { revoked_at: new Date(), revoked_reason: reason });
  }

  /** Ends the caller's session (`local`), every other one (`others`) or all of the user's sessions. */
  async revokeForLogout(userId: string, sessionId: string, scope: LogoutScope): Promise<void> {
    const where =
      scope === 'local'
        ? { id: sessionId, user_id: userId, revoked_at: IsNull() }
        : scope === 'others'
          ? { id: Not(sessionId), user_id: userId, revoked_at: IsNull() }
          : { user_id: userId, revoked_at: IsNull() };
    await this.db.getRepository(AuthSession).update(where, { revoked_at: new Date(), revoked_reason: `logout_${scope}` });
  }

  async revokeAllExcept(m: EntityManager, userId: string, keepSessionIds: string[], reason: string): Promise<void> {
    await m.update(
      AuthSession,
      { user_id: userId, revoked_at: IsNull(), ...(keepSessionIds.length ? { id: Not(In(keepSessionIds)) } : {}) },
      { revoked_at: new Date(), revoked_reason: reason },
    );
  }
}

/**
 * The user's e-mail, current role and account facts (names from the profile) if the session is still open, in one
 * statement: the bearer check of every authenticated request, and the queue dashboard's check of its cookie's
 * session (through auth's index).
 */
export async function openSessionIdentity(m: EntityManager, sessionId: string, userId: string): Promise<SessionIdentity | undefined> {
  const rows: (Omit<SessionIdentity, 'account'> & SessionIdentity['account'])[] = await m.query(
    `SELECT u.id, u.email, r.role, u.created_at, u.email_confirmed_at, p.first_name, p.last_name FROM auth_sessions s
       JOIN users u ON u.id = s.user_id
       LEFT JOIN user_roles r ON r.user_id = u.id
       LEFT JOIN profiles p ON p.id = u.id
      WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL`,
    [sessionId, userId],
  );
  const [row] = rows;
  return (
    row && {
      id: row.id,
      email: row.email,
      role: row.role ?? null,
      account: {
        created_at: row.created_at,
        email_confirmed_at: row.email_confirmed_at ?? null,
        first_name: row.first_name ?? null,
        last_name: row.last_name ?? null,
      },
    }
  );
}
