import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { DataTable, ListBase, Pagination, useListContext } from 'react-admin';
import { formatDate } from '../../../components/format';
import { RoleBadge } from '../../../components/RoleBadge';
import { ErrorBlock } from '../../../components/StateViews';
import { stackedOnPhone } from '../../../components/stackedTable';
import { PageHeader } from '../../components/PageHeader';
import { SearchBox } from '../../components/SearchBox';
import { USERS } from '../../messages';
import type { UserListItemJson } from '@cds/contracts';
import { InvitationList } from '../invitations/InvitationList';
import { InviteUserDialog } from '../invitations/InviteUserDialog';
import { RoleChange } from './RoleChange';

const [COL_USER, COL_ROLE, COL_STATUS, COL_JOINED, COL_ACTIONS] = USERS.columns;
/** On a phone each user is a block of labelled lines, the role control last and on screen. */
const TABLE_SX = stackedOnPhone(USERS.columns);

function Filters() {
  const { filterValues, setFilters } = useListContext<UserListItemJson>();
  const role = (filterValues.role as string | undefined) ?? 'all';
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', p: 2 }}>
      <SearchBox
        placeholder={USERS.search}
        value={(filterValues.q as string) ?? ''}
        onSearch={(q) => setFilters({ ...filterValues, q: q.trim() || undefined })}
      />
      <FormControl size="small" sx={{ minWidth: 200 }}>
        <InputLabel id="role-filter-label">Role</InputLabel>
        <Select
          labelId="role-filter-label"
          label="Role"
          value={role}
          onChange={(e) => {
            const v = String(e.target.value);
            setFilters({ ...filterValues, role: v === 'all' ? undefined : v });
          }}
        >
          <MenuItem value="all">All roles</MenuItem>
          <MenuItem value="super_admin">Super Admin</MenuItem>
          <MenuItem value="admin">Administrator</MenuItem>
          <MenuItem value="pcp">Primary Care Provider</MenuItem>
          <MenuItem value="none">No Role Assigned</MenuItem>
        </Select>
      </FormControl>
    </Box>
  );
}

function UserCell({ record }: { record: UserListItemJson }) {
  const name = [record.first_name, record.last_name].filter(Boolean).join(' ');
  return (
    <Box>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {name || record.email}
      </Typography>
      {name && (
        <Typography variant="body2" color="text.secondary">
          {record.email}
        </Typography>
      )}
    </Box>
  );
}

function StatusChip({ status }: { status: UserListItemJson['status'] }) {
  return status === 'pending_approval' ? (
    <Chip size="small" color="warning" variant="outlined" label="Pending approval" />
  ) : (
    <Chip size="small" color="success" variant="outlined" label="Active" />
  );
}

function UserTable() {
  const { error, total, isPending, refetch } = useListContext<UserListItemJson>();
  if (error) {
    return (
      <Box sx={{ p: 2 }}>
        <ErrorBlock title="The users could not be loaded." error={error} onRetry={() => void refetch()} />
      </Box>
    );
  }
  return (
    <>
      <DataTable<UserListItemJson>
        bulkActionButtons={false}
        rowClick={false}
        sx={TABLE_SX}
        empty={
          <Typography sx={{ p: 2 }} color="text.secondary">
            No users match your search.
          </Typography>
        }
      >
        <DataTable.Col source="email" label={COL_USER} render={(r: UserListItemJson) => <UserCell record={r} />} />
        <DataTable.Col source="role" label={COL_ROLE} render={(r: UserListItemJson) => <RoleBadge role={r.role} />} />
        <DataTable.Col label={COL_STATUS} disableSort render={(r: UserListItemJson) => <StatusChip status={r.status} />} />
        <DataTable.Col source="created_at" label={COL_JOINED} render={(r: UserListItemJson) => formatDate(r.created_at)} />
        <DataTable.Col label={COL_ACTIONS} disableSort render={(r: UserListItemJson) => <RoleChange record={r} />} />
      </DataTable>
      {!isPending && (total ?? 0) > 0 && <Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
    </>
  );
}

export default function UserList() {
  const [inviting, setInviting] = useState(false);
  return (
    <Stack spacing={3} sx={{ maxWidth: 1200, mx: 'auto' }}>
      <PageHeader
        title={USERS.title}
        subtitle={USERS.subtitle}
        actions={
          <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setInviting(true)}>
            {USERS.invite}
          </Button>
        }
      />
      <Card>
        <ListBase
          resource="users"
          perPage={25}
          sort={{ field: 'created_at', order: 'DESC' }}
          disableSyncWithLocation
          // A failed read shows at once with Retry, rather than "Loading" through three silent retries.
          queryOptions={{ retry: false }}
        >
          <Filters />
          <UserTable />
        </ListBase>
      </Card>
      <InvitationList />
      <InviteUserDialog open={inviting} onClose={() => setInviting(false)} />
    </Stack>
  );
}
