import type { Role } from '../api/types';

export const ADMIN_ROLES: readonly Role[] = ['admin', 'super_admin'];
/** Who may use the PCP console and the Clinical Assessment (spec section 6). */
export const CLINICAL_ROLES: readonly Role[] = ['pcp', 'admin', 'super_admin'];

export function isAdmin(role: Role | null | undefined): boolean {
  return role === 'admin' || role === 'super_admin';
}

/** Where a signed-in user lands: admin/super_admin → /admin, pcp → /pcp, anyone else → /dashboard. */
export function homeForRole(role: Role | null | undefined): '/admin' | '/pcp' | '/dashboard' {
  if (isAdmin(role)) return '/admin';
  if (role === 'pcp') return '/pcp';
  return '/dashboard';
}

/** Route guard rule: no list means any signed-in user. */
export function canAccess(role: Role | null | undefined, allowed?: readonly Role[]): boolean {
  if (!allowed) return true;
  return !!role && allowed.includes(role);
}

export function normalizeRole(value: unknown): Role | null {
  return value === 'admin' || value === 'super_admin' || value === 'pcp' ? value : null;
}
