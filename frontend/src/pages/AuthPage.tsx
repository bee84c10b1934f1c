import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { passwordLengthProblem, PASSWORD_MIN } from '@cds/contracts';
import { auth, errorDetails, errorMessage } from '../api';
import { Icon } from '../components/Icon';
import { buttonClass } from '../components/LinkButton';
import { LogoLink } from '../components/Logo';
import { TextInput } from '../components/TextInput';
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
      <path
        fill="#EA4335"
        d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"
      />
      <path
        fill="#FBBC05"
        d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
      />
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
    // The server's length rule, flagged before sending (the server refuses it too: 422 weak_password).
    const length = passwordLengthProblem(password);
    if (length) return setError({ message: length });
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

  const tabRefs = useRef<Record<TabKey, HTMLButtonElement | null>>({ signin: null, signup: null });
  const switchTab = (next: TabKey) => {
    setTab(next);
    setError(null);
  };
  // Arrow keys, Home and End move between the tabs (WAI-ARIA tabs pattern).
  const onTabKey = (e: KeyboardEvent) => {
    if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return;
    e.preventDefault();
    const next: TabKey = e.key === 'Home' ? 'signin' : e.key === 'End' ? 'signup' : tab === 'signin' ? 'signup' : 'signin';
    switchTab(next);
    tabRefs.current[next]?.focus();
  };
  const tabProps = (key: TabKey) => ({
    ref: (el: HTMLButtonElement | null) => {
      tabRefs.current[key] = el;
    },
    type: 'button' as const,
    role: 'tab',
    className: 'tab',
    id: `${ids}-tab-${key}`,
    'aria-controls': `${ids}-panel-${key}`,
    'aria-selected': tab === key,
    tabIndex: tab === key ? 0 : -1,
    disabled,
    onClick: () => switchTab(key),
  });
  const busySpinner = <span className="spinner spinner--small" aria-hidden="true" />;
  // Email and password, the same on both tabs (the password manager hint differs).
  const credentials = (passwordAutoComplete: 'current-password' | 'new-password') => (
    <>
      <TextInput
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        disabled={disabled}
      />
      <TextInput
        label="Password"
        type="password"
        name="password"
        autoComplete={passwordAutoComplete}
        required
        hint={passwordAutoComplete === 'new-password' ? `At least ${PASSWORD_MIN} characters.` : undefined}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        disabled={disabled}
      />
    </>
  );
  const submit = (kind: TabKey, label: string, busyLabel: string) => (
    <button type="submit" className={buttonClass('contained', { large: true })} disabled={disabled}>
      {busy === kind && busySpinner}
      {busy === kind ? busyLabel : label}
    </button>
  );

  return (
    <main className="pub page page--center">
      <div className="narrow">
        <div className="narrow__logo">
          <LogoLink />
        </div>
        <div className="card">
          <div className="card__body">
            <h1 className="center" style={{ fontSize: '1.5rem', marginBottom: 4 }}>
              Welcome
            </h1>
            <p className="center muted" style={{ marginBottom: 16 }}>
              Sign in to your account or create a new one
            </p>
            <div role="tablist" aria-label="Sign in or sign up" className="tabs" onKeyDown={onTabKey}>
              <button {...tabProps('signin')}>Sign In</button>
              <button {...tabProps('signup')}>Sign Up</button>
            </div>

            {error && (
              <div role="alert" className="alert alert--error" style={{ marginBottom: 16 }}>
                <Icon name="error" size={22} />
                <div className="alert__body">
                  {error.title && <span className="alert__title">{error.title}</span>}
                  {error.message}
                  {error.details && error.details.length > 0 && (
                    <ul>
                      {error.details.map((d) => (
                        <li key={d}>{d}</li>
                      ))}
                    </ul>
                  )}
                </div>
              </div>
            )}

            {tab === 'signin' ? (
              <div role="tabpanel" id={`${ids}-panel-signin`} aria-labelledby={`${ids}-tab-signin`}>
                <form noValidate onSubmit={onSignIn} aria-label="Sign in" className="stack">
                  {credentials('current-password')}
                  {submit('signin', 'Sign In', 'Signing in...')}
                </form>
              </div>
            ) : (
              <div role="tabpanel" id={`${ids}-panel-signup`} aria-labelledby={`${ids}-tab-signup`}>
                <form noValidate onSubmit={onSignUp} aria-label="Sign up" className="stack">
                  <div className="stack stack--row">
                    <TextInput
                      label="First Name"
                      name="firstName"
                      autoComplete="given-name"
                      value={firstName}
                      onChange={(e) => setFirstName(e.target.value)}
                      disabled={disabled}
                    />
                    <TextInput
                      label="Last Name"
                      name="lastName"
                      autoComplete="family-name"
                      value={lastName}
                      onChange={(e) => setLastName(e.target.value)}
                      disabled={disabled}
                    />
                  </div>
                  {credentials('new-password')}
                  {submit('signup', 'Sign Up', 'Creating account...')}
                </form>
              </div>
            )}

            <div className="divider" role="separator">
              or
            </div>
            <button type="button" className={buttonClass('outlined', { large: true, block: true })} onClick={onGoogle} disabled={disabled}>
              {busy === 'google' ? busySpinner : <GoogleIcon />}
              Continue with Google
            </button>
            <p className="small muted center" style={{ marginTop: 20 }}>
              Need PCP access? Sign up first, then request access from your dashboard.
            </p>
          </div>
        </div>
      </div>
    </main>
  );
}
