/**
 * The role policy, once: the server enforces it and the web app uses it to offer only what the
 * server will accept. Spec: roles admin, super_admin and pcp (docs/product-spec.md, permissions).
 */

export const ROLES = ['admin', 'super_admin', 'pcp'] as const;
export type Role = (typeof ROLES)[number];

/** Who runs the admin console. */
export const ADMIN_ROLES: readonly Role[] = ['admin', 'super_admin'];
/** Who may use the PCP console and the Clinical Assessment. */
export const CLINICAL_ROLES: readonly Role[] = ['pcp', 'admin', 'super_admin'];
/** Roles a signed-in user may ask for (POST /api/approvals). */
export const REQUESTABLE_ROLES = ['pcp', 'admin'] as const;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function normalizeRole(value: unknown): Role | null {
  return isRole(value) ? value : null;
}

export function isAdmin(role: Role | null | undefined): boolean {
  return !!role && ADMIN_ROLES.includes(role);
}

/** Route rule: does `role` appear in `allowed`? No list means any signed-in user. */
export function hasRole(role: Role | null | undefined, allowed?: readonly Role[]): boolean {
  if (!allowed) return true;
  return !!role && allowed.includes(role);
}

/** Roles that already include what is requested: a super_admin needs no PCP access. */
export const ROLE_COVERS: Readonly<Record<Role, readonly Role[]>> = {
  pcp: ['pcp', 'admin', 'super_admin'],
  admin: ['admin', 'super_admin'],
  super_admin: ['super_admin'],
};

/**
 * Roles `actor` may set on a user who has `current` (null = no role). A super_admin may grant
 * or revoke any role; an admin only pcp or none, and only on users who are not administrators.
 */
export function assignableRoles(actor: Role | null | undefined, current: Role | null): Array<Role | null> {
  if (actor === 'super_admin') return ['pcp', 'admin', 'super_admin', null];
  if (actor === 'admin' && !isAdmin(current)) return ['pcp', null];
  return [];
}

/** May `actor` change a user's role from `current` to `next`? */
export function mayChangeRole(actor: Role | null | undefined, current: Role | null, next: Role | null): boolean {
  return assignableRoles(actor, current).includes(next);
}

/** Roles an invitation from `actor` may carry (a role change on a user who has none). */
export function invitableRoles(actor: Role | null | undefined): Array<Role | null> {
  return assignableRoles(actor, null);
}

/** May `actor` approve or reject a request for `requested` from a user who has `current`? */
export function mayDecide(actor: Role | null | undefined, requested: Role | null | undefined, current: Role | null | undefined): boolean {
  return mayChangeRole(actor, current ?? null, requested ?? null);
}

/** The admin console's resources (react-admin names, and the API paths under /api). */
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
  'cds-clients',
  // Record imports ($import jobs): read-only in the console.
  'jobs',
] as const;

export interface AccessRequest {
  resource: string;
  action: string;
  record?: { role?: Role | null; requested_role?: Role | null; current_role?: Role | null } | null;
}

/** Who may do what in the admin console; the server answers 403 to everything this refuses. */
export function canAccess(role: Role | null | undefined, { resource, action, record }: AccessRequest): boolean {
  if (!isAdmin(role)) return false;
  if (!(ADMIN_RESOURCES as readonly string[]).includes(resource)) return false;
  if (resource === 'users' && action === 'edit' && record) return assignableRoles(role, record.role ?? null).length > 0;
  if (resource === 'approvals' && action === 'edit' && record) return mayDecide(role, record.requested_role, record.current_role);
  if ((resource === 'parameter-changes' || resource === 'jobs') && action !== 'list' && action !== 'show') return false;
  return true;
}
