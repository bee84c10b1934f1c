import { useEffect, useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ApiError, auth, errorDetails, errorMessage } from '../api';
import { useAuth } from '../auth/AuthContext';
import { ProfileFields, useProfileForm } from '../components/ProfileForm';
import { RoleBadge } from '../components/RoleBadge';
import { TOASTS } from '../messages';
import { toast } from '../toast/toast';

function ProfileSection() {
  const { profile, profileLoading, status, refreshMe, user, role } = useAuth();
  const form = useProfileForm(profile, status === 'signedIn', refreshMe);
  const loadedFor = useRef<string | null>(null);
  const { reset } = form;
  // Fill the form once the profile arrives, but never overwrite what is being typed.
  useEffect(() => {
    if (!profileLoading && profile && loadedFor.current !== profile.id) {
      loadedFor.current = profile.id;
      reset(profile);
    }
  }, [profile, profileLoading, reset]);

  return (
    <Card component="section" aria-labelledby="settings-profile-title">
      <CardContent>
        <Typography id="settings-profile-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 0.5 }}>
          Profile
        </Typography>
        <Typography component="div" color="text.secondary" sx={{ mb: 2 }}>
          {user?.email} · <RoleBadge role={role} />
        </Typography>
        <Box component="form" noValidate onSubmit={form.submit} aria-label="Profile">
          <ProfileFields form={form}>
            <Box>
              <Button
                type="submit"
                variant="contained"
                disabled={form.saving || profileLoading}
                startIcon={form.saving ? <CircularProgress size={16} color="inherit" aria-label="Saving" /> : undefined}
              >
                Save Profile
              </Button>
            </Box>
          </ProfileFields>
        </Box>
      </CardContent>
    </Card>
  );
}

function PasswordSection() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ field?: 'current' | 'next' | 'confirm'; message: string; details?: string[] } | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!current) return setError({ field: 'current', message: 'Current password is required' });
    if (!next) return setError({ field: 'next', message: 'New password is required' });
    if (next !== confirm) return setError({ field: 'confirm', message: 'Passwords do not match' });
    setSaving(true);
    try {
      await auth.updateUser({ current_password: current, password: next });
      setCurrent('');
      setNext('');
      setConfirm('');
      toast(TOASTS.passwordChanged);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid_credentials') {
        setError({ field: 'current', message: errorMessage(err, 'The current password is incorrect') });
      } else if (err instanceof ApiError && err.code === 'weak_password') {
        setError({ field: 'next', message: errorMessage(err, 'The new password is too weak'), details: errorDetails(err) });
      } else {
        setError({ message: errorMessage(err, 'Failed to change the password. Please try again.') });
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card component="section" aria-labelledby="settings-password-title">
      <CardContent>
        <Typography id="settings-password-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
          Change password
        </Typography>
        <Box component="form" noValidate onSubmit={submit} aria-label="Change password">
          <Stack spacing={2}>
            {error && (
              <Alert severity="error">
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
            <TextField
              label="Current password"
              type="password"
              autoComplete="current-password"
              required
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
              error={error?.field === 'current'}
              disabled={saving}
            />
            <TextField
              label="New password"
              type="password"
              autoComplete="new-password"
              required
              value={next}
              onChange={(e) => setNext(e.target.value)}
              error={error?.field === 'next'}
              disabled={saving}
            />
            <TextField
              label="Confirm new password"
              type="password"
              autoComplete="new-password"
              required
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
              error={error?.field === 'confirm'}
              disabled={saving}
            />
            <Box>
              <Button
                type="submit"
                variant="contained"
                disabled={saving}
                startIcon={saving ? <CircularProgress size={16} color="inherit" aria-label="Saving" /> : undefined}
              >
                {saving ? 'Updating password...' : 'Update Password'}
              </Button>
            </Box>
          </Stack>
        </Box>
      </CardContent>
    </Card>
  );
}

export default function PcpSettings() {
  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <Typography variant="h1" sx={{ fontSize: '1.75rem', mb: 3 }}>
        Settings
      </Typography>
      <Stack spacing={3}>
        <ProfileSection />
        <PasswordSection />
      </Stack>
    </Box>
  );
}
