import { useEffect, useId, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { auth, errorDetails, errorMessage } from '../api';
import { LogoLink } from '../components/Logo';
import { ERRORS, TOASTS } from '../messages';
import { toast } from '../toast/toast';

type TabKey = 'signin' | 'signup';
interface FormError {
  title?: string;
  message: string;
  details?: string[];
}

function GoogleIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true">
      <path fill="#EA4335" d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z" />
      <path fill="#4285F4" d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z" />
      <path fill="#FBBC05" d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z" />
      <path fill="#34A853" d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z" />
    </svg>
  );
}

export default function AuthPage() {
  const [tab, setTab] = useState<TabKey>('signin');
  const [busy, setBusy] = useState<null | 'signin' | 'signup' | 'google'>(null);
  const [error, setError] = useState<FormError | null>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const ids = useId();

  useEffect(() => {
    const oauth = auth.takeOAuthError();
    if (oauth) setError({ title: ERRORS.google, message: oauth.description });
  }, []);

  const disabled = busy !== null;

  const onSignIn = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!email || !password) return setError({ message: ERRORS.missingCredentials });
    setBusy('signin');
    try {
      await auth.signInWithPassword({ email: email.trim(), password });
      toast(TOASTS.signInSuccess);
    } catch (err) {
      setError({ message: errorMessage(err, ERRORS.signIn) });
    } finally {
      setBusy(null);
    }
  };

  const onSignUp = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!email || !password) return setError({ message: ERRORS.missingCredentials });
    setBusy('signup');
    try {
      const session = await auth.signUp({
        email: email.trim(),
        password,
        data: { first_name: firstName.trim(), last_name: lastName.trim() },
      });
      if (session) toast(TOASTS.signUpSuccess);
      else toast({ title: 'Account created successfully!', description: 'Please sign in to continue.', variant: 'success' });
    } catch (err) {
      setError({ message: errorMessage(err, ERRORS.signUp), details: errorDetails(err) });
    } finally {
      setBusy(null);
    }
  };

  const onGoogle = async () => {
    setError(null);
    setBusy('google');
    try {
      await auth.signInWithGoogle();
      // The browser is leaving for Google; keep the button busy.
    } catch (err) {
      const message = errorMessage(err, ERRORS.google);
      setError(message === ERRORS.google ? { message } : { title: ERRORS.google, message });
      setBusy(null);
    }
  };

  const switchTab = (_: unknown, next: TabKey) => {
    setTab(next);
    setError(null);
  };

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2, bgcolor: 'background.default' }}>
      <Box sx={{ width: '100%', maxWidth: 440 }}>
        <Box sx={{ display: 'flex', justifyContent: 'center', mb: 2 }}>
          <LogoLink />
        </Box>
        <Card>
          <CardContent sx={{ p: { xs: 2.5, sm: 3.5 } }}>
            <Typography variant="h1" sx={{ fontSize: '1.5rem', textAlign: 'center', mb: 0.5 }}>
              Welcome
            </Typography>
            <Typography color="text.secondary" sx={{ textAlign: 'center', mb: 2 }}>
              Sign in to your account or create a new one
            </Typography>
            <Tabs value={tab} onChange={switchTab} variant="fullWidth" aria-label="Sign in or sign up" sx={{ mb: 2 }}>
              <Tab label="Sign In" value="signin" id={`${ids}-tab-signin`} aria-controls={`${ids}-panel-signin`} disabled={disabled} />
              <Tab label="Sign Up" value="signup" id={`${ids}-tab-signup`} aria-controls={`${ids}-panel-signup`} disabled={disabled} />
            </Tabs>

            {error && (
              <Alert severity="error" variant="filled" sx={{ mb: 2 }}>
                {error.title && <AlertTitle>{error.title}</AlertTitle>}
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

            {tab === 'signin' ? (
              <div role="tabpanel" id={`${ids}-panel-signin`} aria-labelledby={`${ids}-tab-signin`}>
                <Box component="form" noValidate onSubmit={onSignIn} aria-label="Sign in">
                  <Stack spacing={2}>
                    <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} disabled={disabled} />
                    <TextField label="Password" type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} disabled={disabled} />
                    <Button type="submit" variant="contained" size="large" disabled={disabled} startIcon={busy === 'signin' ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}>
                      {busy === 'signin' ? 'Signing in...' : 'Sign In'}
                    </Button>
                  </Stack>
                </Box>
              </div>
            ) : (
              <div role="tabpanel" id={`${ids}-panel-signup`} aria-labelledby={`${ids}-tab-signup`}>
                <Box component="form" noValidate onSubmit={onSignUp} aria-label="Sign up">
                  <Stack spacing={2}>
                    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                      <TextField label="First Name" name="firstName" autoComplete="given-name" value={firstName} onChange={(e) => setFirstName(e.target.value)} disabled={disabled} />
                      <TextField label="Last Name" name="lastName" autoComplete="family-name" value={lastName} onChange={(e) => setLastName(e.target.value)} disabled={disabled} />
                    </Stack>
                    <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} disabled={disabled} />
                    <TextField label="Password" type="password" name="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} disabled={disabled} />
                    <Button type="submit" variant="contained" size="large" disabled={disabled} startIcon={busy === 'signup' ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}>
                      {busy === 'signup' ? 'Creating account...' : 'Sign Up'}
                    </Button>
                  </Stack>
                </Box>
              </div>
            )}

            <Divider sx={{ my: 2.5, color: 'text.secondary', fontSize: '0.85rem' }}>or</Divider>
            <Button fullWidth variant="outlined" size="large" onClick={onGoogle} disabled={disabled} startIcon={busy === 'google' ? <CircularProgress size={16} aria-hidden="true" /> : <GoogleIcon />}>
              Continue with Google
            </Button>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 2.5, textAlign: 'center' }}>
              Need PCP access? Sign up first, then request access from your dashboard.
            </Typography>
          </CardContent>
        </Card>
      </Box>
    </Box>
  );
}
