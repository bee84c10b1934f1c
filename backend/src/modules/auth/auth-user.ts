import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Role } from '../users/user.entity';

/** Who is calling: resolved from the access token and the current role row on every request. */
export interface AuthUser {
  id: string;
  email: string;
  role: Role | null;
  sessionId: string;
}

export const IS_PUBLIC = 'isPublic';
/** The route needs no token. */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const ROLES_KEY = 'roles';
/** Only these roles may call the route; without it any signed-in user may. */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES_KEY, roles);

export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser => {
  return ctx.switchToHttp().getRequest().user as AuthUser;
});
