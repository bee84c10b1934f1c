import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { useUpdate } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../api';
import { roleLabel } from '../../../components/RoleBadge';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useToast } from '../../providers/useToast';
import type { ApprovalJson } from '@cds/contracts';

const REASON_MAX = 1000;

/** Approve and reject (with an optional reason), through useUpdate on the approvals resource. */
export function DecisionButtons({ record, disabled }: { record: ApprovalJson; disabled?: boolean }) {
  const [update, { isPending }] = useUpdate<ApprovalJson>();
  const [rejecting, setRejecting] = useState(false);
  // Approving grants clinical access at once and has no undo route (api.md: approve and reject
  // only), so it is confirmed first, as rejecting is.
  const [approving, setApproving] = useState(false);
  const [reason, setReason] = useState('');
  const toast = useToast();
  const queryClient = useQueryClient();
  const who = record.email;

  const decide = (status: 'approved' | 'rejected') =>
    update(
      'approvals',
      {
        id: record.id,
        data: { status, ...(status === 'rejected' && reason.trim() ? { reason: reason.trim() } : {}) },
        previousData: record,
      },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setRejecting(false);
          setApproving(false);
          setReason('');
          // The figures and the user list change with a decision.
          void queryClient.invalidateQueries({ queryKey: ['approvals'] });
          void queryClient.invalidateQueries({ queryKey: ['stats'] });
          void queryClient.invalidateQueries({ queryKey: ['users'] });
          void queryClient.invalidateQueries({ queryKey: ['activity'] });
          toast(
            status === 'approved'
              ? { title: 'Request approved', description: `${who} now has ${roleLabel(record.requested_role)} access.`, variant: 'success' }
              : { title: 'Request rejected', description: `The request of ${who} was rejected.`, variant: 'success' },
          );
        },
        onError: (e) => {
          // The reason typed stays in the dialog.
          toast({ title: 'Error', description: errorMessage(e, 'Failed to record the decision. Please try again.') });
        },
      },
    );

  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Button
        size="small"
        variant="contained"
        color="success"
        startIcon={<CheckIcon />}
        onClick={() => setApproving(true)}
        disabled={disabled || isPending}
        aria-label={`Approve ${who}`}
      >
        Approve
      </Button>
      <Button
        size="small"
        variant="outlined"
        color="error"
        startIcon={<CloseIcon />}
        onClick={() => setRejecting(true)}
        disabled={disabled || isPending}
        aria-label={`Reject ${who}`}
      >
        Reject
      </Button>
      <ConfirmDialog
        open={approving}
        title="Approve access request"
        confirmLabel="Approve"
        busyLabel="Approving..."
        busy={isPending}
        onConfirm={() => decide('approved')}
        onClose={() => setApproving(false)}
      >
        {`Give ${who} ${roleLabel(record.requested_role)} access? They can run assessments at once. To take it back later, change their role under User Management.`}
      </ConfirmDialog>
      <ConfirmDialog
        open={rejecting}
        title="Reject access request"
        confirmLabel="Reject"
        busyLabel="Rejecting..."
        busy={isPending}
        destructive
        onConfirm={() => decide('rejected')}
        onClose={() => setRejecting(false)}
      >
        <TextField
          label="Reason (optional)"
          multiline
          minRows={3}
          value={reason}
          onChange={(e) => setReason(e.target.value.slice(0, REASON_MAX))}
          helperText={`Reject the ${roleLabel(record.requested_role)} access request of ${who}. ${reason.length}/${REASON_MAX}`}
          sx={{ mt: 1 }}
          disabled={isPending}
        />
      </ConfirmDialog>
    </Box>
  );
}
