import type { Role } from '@cds/contracts';

const BADGES: Record<Role, { label: string; color: 'primary' | 'error' | 'secondary' }> = {
  admin: { label: 'Administrator', color: 'primary' }, // "default" style
  super_admin: { label: 'Super Admin', color: 'error' }, // "destructive" style
  pcp: { label: 'Primary Care Provider', color: 'secondary' }, // "secondary" style
};

export function roleLabel(role: Role | null | undefined): string {
  return role ? BADGES[role].label : 'No Role Assigned';
}

/** A small pill (styles/public.css), plain so the dashboard loads no MUI. */
export function RoleBadge({ role }: { role: Role | null | undefined }) {
  if (!role)
    return (
      <span className="badge badge--none" data-role="none">
        No Role Assigned
      </span>
    );
  const b = BADGES[role];
  return (
    <span className={`badge badge--${b.color}`} data-role={role}>
      {b.label}
    </span>
  );
}
