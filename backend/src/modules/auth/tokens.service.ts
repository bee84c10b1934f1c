import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { IssuedTokens, LogoutScope } from '@cds/contracts';
import { DomainError } from '../../common/errors';
import { SessionsRepository } from './sessions.repository';

export type { IssuedTokens, LogoutScope };

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const invalidRefresh = () => new DomainError('invalid_refresh_token', 'Invalid Refresh Token');

@Injectable()
export class TokensService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionsRepository,
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Opens a new session (a new refresh-token family) for a user who just proved who they are. */
  async openSession(userId: string, m: EntityManager = this.db.manager): Promise<IssuedTokens> {
    const session = await this.sessions.openSession(userId, m);
    return this.issue(m, userId, session.id);
  }

  private async issue(m: EntityManager, userId: string, sessionId: string): Promise<IssuedTokens> {
    const refresh = randomBytes(32).toString('base64url');
    await this.sessions.insertRefreshToken(m, {
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
      const row = await this.sessions.lockRefreshToken(m, hash(refreshToken));
      if (!row) return { error: invalidRefresh() };
      const session = await this.sessions.lockSession(m, row.session_id);
      if (!session || session.revoked_at) return { error: invalidRefresh() };
      if (row.spent_at) {
        await this.sessions.revokeSession(m, session.id, 'refresh_token_reused');
        return { error: new DomainError('invalid_refresh_token', 'Refresh token already used; the session has been revoked') };
      }
      if (row.expires_at.getTime() <= Date.now()) return { error: invalidRefresh() };
      await this.sessions.markSpent(m, row.id);
      return { userId: session.user_id, tokens: await this.issue(m, session.user_id, session.id) };
    });
    // The revocation above must commit, so the error is thrown after the transaction.
    if ('error' in outcome) throw outcome.error;
    return outcome;
  }

  revoke(userId: string, sessionId: string, scope: LogoutScope): Promise<void> {
    return this.sessions.revokeForLogout(userId, sessionId, scope);
  }

  revokeAllExcept(m: EntityManager, userId: string, keepSessionIds: string[]): Promise<void> {
    return this.sessions.revokeAllExcept(m, userId, keepSessionIds, 'password_changed');
  }
}
