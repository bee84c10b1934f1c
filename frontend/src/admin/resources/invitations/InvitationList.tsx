import { useState } from 'react';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useDelete, useGetList } from 'react-admin';
import { useAuth } from '../../../auth/AuthContext';
import { errorMessage } from '../../../api';
import { formatDateTime } from '../../../components/format';
import { roleLabel } from '../../../components/RoleBadge';
import { ErrorBlock } from '../../../components/StateViews';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { invitableRoles } from '@cds/contracts';
import { useToast } from '../../providers/useToast';
import type { InvitationJson } from '@cds/contracts';

/** Invitations not yet used, with revoke. */
export function InvitationList() {
  const { data, error, isPending, refetch } = useGetList<InvitationJson>(
    'invitations',
    {
      filter: { status: 'pending' },
      pagination: { page: 1, perPage: 50 },
      sort: { field: 'created_at', order: 'DESC' },
    },
    // A failed read shows at once with Retry, rather than "Loading" through three silent retries.
    { retry: false },
  );
  const [revoking, setRevoking] = useState<InvitationJson | null>(null);
  const [remove, { isPending: removing }] = useDelete<InvitationJson>();
  const toast = useToast();
  const { role: actor } = useAuth();
  const mayRevoke = (inv: InvitationJson) => invitableRoles(actor).includes(inv.role);

  const confirm = () => {
    if (!revoking) return;
    remove(
      'invitations',
      { id: revoking.id, previousData: revoking },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          toast({ title: 'Invitation revoked', description: `The link sent to ${revoking.email} no longer works.`, variant: 'success' });
          setRevoking(null);
        },
        onError: (e) => {
          toast({ title: 'Error', description: errorMessage(e, 'Failed to revoke the invitation. Please try again.') });
          setRevoking(null);
        },
      },
    );
  };

  return (
    <Card component="section" aria-labelledby="invitations-title">
      <CardHeader title="Pending invitations" slotProps={{ title: { id: 'invitations-title', component: 'h2', variant: 'h4' } }} />
      <CardContent sx={{ pt: 0 }}>
        {isPending && !error && <Typography color="text.secondary">Loading...</Typography>}
        {error ? <ErrorBlock title="The invitations could not be loaded." error={error} onRetry={() => void refetch()} /> : null}
        {!isPending && !error && !data?.length && <Typography color="text.secondary">No pending invitations.</Typography>}
        {!!data?.length && (
          <List dense disablePadding aria-label="Pending invitations">
            {data.map((inv) => (
              <ListItem
                key={inv.id}
                divider
                disableGutters
                secondaryAction={
                  mayRevoke(inv) && (
                    <Button
                      size="small"
                      color="error"
                      onClick={() => setRevoking(inv)}
                      aria-label={`Revoke the invitation of ${inv.email}`}
                    >
                      Revoke
                    </Button>
                  )
                }
              >
                <ListItemText
                  primary={`${inv.email} · ${inv.role ? roleLabel(inv.role) : 'No role'}`}
                  secondary={`Expires ${formatDateTime(inv.expires_at)}${inv.invited_by_email ? ` · invited by ${inv.invited_by_email}` : ''}`}
                />
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
      <ConfirmDialog
        open={!!revoking}
        title="Revoke invitation"
        confirmLabel="Revoke"
        busyLabel="Revoking..."
        busy={removing}
        destructive
        onConfirm={confirm}
        onClose={() => setRevoking(null)}
      >
        {`Revoke the invitation of ${revoking?.email ?? ''}? The link will stop working.`}
      </ConfirmDialog>
    </Card>
  );
}
