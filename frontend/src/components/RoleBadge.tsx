import Chip from '@mui/material/Chip';
import type { Role } from '../api/types';

const BADGES: Record<Role, { label: string; color: 'primary' | 'error' | 'secondary' }> = {
  admin: { label: 'Administrator', color: 'primary' }, // "default" style
  super_admin: { label: 'Super Admin', color: 'error' }, // "destructive" style
  pcp: { label: 'Primary Care Provider', color: 'secondary' }, // "secondary" style
};

export function roleLabel(role: Role | null | undefined): string {
  return role ? BADGES[role].label : 'No Role Assigned';
}

export function RoleBadge({ role }: { role: Role | null | undefined }) {
  if (!role) return <Chip size="small" variant="outlined" label="No Role Assigned" data-role="none" />;
  const b = BADGES[role];
  return <Chip size="small" color={b.color} label={b.label} data-role={role} />;
}
