import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, renderApp } from '../../test/helpers';
import { adminApiMock } from '../test/adminHelpers';

describe('Admin overview', () => {
  it('shows the welcome line, the real figures, health, the activity feed and the menu', async () => {
    adminApiMock({
      'GET /api/stats': json(200, { total_users: 42, active_pcps: 7, pending_approvals: 3 }),
      'GET /api/activity': json(200, [
        {
          id: 'a1',
          type: 'signup',
          at: '2025-03-01T10:00:00Z',
          actor_email: null,
          subject_email: 'new@x.org',
          summary: 'new@x.org signed up',
        },
      ]),
    });
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Welcome back, Ada' })).toBeInTheDocument();
    expect(await screen.findByTestId('stat-total-users')).toHaveTextContent('42');
    expect(screen.getByTestId('stat-active-pcps')).toHaveTextContent('7');
    expect(screen.getByTestId('stat-pending-approvals')).toHaveTextContent('3');
    expect(await screen.findByText('Healthy')).toBeInTheDocument();
    expect(screen.getByText('All systems operational')).toBeInTheDocument();
    expect(await screen.findByText('new@x.org signed up')).toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'Admin Console menu' });
    expect(
      within(menu)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Dashboard', '/admin'],
      ['User Management', '/admin/users'],
      ['Parameter Management', '/admin/parameters'],
      ['Rule Designer', '/admin/rules'],
      ['Pending Approvals', '/admin/approvals'],
      ['Clinical Form', '/clinical-form'],
      ['AI Chat Assistant', '/chatbot'],
      ['Settings', '/admin/settings'],
    ]);
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
  });

  it('says so when there is no activity, and when the system is degraded', async () => {
    adminApiMock({
      'GET /api/health': json(503, { status: 'degraded', database: 'up', queue: 'down' }),
    });
    renderApp('/admin');
    expect(await screen.findByText('No recent activity')).toBeInTheDocument();
    expect(await screen.findByText('Degraded')).toBeInTheDocument();
    expect(screen.getByText('The queue is not reachable.')).toBeInTheDocument();
  });

  it('recent activity that could not load says why and loads again on Retry', async () => {
    let calls = 0;
    adminApiMock({
      'GET /api/activity': () =>
        calls++ === 0
          ? apiError(500, 'internal', 'Database unavailable')
          : json(200, [
              {
                id: 'a1',
                type: 'signup',
                at: '2025-05-01T09:00:00Z',
                actor_email: null,
                subject_email: 'dr.new@example.org',
                summary: 'dr.new@example.org signed up',
              },
            ]),
    });
    renderApp('/admin');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Recent activity is unavailable.');
    expect(alert).toHaveTextContent('Database unavailable');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('dr.new@example.org signed up')).toBeInTheDocument();
    expect(screen.queryByText('Recent activity is unavailable.')).not.toBeInTheDocument();
  });
});
