import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { auth } from './api';
import { deferred, json, makeUser, me, mockApi, renderApp, seedSession } from './test/helpers';

describe('routes and guards', () => {
  it('landing: tagline and both buttons lead to /auth for a visitor', async () => {
    mockApi({});
    renderApp('/');
    expect(await screen.findByText('Intelligent diabetes management system powered by AI-driven diagnostic rules')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/auth');
    expect(screen.getByRole('link', { name: 'Sign In / Sign Up' })).toHaveAttribute('href', '/auth');
    expect(screen.getByText(`© ${new Date().getFullYear()}`, { exact: false })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(3);
  });

  it('landing redirects a signed-in user by role, with a spinner while the role loads', async () => {
    seedSession();
    const pending = deferred<Response>();
    mockApi({
      'GET /api/me': () => pending.promise,
      'GET /api/assessments': json(200, [], { 'Content-Range': 'assessments 0-0/0' }),
      'GET /api/assessments/summary': json(404, {}),
    });
    renderApp('/');
    expect(await screen.findByRole('progressbar')).toBeInTheDocument();
    expect(screen.queryByText('Get Started')).not.toBeInTheDocument();
    pending.resolve(json(200, me('pcp')));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/pcp'));
  });

  it.each([
    ['admin', '/admin'],
    ['super_admin', '/admin'],
    ['pcp', '/pcp'],
    [null, '/dashboard'],
  ] as const)('role %s lands on %s from /auth', async (role, home) => {
    seedSession();
    mockApi({
      'GET /api/me': json(200, me(role)),
      'GET /api/assessments': json(200, [], { 'Content-Range': 'assessments 0-0/0' }),
      'GET /api/assessments/summary': json(404, {}),
    });
    renderApp('/auth');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(home));
  });

  it('a signed-out visitor to a protected page goes to /auth', async () => {
    mockApi({});
    renderApp('/dashboard');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth'));
    expect(await screen.findByRole('button', { name: 'Continue with Google' })).toBeInTheDocument();
  });

  it.each(['/admin', '/admin/users'])('a pcp is sent from %s to /unauthorized', async (path) => {
    seedSession();
    mockApi({ 'GET /api/me': json(200, me('pcp')) });
    renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/unauthorized');
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('button', { name: 'Sign In with Different Account' })).toBeInTheDocument();
  });

  it.each(['/pcp', '/clinical-form', '/pcp/cases'])('a user without a role is sent from %s to /unauthorized', async (path) => {
    seedSession();
    mockApi({ 'GET /api/me': json(200, me(null)) });
    renderApp(path);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/unauthorized'));
  });

  it('an admin reaches the (lazy) admin console', async () => {
    seedSession();
    mockApi({ 'GET /api/me': json(200, me('admin')) });
    renderApp('/admin');
    expect(await screen.findByRole('complementary', { name: 'Admin Console sidebar' })).toBeInTheDocument();
    expect(screen.getByText('Admin Console', { selector: 'header p' })).toBeInTheDocument();
  });

  it('a failed role lookup is logged and gives no role', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    seedSession();
    mockApi({ 'GET /api/me': json(500, { statusCode: 500, code: 'internal', message: 'db down' }) });
    renderApp('/pcp');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/unauthorized'));
    expect(log).toHaveBeenCalled();
  });

  it('unknown paths show the 404 page with a home link and a console log', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockApi({});
    renderApp('/no/such/page');
    expect(await screen.findByText('Oops! Page not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(log).toHaveBeenCalledWith(expect.stringContaining('404'), '/no/such/page');
  });

  it('Sign In with Different Account signs out and opens /auth', async () => {
    seedSession();
    const api = mockApi({ 'GET /api/me': json(200, me(null)), 'POST /api/auth/logout': new Response(null, { status: 204 }) });
    renderApp('/unauthorized');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign In with Different Account' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth'));
    expect(api.callsTo('POST /api/auth/logout')).toHaveLength(1);
    expect(localStorage.length).toBe(0);
  });
});

describe('PCP console layout', () => {
  it('has the menu, a keyboard-operable collapse toggle and Sign Out', async () => {
    seedSession();
    mockApi({
      'GET /api/me': json(200, me('pcp')),
      'GET /api/assessments': json(200, [], { 'Content-Range': 'assessments 0-0/0' }),
      'GET /api/assessments/summary': json(200, { active_rules: 3 }),
    });
    renderApp('/pcp');
    const nav = await screen.findByRole('navigation', { name: 'PCP Console menu' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Dashboard', '/pcp'],
      ['Panel', '/pcp/panel'],
      ['Clinical Form', '/clinical-form'],
      ['Diagnostic Assistant', '/chatbot'],
      ['Case History', '/pcp/cases'],
      ['Settings', '/pcp/settings'],
    ]);
    expect(screen.getByText('PCP Console')).toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: 'Collapse sidebar' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toHaveAttribute('aria-expanded', 'false');
    // Collapsed: icons only, each link keeps its accessible name.
    expect(within(nav).getByRole('link', { name: 'Case History' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
  });
});

describe('Google sign-in return', () => {
  it('a session in the URL fragment signs the user in and redirects by role', async () => {
    window.history.replaceState(null, '', '/#access_token=A&refresh_token=R&expires_in=3600&token_type=bearer');
    auth.consumeUrlFragment();
    mockApi({
      'GET /api/auth/user': json(200, makeUser()),
      'GET /api/me': json(200, me('admin')),
    });
    renderApp('/');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/admin'));
    expect(window.location.hash).toBe('');
    expect(JSON.parse(localStorage.getItem('cds.auth.session')!).access_token).toBe('A');
  });

  it('a rejected fragment token ends on /auth with the error shown', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    window.history.replaceState(null, '', '/#access_token=bad&refresh_token=R&expires_in=3600&token_type=bearer');
    auth.consumeUrlFragment();
    mockApi({ 'GET /api/auth/user': json(401, { statusCode: 401, code: 'invalid_jwt', message: 'Invalid token' }) });
    renderApp('/');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid token');
    expect(screen.getByTestId('location')).toHaveTextContent('/auth');
    expect(localStorage.getItem('cds.auth.session')).toBeNull();
  });
});
