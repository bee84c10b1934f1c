import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Assessment } from '../api/types';
import { apiError, deferred, json, makeAssessment, me, mockApi, renderApp, seedSession } from '../test/helpers';

const recommendation = {
  rule_id: 'r-1',
  rule_name: 'Hypothyroidism work-up',
  rule_version: 3,
  rule_set_id: 'rs-1',
  rule_set_name: 'Thyroid',
  description: 'Start levothyroxine evaluation',
  severity: 'high',
  actions: [{ type: 'recommendation', severity: 'high', message: 'Refer to endocrinology', value: null }],
  basis: [
    { parameter_id: 'p-tsh-0000-1111', parameter_name: 'TSH', operator: 'greater_than', threshold: 4.5, value: 5.5 },
    { parameter_id: 'p-ab-0000-2222', parameter_name: 'Antibodies', operator: 'equals', threshold: true, value: true },
  ],
};

const withRec = (id: string, created: string): Assessment =>
  makeAssessment({
    id,
    is_completed: true,
    current_question: null,
    current_parameter_id: null,
    answers: { 'p-tsh-0000-1111': 5.5, 'p-ab-0000-2222': true },
    completed_parameter_ids: ['p-tsh-0000-1111', 'p-ab-0000-2222'],
    recommendation,
    created_at: created,
    completed_at: created,
  });
const noRec = (id: string): Assessment =>
  makeAssessment({ id, is_completed: true, current_question: null, recommendation: null, answers: { 'p-tsh-0000-1111': 3.5 } });
const open = (id: string): Assessment => makeAssessment({ id });

function list(items: Assessment[], total = items.length) {
  return json(200, items, { 'Content-Range': `assessments 0-${Math.max(items.length - 1, 0)}/${total}` });
}

describe('PCP Dashboard', () => {
  it('computes the figures from the user’s assessments', async () => {
    seedSession();
    const api = mockApi({
      'GET /api/me': json(200, me('pcp')),
      'GET /api/assessments': list([withRec('a1', '2025-03-02T10:00:00Z'), withRec('a2', '2025-03-01T10:00:00Z'), noRec('a3'), open('a4')]),
      'GET /api/assessments/summary': json(200, { active_rules: 12 }),
    });
    renderApp('/pcp');
    expect(await screen.findByRole('heading', { name: /Welcome back, dr.jones@example.org/ })).toBeInTheDocument();
    expect(await screen.findByTestId('stat-Total Cases')).toHaveTextContent('4');
    expect(screen.getByTestId('stat-Patients Helped')).toHaveTextContent('2');
    expect(screen.getByTestId('stat-Success Rate')).toHaveTextContent('67%'); // 2 of 3 completed
    expect(screen.getByTestId('stat-Active Rules')).toHaveTextContent('12');
    const req = api.callsTo('GET /api/assessments')[0];
    expect(req.query.get('range')).toBe('[0,99]');
    expect(req.query.get('sort')).toBe('["created_at","DESC"]');
    const recent = screen.getByRole('list', { name: 'Recent cases' });
    expect(within(recent).getAllByRole('link')[0]).toHaveAttribute('href', '/pcp/cases/a1');
    expect(within(recent).getAllByRole('link')[0]).toHaveTextContent('Hypothyroidism work-up');
    expect(screen.getByRole('link', { name: /Launch Diagnostic Assistant/ })).toHaveAttribute('href', '/clinical-form');
  });

  it('uses the Content-Range total and pages through the rest', async () => {
    seedSession();
    const first = Array.from({ length: 100 }, (_, i) => withRec(`a${i}`, '2025-03-01T10:00:00Z'));
    const second = [noRec('b1'), noRec('b2')];
    mockApi({
      'GET /api/me': json(200, me('pcp')),
      'GET /api/assessments': (req) =>
        req.query.get('range') === '[0,99]' ? list(first, 102) : json(200, second, { 'Content-Range': 'assessments 100-101/102' }),
      'GET /api/assessments/summary': json(404, {}),
    });
    renderApp('/pcp');
    expect(await screen.findByTestId('stat-Total Cases')).toHaveTextContent('102');
    expect(screen.getByTestId('stat-Patients Helped')).toHaveTextContent('100');
    expect(screen.getByTestId('stat-Success Rate')).toHaveTextContent('98%');
  });

  it('empty: zeros, -- success rate, no Active Rules card when the summary is unavailable', async () => {
    seedSession();
    mockApi({
      'GET /api/me': json(200, me('pcp')),
      'GET /api/assessments': list([], 0),
      'GET /api/assessments/summary': apiError(404, 'not_found', 'Not found'),
    });
    renderApp('/pcp');
    expect(await screen.findByTestId('stat-Total Cases')).toHaveTextContent('0');
    expect(screen.getByTestId('stat-Success Rate')).toHaveTextContent('--');
    expect(screen.getByTestId('stat-Patients Helped')).toHaveTextContent('0');
    expect(screen.queryByTestId('stat-Active Rules')).not.toBeInTheDocument();
    expect(screen.getByText('No cases yet')).toBeInTheDocument();
  });

  it('loading then error with a working Retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    seedSession();
    const slow = deferred<Response>();
    let n = 0;
    mockApi({
      'GET /api/me': json(200, me('pcp')),
      'GET /api/assessments': () => (n++ === 0 ? slow.promise : list([withRec('a1', '2025-03-01T10:00:00Z')])),
      'GET /api/assessments/summary': json(200, { active_rules: 1 }),
    });
    renderApp('/pcp');
    expect(await screen.findByRole('status', { name: 'Loading recent cases' })).toBeInTheDocument();
    slow.resolve(apiError(500, 'internal', 'Database unavailable'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your cases.');
    expect(alert).toHaveTextContent('Database unavailable');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('stat-Total Cases')).toHaveTextContent('1');
    expect(screen.queryByText(/Could not load your cases/)).not.toBeInTheDocument();
  });
});

