import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { InjectDataSource } from '@nestjs/typeorm';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { DomainError } from '../../common/errors';
import type { AuthUser } from './auth-user';

/**
 * Besides the signature, every request checks that the session is still open and reads
 * the current role, so sign-out and role changes take effect at once.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(@Inject(APP_CONFIG) config: AppConfig, @InjectDataSource() private readonly db: DataSource) {
    super({ jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(), // A KeyObject: jsonwebtoken otherwise first tries a string secret as a public key on every request.
      // (passport-jwt's types predate KeyObject; jsonwebtoken 9 accepts it.)
      secretOrKey: createSecretKey(Buffer.from(config.jwtSecret)) as unknown as string, ignoreExpiration: false, algorithms: ['HS256'] });
  }

  async validate(payload: { sub?: string; sid?: string }): Promise<AuthUser> {
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') throw new DomainError('invalid_jwt', 'invalid JWT: missing claims');
    const [row] = await this.db.query(
      `SELECT u.id, u.email, r.role FROM auth_sessions s
         JOIN users u ON u.id = s.user_id
         LEFT JOIN user_roles r ON r.user_id = u.id
        WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL`,
      [payload.sid, payload.sub],
    );
    if (!row) throw new DomainError('session_not_found', 'Session not found');
    return { id: row.id, email: row.email, role: row.role ?? null, sessionId: payload.sid };
  }
}
