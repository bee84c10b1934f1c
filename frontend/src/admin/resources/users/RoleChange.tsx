import { useState } from 'react';
import FormControl from '@mui/material/FormControl';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useUpdate } from 'react-admin';
import { errorMessage } from '../../../api';
import { useAuth } from '../../../auth/AuthContext';
import { roleLabel } from '../../../components/RoleBadge';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { assignableRoles } from '@cds/contracts';
import { useToast } from '../../providers/useToast';
import type { Role, UserListItemJson } from '@cds/contracts';

const NONE = 'none';
const toValue = (r: Role | null) => r ?? NONE;
const fromValue = (v: string): Role | null => (v === NONE ? null : (v as Role));

/** The Actions cell: a real role change, limited to what the signed-in administrator may grant. */
export function RoleChange({ record }: { record: UserListItemJson }) {
  const { role: actor, user } = useAuth();
  const options = assignableRoles(actor, record.role);
  const [next, setNext] = useState<Role | null | undefined>(undefined);
  const [update, { isPending }] = useUpdate<UserListItemJson>();
  const toast = useToast();
  const name = record.email;

  if (!options.length) {
    return (
      <Tooltip title="Only a super admin can change an administrator's role">
        <Typography variant="body2" color="text.secondary" tabIndex={0}>
          No changes allowed
        </Typography>
      </Tooltip>
    );
  }

  const confirm = () => {
    if (next === undefined) return;
    update(
      'users',
      { id: record.id, data: { role: next }, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: (saved) => {
          setNext(undefined);
          toast({
            title: 'Role updated',
            description: saved.role ? `${name} is now ${roleLabel(saved.role)}.` : `${name} no longer has a role.`,
            variant: 'success',
          });
        },
        onError: (e) => {
          setNext(undefined);
          // 403 (not allowed) and 409 (the last super admin) carry the reason.
          toast({ title: 'Error', description: errorMessage(e, 'Failed to change the role. Please try again.') });
        },
      },
    );
  };

  const self = user?.id === record.id;
  return (
    <>
      <FormControl size="small" sx={{ minWidth: 190 }}>
        <Select
          value={toValue(record.role)}
          onChange={(e) => {
            const value = fromValue(String(e.target.value));
            if (value !== record.role) setNext(value);
          }}
          disabled={isPending}
          inputProps={{ 'aria-label': `Change role of ${name}` }}
        >
          {!options.includes(record.role) && (
            <MenuItem value={toValue(record.role)} disabled>
              {roleLabel(record.role)}
            </MenuItem>
          )}
          {options.map((r) => (
            <MenuItem key={toValue(r)} value={toValue(r)}>
              {r ? roleLabel(r) : 'No role'}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <ConfirmDialog
        open={next !== undefined}
        title="Change role"
        confirmLabel="Change role"
        busyLabel="Changing..."
        busy={isPending}
        destructive={self}
        onConfirm={confirm}
        onClose={() => setNext(undefined)}
      >
        {`Change the role of ${name} from ${roleLabel(record.role)} to ${next === undefined ? '' : next ? roleLabel(next) : 'No role'}?${
          self ? ' This is your own account: you may lose access to this console.' : ''
        }`}
      </ConfirmDialog>
    </>
  );
}