describe('Case History', () => {
  it('lists the user’s assessments with their results', async () => {
    seedSession();
    mockApi({
      'GET /api/me': json(200, me('pcp')),
      'GET /api/assessments': list([withRec('a1', '2025-03-02T10:00:00Z'), noRec('a2'), open('a3')]),
    });
    renderApp('/pcp/cases');
    const table = await screen.findByRole('table', { name: 'Case history' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Hypothyroidism work-up');
    expect(rows[0]).toHaveTextContent('High priority');
    expect(rows[1]).toHaveTextContent('No recommendation');
    expect(rows[2]).toHaveTextContent('In progress');
    expect(within(rows[0]).getByRole('link')).toHaveAttribute('href', '/pcp/cases/a1');
  });

  it('loading, then empty', async () => {
    seedSession();
    const slow = deferred<Response>();
    mockApi({ 'GET /api/me': json(200, me('pcp')), 'GET /api/assessments': () => slow.promise });
    renderApp('/pcp/cases');
    expect(await screen.findByText('Loading cases...')).toBeInTheDocument();
    slow.resolve(list([], 0));
    expect(await screen.findByText('No cases yet')).toBeInTheDocument();
  });

  it('error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    seedSession();
    mockApi({ 'GET /api/me': json(200, me('pcp')), 'GET /api/assessments': apiError(500, 'internal', 'Server error') });
    renderApp('/pcp/cases');
    expect(await screen.findByText(/Could not load your cases/)).toBeInTheDocument();
  });
});

describe('Case detail', () => {
  it('shows the answers and the basis of the recommendation with rule name and version', async () => {
    seedSession();
    mockApi({ 'GET /api/me': json(200, me('pcp')), 'GET /api/assessments/a1': json(200, withRec('a1', '2025-03-02T10:00:00Z')) });
    renderApp('/pcp/cases/a1');
    expect(await screen.findByRole('heading', { name: 'Hypothyroidism work-up' })).toBeInTheDocument();
    const basis = screen.getByRole('table', { name: 'Conditions met' });
    const rows = within(basis).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('TSH > 4.5');
    expect(rows[0]).toHaveTextContent('5.5');
    expect(rows[1]).toHaveTextContent('Antibodies = Yes');
    expect(screen.getByTestId('rule-provenance')).toHaveTextContent('Rule: Hypothyroidism work-up · version 3 · Rule set: Thyroid');
    const answers = screen.getByRole('table', { name: 'Answers given' });
    expect(within(answers).getAllByRole('row')).toHaveLength(3);
    expect(answers).toHaveTextContent('TSH');
    expect(screen.getByText('Refer to endocrinology')).toBeInTheDocument();
  });

  it('a completed case without a recommendation says so', async () => {
    seedSession();
    mockApi({ 'GET /api/me': json(200, me('pcp')), 'GET /api/assessments/a2': json(200, noRec('a2')) });
    renderApp('/pcp/cases/a2');
    expect(await screen.findByText('No Recommendation Available')).toBeInTheDocument();
    expect(screen.getByText('Parameter …000-1111')).toBeInTheDocument();
  });

  it('404 reads as not found', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    seedSession();
    mockApi({ 'GET /api/me': json(200, me('pcp')), 'GET /api/assessments/zzz': apiError(404, 'not_found', 'Not found') });
    renderApp('/pcp/cases/zzz');
    expect(await screen.findByText('Case not found')).toBeInTheDocument();
  });
});

