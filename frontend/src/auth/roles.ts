import { isAdmin, type Role } from '@cds/contracts';

/** Where a signed-in user lands: admin/super_admin → /admin, pcp → /pcp, anyone else → /dashboard. */
export function homeForRole(role: Role | null | undefined): '/admin' | '/pcp' | '/dashboard' {
  if (isAdmin(role)) return '/admin';
  if (role === 'pcp') return '/pcp';
  return '/dashboard';
}
