import type { Role } from '../../api/types';

/**
 * Who may do what in the admin console. Pure, so it is tested on its own and used both by
 * react-admin's authProvider.canAccess and by the screens that hide what a role cannot do.
 * The server enforces the same rules; this only keeps the console from offering a refused action.
 */

export const ADMIN_RESOURCES = [
  'dashboard',
  'users',
  'invitations',
  'approvals',
  'parameters',
  'parameter-changes',
  'rules',
  'rule-sets',
  'settings',
] as const;

const ADMINISTRATORS: readonly Role[] = ['admin', 'super_admin'];
const ADMIN_LEVEL: readonly Role[] = ['admin', 'super_admin'];

export interface AccessRequest {
  resource: string;
  action: string;
  record?: { role?: Role | null; requested_role?: Role | null; current_role?: Role | null } | null;
}

export function isAdministrator(role: Role | null | undefined): boolean {
  return !!role && ADMINISTRATORS.includes(role);
}

/**
 * Roles `actor` may set on a user who has `current` (null = no role). A super_admin may grant
 * or revoke any role; an admin only pcp or none, and only on users who are not administrators.
 * The result always includes `current` when any change is allowed, and null stands for "No role".
 */
export function assignableRoles(actor: Role | null | undefined, current: Role | null): Array<Role | null> {
  if (actor === 'super_admin') return ['pcp', 'admin', 'super_admin', null];
  if (actor === 'admin' && !(current && ADMIN_LEVEL.includes(current))) return ['pcp', null];
  return [];
}

/** Roles an invitation from `actor` may carry (the server's rule for a role change on a new user). */
export function invitableRoles(actor: Role | null | undefined): Array<Role | null> {
  return assignableRoles(actor, null);
}

/** May `actor` approve or reject a request for `requested` from a user who has `current`? */
export function mayDecide(actor: Role | null | undefined, requested: Role | null | undefined, current: Role | null | undefined): boolean {
  if (actor === 'super_admin') return true;
  if (actor !== 'admin') return false;
  return ![requested, current].some((r) => r && ADMIN_LEVEL.includes(r));
}

export function canAccess(role: Role | null | undefined, { resource, action, record }: AccessRequest): boolean {
  if (!isAdministrator(role)) return false;
  if (!(ADMIN_RESOURCES as readonly string[]).includes(resource)) return false;
  if (resource === 'users' && action === 'edit' && record) return assignableRoles(role, record.role ?? null).length > 0;
  if (resource === 'approvals' && action === 'edit' && record) {
    return mayDecide(role, record.requested_role, record.current_role);
  }
  if (resource === 'parameter-changes' && action !== 'list' && action !== 'show') return false;
  return true;
}
