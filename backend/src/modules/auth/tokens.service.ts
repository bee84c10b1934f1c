import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, Not } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { DomainError } from '../../common/errors';
import { AuthSession, RefreshToken } from './auth-session.entity';

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  expires_at: number;
  token_type: 'bearer';
}

export type LogoutScope = 'global' | 'local' | 'others';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const invalidRefresh = () => new DomainError('invalid_refresh_token', 'Invalid Refresh Token');

@Injectable()
export class TokensService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Opens a new session (a new refresh-token family) for a user who just proved who they are. */
  async openSession(userId: string, m: EntityManager = this.db.manager): Promise<IssuedTokens> {
    const session = await m.save(AuthSession, m.create(AuthSession, { user_id: userId }));
    return this.issue(m, userId, session.id);
  }

  private async issue(m: EntityManager, userId: string, sessionId: string): Promise<IssuedTokens> {
    const refresh = randomBytes(32).toString('base64url');
    await m.insert(RefreshToken, {
      session_id: sessionId,
      token_hash: hash(refresh),
      expires_at: new Date(Date.now() + this.config.refreshTokenTtlSeconds * 1000),
    });
    const ttl = this.config.accessTokenTtlSeconds;
    const access = await this.jwt.signAsync({ sub: userId, sid: sessionId }, { expiresIn: ttl });
    return {
      access_token: access,
      refresh_token: refresh,
      expires_in: ttl,
      expires_at: Math.floor(Date.now() / 1000) + ttl,
      token_type: 'bearer',
    };
  }

  /**
   * Rotation: each refresh token works once. Presenting a spent one means it was copied,
   * so the whole family is revoked and both holders must sign in again.
   */
  async rotate(refreshToken: string): Promise<{ userId: string; tokens: IssuedTokens }> {
    const outcome = await this.db.transaction(async (m) => {
      const row = await m.findOne(RefreshToken, { where: { token_hash: hash(refreshToken) }, lock: { mode: 'pessimistic_write' } });
      if (!row) return { error: invalidRefresh() };
      const session = await m.findOne(AuthSession, { where: { id: row.session_id }, lock: { mode: 'pessimistic_write' } });
      if (!session || session.revoked_at) return { error: invalidRefresh() };
      if (row.spent_at) {
        await m.update(AuthSession, { id: session.id }, { revoked_at: new Date(), revoked_reason: 'refresh_token_reused' });
        return { error: new DomainError('invalid_refresh_token', 'Refresh token already used; the session has been revoked') };
      }
      if (row.expires_at.getTime() <= Date.now()) return { error: invalidRefresh() };
      await m.update(RefreshToken, { id: row.id }, { spent_at: new Date() });
      return { userId: session.user_id, tokens: await this.issue(m, session.user_id, session.id) };
    });
    // The revocation above must commit, so the error is thrown after the transaction.
    if ('error' in outcome) throw outcome.error;
    return outcome;
  }

  async revoke(userId: string, sessionId: string, scope: LogoutScope): Promise<void> {
    const where =
      scope === 'local' ? { id: sessionId, user_id: userId, revoked_at: IsNull() }
        : scope === 'others' ? { id: Not(sessionId), user_id: userId, revoked_at: IsNull() }
          : { user_id: userId, revoked_at: IsNull() };
    await this.db.getRepository(AuthSession).update(where, { revoked_at: new Date(), revoked_reason: `logout_${scope}` });
  }

  async revokeAllExcept(m: EntityManager, userId: string, keepSessionIds: string[]): Promise<void> {
    await m.update(AuthSession, { user_id: userId, revoked_at: IsNull(), ...(keepSessionIds.length ? { id: Not(In(keepSessionIds)) } : {}) },
      { revoked_at: new Date(), revoked_reason: 'password_changed' });
  }
}
