import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useQueryClient } from '@tanstack/react-query';
import { errorDetails, errorMessage } from '../../../api';
import { useAuth } from '../../../auth/AuthContext';
import { formatDateTime } from '../../../components/format';
import { roleLabel } from '../../../components/RoleBadge';
import { invitableRoles } from '@cds/contracts';
import { adminApi } from '../../providers/dataProvider';
import { useToast } from '../../providers/useToast';
import type { InvitationJson, Role } from '@cds/contracts';

const NO_ROLE = 'none';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The link to send. The API answers with its own idea of the public address (PUBLIC_URL, or
 * localhost when unset); the address the admin is using right now is the one known to reach
 * this instance, so the link keeps the server's path and token on the browser's origin.
 */
export function inviteLink(url: string, origin = window.location.origin): string {
  const parsed = new URL(url, origin);
  return new URL(`${parsed.pathname}${parsed.search}`, origin).toString();
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function InviteUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { role: actor } = useAuth();
  const roles = invitableRoles(actor);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role | null>(roles[0] ?? 'pcp');
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ message: string; details: string[] } | null>(null);
  const [created, setCreated] = useState<InvitationJson | null>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const toast = useToast();
  const queryClient = useQueryClient();

  const emailError = touched && !EMAIL.test(email.trim()) ? 'Enter the email address to invite.' : '';

  const reset = () => {
    setEmail('');
    setRole(roles[0] ?? 'pcp');
    setTouched(false);
    setError(null);
    setCreated(null);
    setCopied(null);
  };

  const close = () => {
    if (saving) return;
    reset();
    onClose();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!EMAIL.test(email.trim())) return;
    setSaving(true);
    setError(null);
    try {
      const invitation = await adminApi.invite(email.trim(), role);
      setCreated(invitation);
      await queryClient.invalidateQueries({ queryKey: ['invitations'] });
      toast({ title: 'Invitation created', description: `Copy the link and send it to ${invitation.email}.`, variant: 'success' });
    } catch (err) {
      const message = errorMessage(err, 'Failed to create the invitation. Please try again.');
      setError({ message, details: errorDetails(err) });
      toast({ title: 'Error', description: message });
    } finally {
      setSaving(false);
    }
  };

  const link = created?.url ? inviteLink(created.url) : '';

  return (
    <Dialog open={open} onClose={close} aria-labelledby="invite-title" maxWidth="sm" fullWidth>
      <DialogTitle id="invite-title">Invite User</DialogTitle>
      {created ? (
        <>
          <DialogContent>
            <Stack spacing={2}>
              <DialogContentText>
                Send this link to {created.email}. Whoever opens it sets a password and joins{' '}
                {created.role ? `as ${roleLabel(created.role)}` : 'without a role'}. It is shown only once and expires{' '}
                {formatDateTime(created.expires_at)}.
              </DialogContentText>
              <TextField
                label="Invitation link"
                value={link}
                slotProps={{ htmlInput: { readOnly: true, onFocus: (ev: React.FocusEvent<HTMLInputElement>) => ev.target.select() } }}
              />
              {copied === true && <Alert severity="success">The link is on your clipboard.</Alert>}
              {copied === false && <Alert severity="warning">Copying was blocked by the browser: select the link and copy it.</Alert>}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={close} color="secondary">
              Done
            </Button>
            <Button variant="contained" startIcon={<ContentCopyIcon />} onClick={async () => setCopied(await copyText(link))}>
              Copy link
            </Button>
          </DialogActions>
        </>
      ) : (
        <Box component="form" noValidate onSubmit={submit} aria-label="Invite user">
          <DialogContent>
            <Stack spacing={2}>
              <DialogContentText>The invitee receives a link to set a password and join with the chosen role.</DialogContentText>
              {error && (
                <Alert severity="error">
                  {error.message}
                  {error.details.length > 0 && (
                    <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
                      {error.details.map((d) => (
                        <li key={d}>{d}</li>
                      ))}
                    </Box>
                  )}
                </Alert>
              )}
              <TextField
                label="Email"
                type="email"
                required
                autoFocus
                value={email}
                onChange={(ev) => setEmail(ev.target.value)}
                onBlur={() => setTouched(true)}
                error={!!emailError}
                helperText={emailError || ' '}
                disabled={saving}
              />
              <TextField
                select
                label="Role"
                value={role ?? NO_ROLE}
                onChange={(ev) => setRole(ev.target.value === NO_ROLE ? null : (ev.target.value as Role))}
                disabled={saving || roles.length < 2}
              >
                {roles.map((r) => (
                  <MenuItem key={r ?? NO_ROLE} value={r ?? NO_ROLE}>
                    {r ? roleLabel(r) : 'No role'}
                  </MenuItem>
                ))}
              </TextField>
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={saving} color="secondary">
              Cancel
            </Button>
            <Button
              type="submit"
              variant="contained"
              disabled={saving || !roles.length}
              startIcon={saving ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
            >
              {saving ? 'Creating link...' : 'Create invitation link'}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
}
