import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { auth, SESSION_KEY } from '../api';
import { apiError, deferred, json, makeSession, me, mockApi, renderApp } from '../test/helpers';

async function fillSignIn() {
  await userEvent.type(await screen.findByLabelText(/^Email/), 'dr.jones@example.org');
  await userEvent.type(screen.getByLabelText(/^Password/), 'correct horse');
}

describe('Auth page', () => {
  it('shows the tabs, Google button, logo link and PCP hint', async () => {
    mockApi({});
    renderApp('/auth');
    expect(await screen.findByRole('tab', { name: 'Sign In', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Sign Up' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /home/i })).toHaveAttribute('href', '/');
    expect(screen.getByText('Need PCP access? Sign up first, then request access from your dashboard.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('type', 'email');
  });

  it('sign in: busy label and disabled inputs, then toast and redirect by role', async () => {
    const token = deferred<Response>();
    const api = mockApi({
      'POST /api/auth/token': () => token.promise,
      'GET /api/me': json(200, me(null)),
    });
    renderApp('/auth');
    await fillSignIn();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
    expect(screen.getByLabelText(/^Email/)).toBeDisabled();
    expect(screen.getByLabelText(/^Password/)).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeDisabled();
    token.resolve(json(200, makeSession()));
    expect(await screen.findByText('Welcome back!')).toBeInTheDocument();
    expect(screen.getByText("You've been successfully signed in.")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(api.callsTo('POST /api/auth/token')[0].body).toEqual({ email: 'dr.jones@example.org', password: 'correct horse' });
    expect(api.callsTo('POST /api/auth/token')[0].query.get('grant_type')).toBe('password');
    expect(localStorage.getItem(SESSION_KEY)).not.toBeNull();
  });

  it('sign in failure shows the server message in a destructive alert', async () => {
    mockApi({ 'POST /api/auth/token': apiError(400, 'invalid_credentials', 'Invalid login credentials') });
    renderApp('/auth');
    await fillSignIn();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Invalid login credentials');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
    expect(screen.getByLabelText(/^Email/)).toHaveValue('dr.jones@example.org');
  });

  it('sign in failure without a server message uses the spec fallback', async () => {
    mockApi({ 'POST /api/auth/token': new Response('', { status: 500 }) });
    renderApp('/auth');
    await fillSignIn();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An error occurred during sign in');
  });

  it('sign up: optional names sent as data, busy label, success toast', async () => {
    const signup = deferred<Response>();
    const api = mockApi({ 'POST /api/auth/signup': () => signup.promise, 'GET /api/me': json(200, me(null)) });
    renderApp('/auth');
    await userEvent.click(await screen.findByRole('tab', { name: 'Sign Up' }));
    await userEvent.type(screen.getByLabelText('First Name'), 'Ada');
    await userEvent.type(screen.getByLabelText('Last Name'), 'Jones');
    await userEvent.type(screen.getByLabelText(/^Email/), 'ada@example.org');
    await userEvent.type(screen.getByLabelText(/^Password/), 'a long passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('button', { name: 'Creating account...' })).toBeDisabled();
    expect(screen.getByLabelText('First Name')).toBeDisabled();
    signup.resolve(json(201, makeSession()));
    expect(await screen.findByText('Account created successfully!')).toBeInTheDocument();
    expect(screen.getByText("You've been automatically signed in.")).toBeInTheDocument();
    expect(api.callsTo('POST /api/auth/signup')[0].body).toEqual({
      email: 'ada@example.org',
      password: 'a long passphrase',
      data: { first_name: 'Ada', last_name: 'Jones' },
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
  });

  it('sign up weak password lists the reasons', async () => {
    mockApi({
      'POST /api/auth/signup': apiError(400, 'weak_password', 'Password is too weak', ['At least 12 characters', 'Not a common password']),
    });
    renderApp('/auth');
    await userEvent.click(await screen.findByRole('tab', { name: 'Sign Up' }));
    await userEvent.type(screen.getByLabelText(/^Email/), 'ada@example.org');
    await userEvent.type(screen.getByLabelText(/^Password/), 'password1234');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Password is too weak');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['At least 12 characters', 'Not a common password']);
  });

  it('missing email or password is caught before calling the server, in words about the fields the form has', async () => {
    const api = mockApi({});
    renderApp('/auth');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter your email and password.');
    expect(screen.getByRole('alert')).not.toHaveTextContent(/phone/i);
    expect(api.calls).toHaveLength(0);
  });

  it('a 3-character password is flagged on sign-up with the server’s rule, before anything is sent', async () => {
    const api = mockApi({});
    renderApp('/auth');
    await userEvent.click(await screen.findByRole('tab', { name: 'Sign Up' }));
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription('At least 10 characters.');
    await userEvent.type(screen.getByLabelText(/^Email/), 'ada@example.org');
    await userEvent.type(screen.getByLabelText(/^Password/), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Password must be at least 10 characters long');
    expect(api.calls).toHaveLength(0);
  });

  it('Google: 501 oauth_not_configured shows the server message', async () => {
    mockApi({ 'GET /api/auth/google': apiError(501, 'oauth_not_configured', 'Google sign-in is not configured on this server') });
    renderApp('/auth');
    await userEvent.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An error occurred during Google sign in');
    expect(alert).toHaveTextContent('Google sign-in is not configured on this server');
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();
  });

  it('Google: an error returned in the URL fragment is shown on /auth', async () => {
    window.history.replaceState(null, '', '/#error=access_denied&error_description=The%20user%20cancelled');
    auth.consumeUrlFragment();
    mockApi({});
    renderApp('/auth');
    expect(await screen.findByRole('alert')).toHaveTextContent('The user cancelled');
  });
});
