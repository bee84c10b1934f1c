import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { auth } from '../api';
import type { Role } from '@cds/contracts';
import { apiError, deferred, json, makeSession, me, mockApi, renderApp, seedSession } from '../test/helpers';

function dashboardApi(role: Role | null, extra: Parameters<typeof mockApi>[0] = {}, profile: Parameters<typeof me>[1] = {}) {
  seedSession();
  return mockApi({ 'GET /api/me': json(200, me(role, profile)), ...extra });
}

describe('Dashboard', () => {
  it('shows the profile: full name, email, member since (US short date) and role badge', async () => {
    seedSession();
    // Role known (guard passes) but the profile request is slow: use a refresh of /api/me.
    const first = json(200, me(null));
    const later = deferred<Response>();
    let n = 0;
    mockApi({ 'GET /api/me': () => (n++ === 0 ? first : later.promise) });
    renderApp('/dashboard');
    expect(await screen.findByTestId('display-name')).toHaveTextContent('Ada Jones');
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('dr.jones@example.org')).toBeInTheDocument();
    expect(screen.getByText('Jan 5, 2025')).toBeInTheDocument();
    expect(screen.getByText('No Role Assigned')).toBeInTheDocument();
    later.resolve(json(200, me(null)));
  });

  it.each([
    [{ first_name: '', last_name: '' }, 'dr.jones@example.org'],
    [{ first_name: 'Ada', last_name: null }, 'Ada'],
  ])('display name falls back (%j → %s)', async (profile, expected) => {
    dashboardApi(null, {}, profile);
    renderApp('/dashboard');
    expect(await screen.findByTestId('display-name')).toHaveTextContent(expected);
  });

  it.each([
    ['admin', 'Administrator', 'primary'],
    ['super_admin', 'Super Admin', 'error'],
    ['pcp', 'Primary Care Provider', 'secondary'],
  ] as const)('role badge for %s', async (role, label, color) => {
    dashboardApi(role);
    renderApp('/dashboard');
    const badge = (await screen.findByText(label)).closest('.badge')!;
    expect(badge.className).toContain(`badge--${color}`);
  });

  it.each([
    [
      'admin',
      [
        ['Access Admin Console', '/admin'],
        ['Try Diagnostic Assistant', '/chatbot'],
        ['Manage Users', '/admin/users'],
        ['Review Approvals', '/admin/approvals'],
      ],
    ],
    [
      'super_admin',
      [
        ['Access Admin Console', '/admin'],
        ['Try Diagnostic Assistant', '/chatbot'],
        ['Manage Users', '/admin/users'],
        ['Review Approvals', '/admin/approvals'],
      ],
    ],
    [
      'pcp',
      [
        ['Access Diagnostic Assistant', '/pcp'],
        ['Try AI Chat Assistant', '/chatbot'],
      ],
    ],
    [null, [['Try Diagnostic Assistant', '/chatbot']]],
  ] as const)('System Access links for role %s', async (role, links) => {
    dashboardApi(role);
    renderApp('/dashboard');
    const card = (await screen.findByRole('heading', { name: 'System Access' })).closest('section')!;
    await waitFor(() =>
      expect(
        within(card)
          .getAllByRole('link')
          .map((l) => [l.textContent, l.getAttribute('href')]),
      ).toEqual(links.map((l) => [...l])),
    );
    const request = within(card).queryByRole('button', { name: 'Request PCP Access' });
    if (role === null) {
      expect(request).toBeInTheDocument();
      expect(within(card).getByText(/don't have access to specific features yet/)).toBeInTheDocument();
    } else expect(request).not.toBeInTheDocument();
  });

  it('Request PCP Access: 201 shows the success toast', async () => {
    const api = dashboardApi(null, { 'POST /api/me/access-requests': json(201, { id: 'r1', requested_role: 'pcp' }) });
    renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Request PCP Access' }));
    expect(await screen.findByText('Request submitted')).toBeInTheDocument();
    expect(screen.getByText('Your PCP access request has been submitted for review.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/me/access-requests')[0].body).toEqual({ requested_role: 'pcp' });
  });

  it('Request PCP Access is disabled once the request is pending (201, or 409 for one already pending)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const answer of [
      json(201, { id: 'r1', requested_role: 'pcp' }),
      apiError(409, 'conflict', 'You already have a pending PCP access request'),
    ]) {
      const api = dashboardApi(null, { 'POST /api/me/access-requests': answer });
      const view = renderApp('/dashboard');
      await userEvent.click(await screen.findByRole('button', { name: 'Request PCP Access' }));
      await screen.findByText('Your request is awaiting review by an administrator.');
      expect(screen.getByRole('button', { name: 'Request PCP Access' })).toBeDisabled();
      expect(api.callsTo('POST /api/me/access-requests')).toHaveLength(1);
      view.unmount();
    }
  });

  it('a request pending before a reload keeps Request PCP Access disabled (GET /api/me says so; issue 10)', async () => {
    seedSession();
    const api = mockApi({
      'GET /api/me': json(200, me(null, {}, { id: 'r1', requested_role: 'pcp', created_at: '2026-11-23T09:00:00.000Z' })),
    });
    renderApp('/dashboard');
    expect(await screen.findByText('Your request is awaiting review by an administrator.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Request PCP Access' })).toBeDisabled();
    expect(api.callsTo('POST /api/me/access-requests')).toHaveLength(0);
  });

  it('with nothing pending the button is enabled and no waiting note shows', async () => {
    seedSession();
    mockApi({ 'GET /api/me': json(200, me(null)) });
    renderApp('/dashboard');
    expect(await screen.findByRole('button', { name: 'Request PCP Access' })).toBeEnabled();
    expect(screen.queryByText('Your request is awaiting review by an administrator.')).not.toBeInTheDocument();
  });

  it('Request PCP Access: 409 shows the server message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    dashboardApi(null, { 'POST /api/me/access-requests': apiError(409, 'conflict', 'You already have a pending PCP access request') });
    renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Request PCP Access' }));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('You already have a pending PCP access request');
    expect(toast).toHaveAttribute('data-variant', 'destructive');
  });

  it('Edit Profile: validation messages, then save closes the dialog and refreshes', async () => {
    let n = 0;
    seedSession();
    const api = mockApi({
      'GET /api/me': () => json(200, me(null, n++ === 0 ? {} : { first_name: 'Grace', last_name: 'Hopper' })),
      'PATCH /api/me/profile': json(200, { id: 'user-1', first_name: 'Grace', last_name: 'Hopper', updated_at: null }),
    });
    renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Profile' });
    const first = within(dialog).getByLabelText(/First name/);
    const last = within(dialog).getByLabelText(/Last name/);
    expect(first).toHaveValue('Ada');
    await userEvent.clear(first);
    await userEvent.clear(last);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('First name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Last name is required')).toBeInTheDocument();
    expect(api.callsTo('PATCH /api/me/profile')).toHaveLength(0);
    await userEvent.type(first, 'Grace');
    await userEvent.type(last, 'Hopper');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(screen.getByText('Your profile has been successfully updated.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('PATCH /api/me/profile')[0].body).toEqual({ first_name: 'Grace', last_name: 'Hopper' });
    await waitFor(() => expect(screen.getByTestId('display-name')).toHaveTextContent('Grace Hopper'));
  });

  it('Edit Profile: a failed save keeps the dialog open with what was typed', async () => {
    const save = deferred<Response>();
    dashboardApi(null, { 'PATCH /api/me/profile': () => save.promise });
    renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    const dialog = await screen.findByRole('dialog');
    const first = within(dialog).getByLabelText(/First name/);
    await userEvent.clear(first);
    await userEvent.type(first, 'Augusta');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // While saving, both buttons are disabled and a spinner shows.
    expect(within(dialog).getByRole('button', { name: /Save/ })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(within(dialog).getByRole('progressbar', { name: 'Saving' })).toBeInTheDocument();
    save.resolve(apiError(500, 'internal', ''));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Error');
    expect(toast).toHaveTextContent('Failed to update profile');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/First name/)).toHaveValue('Augusta');
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('Sign Out clears the stored session and goes to /auth even if the server fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    dashboardApi('pcp', { 'POST /api/auth/logout': apiError(500, 'internal', 'boom') });
    renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth'));
    expect(localStorage.length).toBe(0);
  });
});

describe('token refresh while typing', () => {
  it('keeps the open dialog and what was typed', async () => {
    seedSession();
    const api = mockApi({
      'GET /api/me': json(200, me('pcp')),
      'POST /api/auth/token': json(200, { ...makeSession({ access_token: 'access-2', refresh_token: 'refresh-2' }) }),
    });
    renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    const first = within(await screen.findByRole('dialog')).getByLabelText(/First name/);
    await userEvent.clear(first);
    await userEvent.type(first, 'Half-typed');
    await act(async () => {
      await auth.refreshSession();
    });
    await waitFor(() => expect(api.callsTo('GET /api/me').length).toBeGreaterThan(1));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(within(screen.getByRole('dialog')).getByLabelText(/First name/)).toHaveValue('Half-typed');
    expect(screen.queryByRole('progressbar', { name: 'Loading' })).not.toBeInTheDocument();
  });
});
