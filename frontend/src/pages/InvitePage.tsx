import { useEffect, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { api, ApiError, auth, errorDetails, errorMessage } from '../api';
import { passwordLengthProblem, PASSWORD_MIN } from '@cds/contracts';
import type { InvitationPreviewJson, SessionJson } from '@cds/contracts';
import { useAuth } from '../auth/AuthContext';
import { homeForRole } from '../auth/roles';
import { FullPageSpinner } from '../components/FullPageSpinner';
import { formatDateTime } from '../components/format';
import { LogoLink } from '../components/Logo';
import { roleLabel } from '../components/RoleBadge';
import { useAsync } from '../components/useAsync';
import { TOASTS } from '../messages';
import { toast } from '../toast/toast';

interface FormError {
  message: string;
  details?: string[];
  field?: 'password' | 'confirm';
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2, bgcolor: 'background.default' }}
    >
      <Box sx={{ width: '100%', maxWidth: 480 }}>
        <Box sx={{ display: 'flex', justifyContent: 'center', mb: 2 }}>
          <LogoLink />
        </Box>
        <Card>
          <CardContent sx={{ p: { xs: 2.5, sm: 3.5 } }}>{children}</CardContent>
        </Card>
      </Box>
    </Box>
  );
}

/** Client-side checks that would otherwise come back from the server as a refusal. */
export function passwordProblem(password: string, confirm: string): FormError | null {
  if (!password) return { field: 'password', message: 'Choose a password.' };
  const length = passwordLengthProblem(password);
  if (length) return { field: 'password', message: length };
  if (password !== confirm) return { field: 'confirm', message: 'The passwords do not match.' };
  return null;
}

/** Public page behind an invitation link: set a name and a password, join with the invited role. */
export default function InvitePage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const { status, role, roleLoaded, user } = useAuth();
  const preview = useAsync(() => api.get<InvitationPreviewJson>(`/api/invitations/by-token/${encodeURIComponent(token)}`), [token]);
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [saving, setSaving] = useState(false);
  const [accepted, setAccepted] = useState(false);
  const [error, setError] = useState<FormError | null>(null);

  // Once the new session's role is known, go where that role lands.
  useEffect(() => {
    if (accepted && status === 'signedIn' && roleLoaded) navigate(homeForRole(role), { replace: true });
  }, [accepted, status, roleLoaded, role, navigate]);

  if (accepted || (preview.loading && !preview.data))
    return <FullPageSpinner label={accepted ? 'Signing you in' : 'Checking your invitation'} />;

  if (preview.error || !preview.data) {
    const gone = preview.error instanceof ApiError && preview.error.status === 409;
    return (
      <Shell>
        <Typography variant="h1" sx={{ fontSize: '1.5rem', mb: 2 }}>
          Invitation
        </Typography>
        <Alert severity="error" sx={{ mb: 2 }}>
          <AlertTitle>{gone ? 'This invitation can no longer be used' : 'This invitation link is not valid'}</AlertTitle>
          {gone ? errorMessage(preview.error, '') : 'Check that you copied the whole link, or ask for a new invitation.'}
        </Alert>
        <Button component={RouterLink} to="/auth" variant="outlined">
          Go to Sign In
        </Button>
      </Shell>
    );
  }

  const invitation = preview.data;

  if (status === 'signedIn') {
    return (
      <Shell>
        <Typography variant="h1" sx={{ fontSize: '1.5rem', mb: 2 }}>
          You're invited
        </Typography>
        <Alert severity="info" sx={{ mb: 2 }}>
          You are signed in as {user?.email}. Sign out to accept the invitation for {invitation.email}.
        </Alert>
        <Button variant="contained" onClick={() => void auth.signOut()}>
          Sign Out
        </Button>
      </Shell>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = passwordProblem(password, confirm);
    setError(problem);
    if (problem) return;
    setSaving(true);
    try {
      const body: Record<string, string> = { token, password };
      if (firstName.trim()) body.first_name = firstName.trim();
      if (lastName.trim()) body.last_name = lastName.trim();
      const session = await api.send<SessionJson>('POST', '/api/invitations/accept', body);
      setAccepted(true);
      auth.adoptSession(session);
      toast(TOASTS.signUpSuccess);
    } catch (err) {
      // What was typed stays; the reasons say what to change.
      const weak = err instanceof ApiError && err.code === 'weak_password';
      setError({
        message: errorMessage(err, 'The invitation could not be accepted. Please try again.'),
        details: errorDetails(err),
        field: weak ? 'password' : undefined,
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Shell>
      <Typography variant="h1" sx={{ fontSize: '1.5rem', mb: 0.5 }}>
        You're invited
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Set a password to join as {invitation.role ? roleLabel(invitation.role) : 'a user without a role'}. The invitation expires{' '}
        {formatDateTime(invitation.expires_at)}.
      </Typography>
      {error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error.message}
          {error.details && error.details.length > 0 && (
            <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
              {error.details.map((d) => (
                <li key={d}>{d}</li>
              ))}
            </Box>
          )}
        </Alert>
      )}
      <Box component="form" noValidate onSubmit={submit} aria-label="Accept invitation">
        <Stack spacing={2}>
          <TextField
            label="Email"
            type="email"
            value={invitation.email}
            slotProps={{ htmlInput: { readOnly: true } }}
            autoComplete="username"
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label="First Name"
              autoComplete="given-name"
              value={firstName}
              onChange={(e) => setFirstName(e.target.value)}
              disabled={saving}
            />
            <TextField
              label="Last Name"
              autoComplete="family-name"
              value={lastName}
              onChange={(e) => setLastName(e.target.value)}
              disabled={saving}
            />
          </Stack>
          <TextField
            label="Password"
            type="password"
            required
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={error?.field === 'password'}
            helperText={`At least ${PASSWORD_MIN} characters.`}
            disabled={saving}
          />
          <TextField
            label="Confirm password"
            type="password"
            required
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            error={error?.field === 'confirm'}
            disabled={saving}
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={saving}
            startIcon={saving ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
          >
            {saving ? 'Creating account...' : 'Accept invitation'}
          </Button>
        </Stack>
      </Box>
    </Shell>
  );
}
