import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { DomainError, isDatabaseUnavailable } from '../../common/errors';
import type { AuthUser } from '../../common/auth-user';
import { SessionCache, type SessionIdentity } from './session-cache';
import { SessionsRepository } from './sessions.repository';
import { VerifiedTokens, type AccessClaims } from './verified-tokens';

const bearerToken = ExtractJwt.fromAuthHeaderAsBearerToken();

/** The part of passport's per-request strategy object that authenticate() answers through. */
interface PassportOutcome {
  success(user: unknown): void;
  error(err: unknown): void;
}

/**
 * The signature is checked once per token string (VerifiedTokens), then until it expires only its expiry.
 * Besides the signature, every request checks that the session is still open and reads
 * the current role, so sign-out and role changes take effect at once. The check is served from
 * SessionCache, which every such change drops on every API process before it answers.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  private readonly verified = new VerifiedTokens();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly sessions: SessionsRepository,
    private readonly cache: SessionCache,
  ) {
    super({
      jwtFromRequest: bearerToken,
      passReqToCallback: true,
      // A KeyObject: jsonwebtoken otherwise first tries a string secret as a public key on every request.
      // (passport-jwt's types predate KeyObject; jsonwebtoken 9 accepts it.)
      secretOrKey: createSecretKey(Buffer.from(config.jwtSecret)) as unknown as string,
      ignoreExpiration: false,
      algorithms: ['HS256'],
    });
  }

  /** A token verified before skips passport-jwt's verification; any other goes through it unchanged. */
  override authenticate(req: Parameters<Strategy['authenticate']>[0], options?: object): void {
    const token = bearerToken(req);
    const claims = token ? this.verified.get(token) : undefined;
    if (!claims) return super.authenticate(req, options);
    const outcome = this as unknown as PassportOutcome;
    this.identify(claims).then(
      (user) => outcome.success(user),
      (err: unknown) => outcome.error(err),
    );
  }

  /** Called by passport-jwt once jsonwebtoken has verified the token. */
  async validate(req: Parameters<Strategy['authenticate']>[0], claims: AccessClaims): Promise<AuthUser> {
    const user = await this.identify(claims);
    const token = bearerToken(req);
    if (token && !user.sessionUnverified) this.verified.keep(token, claims);
    return user;
  }

  private async identify(payload: AccessClaims): Promise<AuthUser> {
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
