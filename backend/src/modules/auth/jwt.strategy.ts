import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { DomainError, isDatabaseUnavailable } from '../../common/errors';
import type { AuthUser } from '../../common/auth-user';
import { SessionCache, type SessionIdentity } from './session-cache';
import { SessionsRepository } from './sessions.repository';

/**
 * Besides the signature, every request checks that the session is still open and reads
 * the current role, so sign-out and role changes take effect at once. The check is served from
 * SessionCache, which every such change drops on every API process before it answers.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly sessions: SessionsRepository,
    private readonly cache: SessionCache,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(), // A KeyObject: jsonwebtoken otherwise first tries a string secret as a public key on every request.
      // (passport-jwt's types predate KeyObject; jsonwebtoken 9 accepts it.)
      secretOrKey: createSecretKey(Buffer.from(config.jwtSecret)) as unknown as string,
      ignoreExpiration: false,
      algorithms: ['HS256'],
    });
  }

  async validate(payload: { sub?: string; sid?: string }): Promise<AuthUser> {
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string')
      throw new DomainError('invalid_jwt', 'invalid JWT: missing claims');
    const cached = this.cache.get(payload.sid, payload.sub);
    if (cached) return { ...cached, sessionId: payload.sid };
    const stamp = this.cache.stamp();
    let row: SessionIdentity | undefined;
    try {
      row = await this.sessions.openSessionIdentity(payload.sid, payload.sub);
    } catch (err) {
      // The guard refuses this user (503) unless the route is marked @ServesWithoutDatabase().
      if (isDatabaseUnavailable(err)) return { id: payload.sub, email: '', role: null, sessionId: payload.sid, sessionUnverified: true };
      throw err;
    }
    if (!row) throw new DomainError('session_not_found', 'Session not found');
    this.cache.store(stamp, payload.sid, payload.sub, row);
    return { ...row, sessionId: payload.sid };
  }
}
