import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useGetList } from 'react-admin';
import { errorMessage } from '../../../api';
import { useAuth } from '../../../auth/AuthContext';
import { formatDate } from '../../../components/format';
import { RoleBadge } from '../../../components/RoleBadge';
import { PageHeader } from '../../components/PageHeader';
import { APPROVALS } from '../../messages';
import { mayDecide } from '@cds/contracts';
import type { ApprovalJson } from '@cds/contracts';
import { DecisionButtons } from './DecisionButtons';

function RequestPanel({ title, requestedRole, empty }: { title: string; requestedRole: 'pcp' | 'admin'; empty: string }) {
  const { role: actor } = useAuth();
  const {
    data: rows,
    error,
    isPending,
  } = useGetList<ApprovalJson>('approvals', {
    filter: { status: 'pending', requested_role: requestedRole },
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'created_at', order: 'ASC' },
  });
  // A request decided a moment ago leaves the panel before the list is fetched again.
  const data = rows?.filter((r) => r.status === 'pending');
  const total = data?.length ?? 0;
  const id = `panel-${requestedRole}`;
  return (
    <Card component="section" aria-labelledby={id}>
      <CardHeader
        title={title}
        action={total ? <Chip size="small" color="primary" label={total} aria-label={`${total} pending`} /> : undefined}
        slotProps={{ title: { id, component: 'h2', variant: 'h4' } }}
      />
      <CardContent sx={{ pt: 0 }}>
        {isPending && (
          <Stack spacing={1} role="status" aria-label={`Loading ${title}`}>
            <Skeleton height={56} />
            <Skeleton height={56} />
          </Stack>
        )}
        {error ? <Typography color="error">{errorMessage(error, 'The requests could not be loaded.')}</Typography> : null}
        {!isPending && !error && !data?.length && <Typography color="text.secondary">{empty}</Typography>}
        {!!data?.length && (
          <List disablePadding aria-label={title}>
            {data.map((r) => {
              const name = [r.first_name, r.last_name].filter(Boolean).join(' ');
              const allowed = mayDecide(actor, r.requested_role, r.current_role);
              return (
                <ListItem
                  key={r.id}
                  divider
                  disableGutters
                  sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', justifyContent: 'space-between' }}
                >
                  <Box sx={{ minWidth: 0 }}>
                    <Typography sx={{ fontWeight: 600 }}>{name || r.email}</Typography>
                    {name && (
                      <Typography variant="body2" color="text.secondary">
                        {r.email}
                      </Typography>
                    )}
                    <Typography
                      variant="body2"
                      color="text.secondary"
                      component="div"
                      sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 0.5 }}
                    >
                      Requested {formatDate(r.created_at)} · current role <RoleBadge role={r.current_role} />
                    </Typography>
                  </Box>
                  {allowed ? (
                    <DecisionButtons record={r} />
                  ) : (
                    <Typography variant="body2" color="text.secondary">
                      Only a super admin can decide this request.
                    </Typography>
                  )}
                </ListItem>
              );
            })}
          </List>
        )}
      </CardContent>
    </Card>
  );
}

export default function ApprovalsPage() {
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto' }}>
      <PageHeader title={APPROVALS.title} subtitle="Review requests for access and decide them." />
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
        <RequestPanel title={APPROVALS.pcpPanel} requestedRole="pcp" empty={APPROVALS.pcpEmpty} />
        <RequestPanel title={APPROVALS.adminPanel} requestedRole="admin" empty={APPROVALS.adminEmpty} />
      </Box>
    </Box>
  );
}
