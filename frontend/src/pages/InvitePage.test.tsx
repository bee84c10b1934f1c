import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SESSION_KEY } from '../api';
import { apiError, json, makeSession, makeUser, me, mockApi, renderApp, seedSession } from '../test/helpers';

const preview = { email: 'invited@clinic.test', role: 'pcp', expires_at: '2030-01-08T10:00:00.000Z' };

describe('Invite page (/invite/:token)', () => {
  it('shows the invitation, sets names and a password, stores the session and lands by role', async () => {
    const session = makeSession({ access_token: 'invited-access', user: makeUser({ email: 'invited@clinic.test' }) });
    const api = mockApi({
      'GET /api/invitations/by-token/tok123': json(200, preview),
      'POST /api/invitations/accept': json(201, session),
      'GET /api/me': json(200, me('pcp')),
      'GET /api/assessments': json(200, [], { 'Content-Range': 'assessments 0-0/0' }),
      'GET /api/assessments/summary': json(200, {}),
    });
    renderApp('/invite/tok123');
    expect(await screen.findByDisplayValue('invited@clinic.test')).toBeInTheDocument();
    expect(screen.getByText(/join as Primary Care Provider/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('First Name'), 'Ines');
    await userEvent.type(screen.getByLabelText('Last Name'), 'Moreau');
    await userEvent.type(screen.getByLabelText(/^Password/), 'a long enough passphrase');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'a long enough passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/pcp'));
    expect(api.callsTo('POST /api/invitations/accept')[0].body).toEqual({
      token: 'tok123',
      password: 'a long enough passphrase',
      first_name: 'Ines',
      last_name: 'Moreau',
    });
    expect(JSON.parse(localStorage.getItem(SESSION_KEY)!).access_token).toBe('invited-access');
    expect(await screen.findByText('Account created successfully!')).toBeInTheDocument();
  });

  it('catches a short password and a mismatch without a request', async () => {
    const api = mockApi({ 'GET /api/invitations/by-token/tok123': json(200, preview) });
    renderApp('/invite/tok123');
    await screen.findByDisplayValue('invited@clinic.test');
    await userEvent.type(screen.getByLabelText(/^Password/), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('Password must be at least 10 characters long')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Password/), ' but now long');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'something else');
    await userEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('The passwords do not match.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/invitations/accept')).toHaveLength(0);
  });

  it('shows the weak_password reasons and keeps what was typed', async () => {
    mockApi({
      'GET /api/invitations/by-token/tok123': json(200, preview),
      'POST /api/invitations/accept': apiError(422, 'weak_password', 'Password is too weak', ['Password is too common']),
    });
    renderApp('/invite/tok123');
    await screen.findByDisplayValue('invited@clinic.test');
    await userEvent.type(screen.getByLabelText('First Name'), 'Ines');
    await userEvent.type(screen.getByLabelText(/^Password/), 'password1234');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'password1234');
    await userEvent.click(screen.getByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByText('Password is too weak')).toBeInTheDocument();
    expect(screen.getByText('Password is too common')).toBeInTheDocument();
    expect(screen.getByLabelText('First Name')).toHaveValue('Ines');
    expect(screen.getByLabelText(/^Password/)).toHaveValue('password1234');
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('explains a used, revoked or expired link, and an unknown one', async () => {
    mockApi({ 'GET /api/invitations/by-token/used': apiError(409, 'conflict', 'This invitation has already been used') });
    const { unmount } = renderApp('/invite/used');
    expect(await screen.findByText('This invitation has already been used')).toBeInTheDocument();
    unmount();
    mockApi({ 'GET /api/invitations/by-token/nope': apiError(404, 'not_found', 'Invitation not found') });
    renderApp('/invite/nope');
    expect(await screen.findByText('This invitation link is not valid')).toBeInTheDocument();
  });

  it('asks a signed-in visitor to sign out first', async () => {
    seedSession();
    mockApi({ 'GET /api/invitations/by-token/tok123': json(200, preview), 'GET /api/me': json(200, me('admin')) });
    renderApp('/invite/tok123');
    expect(await screen.findByText(/You are signed in as dr.jones@example.org/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
  });
});