describe('PCP Settings', () => {
  function settingsApi(put: Parameters<typeof mockApi>[0][string]) {
    seedSession();
    return mockApi({ 'GET /api/me': json(200, me('pcp')), 'PUT /api/auth/user': put });
  }

  async function changePassword(current: string, next: string, confirm = next) {
    await userEvent.type(await screen.findByLabelText(/^Current password/), current);
    await userEvent.type(screen.getByLabelText(/^New password/), next);
    await userEvent.type(screen.getByLabelText(/^Confirm new password/), confirm);
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
  }

  it('changes the password', async () => {
    const api = settingsApi(json(200, { id: 'user-1', email: 'dr.jones@example.org' }));
    renderApp('/pcp/settings');
    await changePassword('old-password', 'a much longer passphrase');
    expect(await screen.findByText('Password updated')).toBeInTheDocument();
    expect(api.callsTo('PUT /api/auth/user')[0].body).toEqual({ current_password: 'old-password', password: 'a much longer passphrase' });
    expect(screen.getByLabelText(/^Current password/)).toHaveValue('');
  });

  it('wrong current password', async () => {
    settingsApi(apiError(400, 'invalid_credentials', 'Current password is incorrect'));
    renderApp('/pcp/settings');
    await changePassword('nope', 'a much longer passphrase');
    expect(await screen.findByRole('alert')).toHaveTextContent('Current password is incorrect');
    expect(screen.getByLabelText(/^Current password/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^New password/)).toHaveValue('a much longer passphrase');
  });

  it('weak password lists the reasons', async () => {
    settingsApi(apiError(400, 'weak_password', 'Password is too weak', ['Use at least 12 characters']));
    renderApp('/pcp/settings');
    await changePassword('old-password', 'short');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Password is too weak');
    expect(alert).toHaveTextContent('Use at least 12 characters');
  });

  it('mismatched confirmation is caught before calling the server', async () => {
    const api = settingsApi(json(200, {}));
    renderApp('/pcp/settings');
    await changePassword('old-password', 'one passphrase here', 'another one');
    expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match');
    expect(api.callsTo('PUT /api/auth/user')).toHaveLength(0);
  });

  it('edits the profile', async () => {
    seedSession();
    const api = mockApi({
      'GET /api/me': json(200, me('pcp')),
      'PATCH /api/me/profile': json(200, { id: 'user-1', first_name: 'Ada', last_name: 'Lovelace', updated_at: null }),
    });
    renderApp('/pcp/settings');
    const last = await screen.findByLabelText(/^Last name/);
    await waitFor(() => expect(last).toHaveValue('Jones'));
    await userEvent.clear(last);
    await userEvent.type(last, 'Lovelace');
    await userEvent.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(api.callsTo('PATCH /api/me/profile')[0].body).toEqual({ first_name: 'Ada', last_name: 'Lovelace' });
  });
});

describe('Diagnostics page', () => {
  it('leads into the clinical assessment', async () => {
    seedSession();
    mockApi({ 'GET /api/me': json(200, me('pcp')) });
    renderApp('/pcp/diagnostics');
    expect(await screen.findByRole('link', { name: 'Start Assessment' })).toHaveAttribute('href', '/clinical-form');
  });
});
