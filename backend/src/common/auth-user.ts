import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Role } from '@cds/contracts';

/** What `GET /api/auth/user` shows of the caller besides id, e-mail and role. */
export interface AccountFacts {
  created_at: Date;
  email_confirmed_at: Date | null;
  first_name: string | null;
  last_name: string | null;
}

/** Who is calling: resolved from the access token and the current role row on every request. */
export interface AuthUser {
  id: string;
  email: string;
  role: Role | null;
  sessionId: string;
  /**
   * The rest of the user's own account as the session check read it (served from SessionCache, which every
   * write to the user, their role, profile or sessions drops on every API process): absent when unverified.
   */
  account?: AccountFacts;
  /** Set when the database could not be asked: the session and role are unverified. */
  sessionUnverified?: true;
}

export const IS_PUBLIC = 'isPublic';
/** The route needs no token. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const SERVES_WITHOUT_DATABASE = 'servesWithoutDatabase';
/**
 * The route keeps answering a signed-in caller while the database is down (signature checked,
 * session and role not): only for answers that reveal and change nothing, such as the built-in
 * question wording. Such a caller has no role.
 */
export const ServesWithoutDatabase = () => SetMetadata(SERVES_WITHOUT_DATABASE, true);

export const ROLES_KEY = 'roles';
/** Only these roles may call the route; without it any signed-in user may. */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);

export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser => {
  return ctx.switchToHttp().getRequest().user as AuthUser;
});
