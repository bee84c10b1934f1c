import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { DomainError, forbidden, RETRY_AFTER_SECONDS } from '../../common/errors';
import { IS_PUBLIC, ROLES_KEY, SERVES_WITHOUT_DATABASE, type AuthUser } from '../../common/auth-user';
import { hasRole, type Role } from '@cds/contracts';
import { passportResponse } from '../../http/respond';

/** Global: every route needs a valid access token unless marked @Public(). */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(ctx: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [ctx.getHandler(), ctx.getClass()]);
    return isPublic ? true : super.canActivate(ctx);
  }

  override handleRequest<T>(err: unknown, user: T, info: unknown, ctx: ExecutionContext): T {
    if (err) throw err;
    if ((user as AuthUser | undefined)?.sessionUnverified) {
      const allowed = this.reflector.getAllAndOverride<boolean>(SERVES_WITHOUT_DATABASE, [ctx.getHandler(), ctx.getClass()]);
      if (!allowed) {
        throw new DomainError('service_unavailable', 'The database is unavailable; try again shortly', {
          retry_after_seconds: RETRY_AFTER_SECONDS,
        });
      }
    }
    if (!user) {
      const message = (info as Error | undefined)?.message ?? '';
      if (message === 'No auth token') throw new DomainError('unauthorized', 'Auth session missing!');
      if (message === 'jwt expired') throw new DomainError('invalid_jwt', 'invalid JWT: token is expired');
      throw new DomainError('invalid_jwt', 'invalid JWT: unable to parse or verify signature');
    }
    return user;
  }
}

/** Global: enforces @Roles() from the permission table of docs/product-spec.md section 6. */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(ctx: ExecutionContext): boolean {
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_KEY, [ctx.getHandler(), ctx.getClass()]);
    if (!roles) return true;
    const user = ctx.switchToHttp().getRequest().user as AuthUser | undefined;
    if (!user || !hasRole(user.role, roles)) throw forbidden();
    return true;
  }
}

/** Starts and finishes the Google flow; failures come back to the controller instead of throwing. */
@Injectable()
export class GoogleAuthGuard extends AuthGuard('google') {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super({ session: false });
  }

  override canActivate(ctx: ExecutionContext) {
    if (!this.config.google) throw new DomainError('oauth_not_configured', 'Google sign-in is not configured on this server');
    return super.canActivate(ctx);
  }

  // Passport redirects through the response, and the state store sets its cookie through `req.res`
  // (Express's own; a view of the reply on Fastify: http/respond.ts).
  getResponse(ctx: ExecutionContext) {
    return passportResponse(ctx.switchToHttp().getResponse());
  }

  override getRequest(ctx: ExecutionContext) {
    const req = ctx.switchToHttp().getRequest<{ res?: unknown }>();
    req.res ??= this.getResponse(ctx);
    return req;
  }

  override handleRequest<T>(err: unknown, user: T, info: unknown): T {
    if (err || !user) {
      const message = (err as Error | undefined)?.message ?? (info as { message?: string } | undefined)?.message ?? 'Google sign-in failed';
      return { error: message } as T;
    }
    return user;
  }
}
