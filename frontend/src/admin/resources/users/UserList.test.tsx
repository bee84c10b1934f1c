import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, renderApp } from '../../../test/helpers';
import { adminApiMock, listOf } from '../../test/adminHelpers';
import type { UserListItemJson } from '@cds/contracts';

const user = (o: Partial<UserListItemJson>): UserListItemJson => ({
  id: 'u-1',
  email: 'pat@clinic.test',
  first_name: 'Pat',
  last_name: 'Lee',
  role: null,
  status: 'active',
  created_at: '2025-01-05T10:00:00.000Z',
  ...o,
});

describe('User Management', () => {
  it('lists users with the spec columns and searches by email or name', async () => {
    const api = adminApiMock({
      'GET /api/users': (req) =>
        req.query.get('filter')?.includes('pat')
          ? listOf('users', [user({})])
          : listOf('users', [
              user({}),
              user({ id: 'u-2', email: 'doc@clinic.test', first_name: null, last_name: null, role: 'pcp', status: 'pending_approval' }),
            ]),
      'GET /api/invitations': listOf('invitations', []),
    });
    renderApp('/admin/users');
    expect(await screen.findByRole('heading', { name: 'User Management' })).toBeInTheDocument();
    expect(screen.getByText('Manage user accounts, roles, and permissions.')).toBeInTheDocument();
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['User', 'Role', 'Status', 'Joined', 'Actions']);
    expect(await within(table).findByText('Pat Lee')).toBeInTheDocument();
    expect(within(table).getAllByText('Jan 5, 2025')).toHaveLength(2);
    expect(within(table).getByText('Pending approval')).toBeInTheDocument();
    await userEvent.type(screen.getByPlaceholderText('Search users by email or name...'), 'pat');
    await waitFor(() =>
      expect(api.calls.some((c) => c.path === '/api/users' && JSON.parse(c.query.get('filter')!).q === 'pat')).toBe(true),
    );
  });

  it('changes a role after confirmation, and shows the server message when refused', async () => {
    let role: UserListItemJson['role'] = null;
    const api = adminApiMock({
      'GET /api/users': () => listOf('users', [user({ role })]),
      'GET /api/invitations': listOf('invitations', []),
      'PUT /api/users/u-1/role': (req) => {
        const next = (req.body as { role: UserListItemJson['role'] }).role;
        if (next === 'super_admin') return apiError(409, 'conflict', 'The last super admin cannot be demoted');
        role = next;
        return json(200, user({ role }));
      },
    });
    renderApp('/admin/users');
    const select = await screen.findByRole('combobox', { name: 'Change role of pat@clinic.test' });
    await userEvent.click(select);
    await userEvent.click(await screen.findByRole('option', { name: 'Primary Care Provider' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change role' });
    expect(dialog).toHaveTextContent('from No Role Assigned to Primary Care Provider');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change role' }));
    expect(await screen.findByText('pat@clinic.test is now Primary Care Provider.')).toBeInTheDocument();
    expect(api.callsTo('PUT /api/users/u-1/role')[0].body).toEqual({ role: 'pcp' });

    // The toast shows at once; the list is usable again when the dialog has finished closing.
    await userEvent.click(await screen.findByRole('combobox', { name: 'Change role of pat@clinic.test' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Super Admin' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Change role' })).getByRole('button', { name: 'Change role' }));
    expect(await screen.findByText('The last super admin cannot be demoted')).toBeInTheDocument();
  });

  it('an admin cannot change an administrator and is offered only PCP or no role', async () => {
    adminApiMock(
      {
        'GET /api/users': listOf('users', [user({ id: 'a', email: 'boss@clinic.test', role: 'super_admin' }), user({})]),
        'GET /api/invitations': listOf('invitations', []),
      },
      'admin',
    );
    renderApp('/admin/users');
    expect(await screen.findByText('No changes allowed')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('combobox', { name: 'Change role of pat@clinic.test' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['Primary Care Provider', 'No role']);
  });

  it('Invite User creates a link to copy; a refused invitation keeps the email typed', async () => {
    const api = adminApiMock({
      'GET /api/users': listOf('users', []),
      'GET /api/invitations': listOf('invitations', []),
      'POST /api/invitations': (req) =>
        (req.body as { email: string }).email === 'taken@clinic.test'
          ? apiError(409, 'conflict', 'A user with this email already exists')
          : json(201, {
              id: 'i-1',
              email: 'new@clinic.test',
              role: 'pcp',
              status: 'pending',
              url: 'http://localhost:3000/invite/abc',
              expires_at: '2030-01-08T10:00:00.000Z',
              created_at: '2030-01-01T10:00:00.000Z',
              accepted_at: null,
              invited_by_email: 'dr.jones@example.org',
            }),
    });
    renderApp('/admin/users');
    await userEvent.click(await screen.findByRole('button', { name: 'Invite User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite User' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    expect(within(dialog).getByText('Enter the email address to invite.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/invitations')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText(/^Email/), 'taken@clinic.test');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    expect(await within(dialog).findByText('A user with this email already exists')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Email/)).toHaveValue('taken@clinic.test');
    await userEvent.clear(within(dialog).getByLabelText(/^Email/));
    await userEvent.type(within(dialog).getByLabelText(/^Email/), 'new@clinic.test');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create invitation link' }));
    expect(await within(dialog).findByDisplayValue(`${window.location.origin}/invite/abc`)).toBeInTheDocument();
    expect(api.callsTo('POST /api/invitations').at(-1)!.body).toEqual({ email: 'new@clinic.test', role: 'pcp' });
  });

  it('when the users or the invitations cannot be read, each says so at once and offers Retry, which reads again', async () => {
    let up = false;
    const api = adminApiMock({
      'GET /api/users': () => (up ? listOf('users', [user({})]) : apiError(503, 'unavailable', 'Service unavailable')),
      'GET /api/invitations': () => (up ? listOf('invitations', []) : apiError(503, 'unavailable', 'Service unavailable')),
    });
    renderApp('/admin/users');
    await screen.findByText('The invitations could not be loaded.');
    await screen.findByText('The users could not be loaded.');
    const alerts = screen.getAllByRole('alert');
    const usersAlert = alerts.find((a) => a.textContent?.includes('The users could not be loaded.'));
    const invitationsAlert = alerts.find((a) => a.textContent?.includes('The invitations could not be loaded.'));
    expect(usersAlert).toBeDefined();
    expect(invitationsAlert).toBeDefined();
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
    // No silent retries behind "Loading": one read each until the user asks again.
    expect(api.callsTo('GET /api/invitations')).toHaveLength(1);
    up = true;
    await userEvent.click(within(usersAlert!).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Pat Lee')).toBeInTheDocument();
    await userEvent.click(within(invitationsAlert!).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No pending invitations.')).toBeInTheDocument();
    expect(screen.queryByText(/could not be loaded/)).not.toBeInTheDocument();
  });
});
