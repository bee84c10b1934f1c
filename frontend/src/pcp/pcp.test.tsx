import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AssessmentJson as Assessment, ChatSessionJson as ChatSession } from '@cds/contracts';
import {
  diabetesFinding,
  fpgConverted,
  hba1cNotAvailable,
  hba1cTyped,
  hypertensiveEmergency,
  sbpTyped,
  undeterminedRetinopathy,
} from '../test/clinicalFixtures';
import { apiError, deferred, json, makeAssessment, me, mockApi, renderApp, seedSession } from '../test/helpers';

const recommendation = {
  rule_id: 'r-1',
  rule_name: 'Hypothyroidism work-up',
  rule_version: 3,
  rule_set_id: 'rs-1',
  rule_set_name: 'Thyroid',
  rule_set_version_id: 'rsv-1',
  priority: 10,
  source: null,
  description: 'Start levothyroxine evaluation',
  severity: 'high',
  actions: [{ type: 'recommendation', severity: 'high', message: 'Refer to endocrinology', value: null }],
  basis: [
    {
      parameter_id: 'p-tsh-0000-1111',
      parameter_name: 'TSH',
      display_name: 'TSH',
      units: 'm[IU]/L',
      operator: 'greater_than',
      threshold: 4.5,
      value: 5.2,
      label: '5.2 mIU/L',
    },
    {
      parameter_id: 'p-ab-0000-2222',
      parameter_name: 'Antibodies',
      display_name: 'Thyroid antibodies',
      units: null,
      operator: 'equals',
      threshold: true,
      value: true,
      label: 'Positive',
    },
  ],
};

const withRec = (id: string, created: string): Assessment =>
  makeAssessment({
    id,
    is_completed: true,
    current_question: null,
    current_parameter_id: null,
    answers: { 'p-tsh-0000-1111': 5.2, 'p-ab-0000-2222': true },
    completed_parameter_ids: ['p-tsh-0000-1111', 'p-ab-0000-2222'],
    recommendation,
    created_at: created,
    completed_at: created,
  });
const noRec = (id: string): Assessment =>
  makeAssessment({ id, is_completed: true, current_question: null, recommendation: null, answers: { 'p-hba1c-0000-0001': 'unknown' } });
/** Opened, never answered. */
const open = (id: string): Assessment => makeAssessment({ id });
/** Answered in part. */
const partial = (id: string): Assessment =>
  makeAssessment({ id, answers: { 'p-tsh-0000-1111': 5.2 }, completed_parameter_ids: ['p-tsh-0000-1111'] });

function list(items: Assessment[], total = items.length) {
  return json(200, items, { 'Content-Range': `assessments 0-${Math.max(items.length - 1, 0)}/${total}` });
}

const at = '2026-11-23T10:00:00.000Z';
const msg = (id: string, type: 'question' | 'answer' | 'recommendation', content: string) => ({ id, type, content, timestamp: at });
const chatSession = (over: Partial<ChatSession>): ChatSession => ({
  id: 'c0',
  user_id: 'u-pcp',
  session_data: {},
  answered_parameters: [],
  answer_details: [],
  matched_rules: [],
  conversation_history: [],
  current_step: 1,
  is_completed: false,
  final_recommendations: null,
  pending: null,
  rule_set_versions: [],
  created_at: at,
  updated_at: at,
  completed_at: null,
  ...over,
});
/** A chat where the clinician followed the diabetes rule while a critical finding also matched. */
const chosenDiabetes = chatSession({
  id: 'c1',
  is_completed: true,
  completed_at: at,
  answered_parameters: ['p-sbp-0000-0002', 'p-hba1c-0000-0001'],
  answer_details: [sbpTyped, hba1cTyped],
  matched_rules: [
    { ...hypertensiveEmergency, selected: false },
    { ...diabetesFinding, selected: true },
  ],
  final_recommendations: diabetesFinding.actions,
  conversation_history: [
    msg('m1', 'question', 'What was the systolic blood pressure?'),
    msg('m2', 'answer', '200 mmHg'),
    msg('m3', 'question', 'What was the latest HbA1c?'),
    msg('m4', 'answer', '6.5 %'),
    { ...msg('m5', 'recommendation', 'Based on your responses'), undetermined_rules: [undeterminedRetinopathy] },
  ],
});
const chatNoMatch = chatSession({ id: 'c2', is_completed: true, completed_at: at, final_recommendations: [] });
const chatOpen = chatSession({ id: 'c3' });
function chatList(items: ChatSession[]) {
  return json(200, items, { 'Content-Range': `chat-sessions 0-${Math.max(items.length - 1, 0)}/${items.length}` });
}

describe('PCP Dashboard', () => {
  it('computes the figures from the user’s assessments: no finding is completed, not failed; never answered is no case', async () => {
    seedSession();
    const api = mockApi({
      'GET /api/me': json(200, me('pcp')),
      'GET /api/assessments': list([
        withRec('a1', '2025-03-02T10:00:00Z'),
        withRec('a2', '2025-03-01T10:00:00Z'),
        noRec('a3'),
        partial('a4'),
        open('a5'),
      ]),
      'GET /api/assessments/summary': json(200, { active_rules: 12 }),
    });
    renderApp('/pcp');
    expect(await screen.findByRole('heading', { name: 'Welcome back, Ada' })).toBeInTheDocument();
    expect(await screen.findByTestId('stat-Total Cases')).toHaveTextContent('4');
    expect(screen.getByTestId('stat-Completed')).toHaveTextContent('3');
    expect(screen.getByRole('region', { name: 'Completed' })).toHaveTextContent('2 with a finding, 1 with no finding');
    expect(screen.getByTestId('stat-In Progress')).toHaveTextContent('1');
    expect(screen.getByTestId('unanswered-note')).toHaveTextContent(
      '1 assessment opened but never answered is not counted; it stays in Case History.',
    );
    expect(screen.queryByText(/Success Rate|Patients Helped/)).not.toBeInTheDocument();
    expect(screen.getByTestId('stat-Active Rules')).toHaveTextContent('12');
    const req = api.callsTo('GET /api/assessments')[0];
    expect(req.query.get('range')).toBe('[0,99]');
    expect(req.query.get('sort')).toBe('["created_at","DESC"]');
    const recent = screen.getByRole('list', { name: 'Recent cases' });
    expect(
      within(recent)
        .getAllByRole('link')
        .map((l) => l.getAttribute('href')),
    ).toEqual(['/pcp/cases/a1', '/pcp/cases/a2', '/pcp/cases/a3', '/pcp/cases/a4']);
    expect(within(recent).getAllByRole('link')[0]).toHaveTextContent('Hypothyroidism work-up');
    // Each button's words say where it goes: the Diagnostic Assistant is the chat, an assessment the clinical form.
    expect(screen.getByRole('link', { name: 'Launch Diagnostic Assistant' })).toHaveAttribute('href', '/chatbot');
    expect(screen.getByRole('link', { name: 'New Assessment' })).toHaveAttribute('href', '/clinical-form');
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
    expect(screen.getByTestId('stat-Completed')).toHaveTextContent('102');
    expect(screen.getByRole('region', { name: 'Completed' })).toHaveTextContent('100 with a finding, 2 with no finding');
  });

  it('empty: zeros, no Active Rules card when the summary is unavailable', async () => {
    seedSession();
    mockApi({
      'GET /api/me': json(200, me('pcp')),
      'GET /api/assessments': list([], 0),
      'GET /api/assessments/summary': apiError(404, 'not_found', 'Not found'),
    });
    renderApp('/pcp');
    expect(await screen.findByTestId('stat-Total Cases')).toHaveTextContent('0');
    expect(screen.getByTestId('stat-Completed')).toHaveTextContent('0');
    expect(screen.getByText('No completed assessments yet')).toBeInTheDocument();
    expect(screen.getByTestId('stat-In Progress')).toHaveTextContent('0');
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
      'GET /api/assessments': list([withRec('a1', '2025-03-02T10:00:00Z'), noRec('a2'), partial('a3'), open('a4')]),
      'GET /api/chat-sessions': chatList([]),
    });
    renderApp('/pcp/cases');
    const table = await screen.findByRole('table', { name: 'Case history' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(4);
    expect(rows[0]).toHaveTextContent('Hypothyroidism work-up');
    expect(rows[0]).toHaveTextContent('High severity');
    expect(rows[1]).toHaveTextContent('No recommendation');
    expect(rows[2]).toHaveTextContent('Assessment in progress');
    // Nothing a clinician entered is hidden or deleted: an unanswered case stays, named as such.
    expect(rows[3]).toHaveTextContent('Opened, never answered');
    expect(within(rows[0]).getByRole('link')).toHaveAttribute('href', '/pcp/cases/a1');
  });

  it('loading, then empty', async () => {
    seedSession();
    const slow = deferred<Response>();
    mockApi({ 'GET /api/me': json(200, me('pcp')), 'GET /api/assessments': () => slow.promise, 'GET /api/chat-sessions': chatList([]) });
    renderApp('/pcp/cases');
    expect(await screen.findByText('Loading cases...')).toBeInTheDocument();
    slow.resolve(list([], 0));
    expect(await screen.findByText('No cases yet')).toBeInTheDocument();
  });

  it('error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    seedSession();
    mockApi({
      'GET /api/me': json(200, me('pcp')),
      'GET /api/assessments': apiError(500, 'internal', 'Server error'),
      'GET /api/chat-sessions': apiError(500, 'internal', 'Server error'),
    });
    renderApp('/pcp/cases');
    expect(await screen.findByText(/Could not load your cases/)).toBeInTheDocument();
    expect(await screen.findByText(/Could not load your chat sessions/)).toBeInTheDocument();
  });

  it('lists chat sessions beside the assessments with kind, date, status and primary finding (issue 10)', async () => {
    seedSession();
    const api = mockApi({
      'GET /api/me': json(200, me('pcp')),
      'GET /api/assessments': list([withRec('a1', '2025-03-02T10:00:00Z')]),
      'GET /api/chat-sessions': chatList([chosenDiabetes, chatNoMatch, chatOpen]),
    });
    renderApp('/pcp/cases');
    const table = await screen.findByRole('table', { name: 'Chat sessions' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    // The rule followed is named first; the badge still shows the critical finding that was not chosen.
    expect(rows[0]).toHaveTextContent('Diagnostic Assistant chat');
    expect(rows[0]).toHaveTextContent('Diabetes by HbA1c (+1 more)');
    expect(rows[0]).toHaveTextContent('Critical severity');
    expect(rows[0]).toHaveTextContent('Nov 23, 2026');
    expect(within(rows[0]).getByRole('link')).toHaveAttribute('href', '/pcp/chats/c1');
    expect(rows[1]).toHaveTextContent('No recommendation');
    expect(rows[2]).toHaveTextContent('Conversation in progress');
    expect(rows[2]).toHaveTextContent('In progress');
    const assessments = within(screen.getByRole('table', { name: 'Case history' })).getAllByRole('row');
    expect(assessments[1]).toHaveTextContent('Clinical assessment');
    const req = api.callsTo('GET /api/chat-sessions')[0];
    expect(req.query.get('range')).toBe('[0,24]');
    expect(req.query.get('sort')).toBe('["created_at","DESC"]');
    expect(req.query.get('filter')).toBe('{"mine":true}');
  });

  it('no chat sessions yet', async () => {
    seedSession();
    mockApi({ 'GET /api/me': json(200, me('pcp')), 'GET /api/assessments': list([], 0), 'GET /api/chat-sessions': chatList([]) });
    renderApp('/pcp/cases');
    expect(await screen.findByText('No chat sessions yet')).toBeInTheDocument();
  });
});

describe('Chat session detail (issue 10)', () => {
  // Issue 20: in rank order, as the final message lists them; the one followed is primary where it ranks.
  it('shows the findings most urgent first with the one followed as primary, the answers as entered, and the transcript', async () => {
    seedSession();
    mockApi({ 'GET /api/me': json(200, me('pcp')), 'GET /api/chat-sessions/c1': json(200, chosenDiabetes) });
    renderApp('/pcp/chats/c1');
    expect(await screen.findByRole('heading', { name: 'Diabetes by HbA1c' })).toBeInTheDocument();
    const cards = screen.getAllByTestId('finding-card');
    expect(cards.map((c) => c.getAttribute('data-severity'))).toEqual(['critical', 'high']);
    expect(within(cards[1]).getByText('Primary recommendation')).toBeInTheDocument();
    expect(within(cards[0]).queryByText('Primary recommendation')).not.toBeInTheDocument();
    expect(screen.getByTestId('undetermined-rules')).toHaveTextContent('missing: Urine albumin-to-creatinine ratio');
    const answers = within(screen.getByRole('list', { name: 'Answers given' })).getAllByTestId('answer-row');
    expect(answers[0]).toHaveTextContent('1. Systolic blood pressure200 mmHg (typed value)');
    expect(answers[1]).toHaveTextContent('2. HbA1c6.5 % (typed value, observed Nov 20, 2026)');
    const transcript = screen.getAllByTestId('transcript-message').map((m) => m.textContent);
    expect(transcript).toEqual([
      expect.stringContaining('What was the systolic blood pressure?'),
      expect.stringContaining('200 mmHg'),
      expect.stringContaining('What was the latest HbA1c?'),
      expect.stringContaining('6.5 %'),
    ]);
    expect(screen.getByText('Diagnostic Assistant chat')).toBeInTheDocument();
  });

  it('an unfinished conversation says so; 404 reads as not found', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    seedSession();
    mockApi({
      'GET /api/me': json(200, me('pcp')),
      'GET /api/chat-sessions/c3': json(200, chatOpen),
      'GET /api/chat-sessions/zzz': apiError(404, 'not_found', 'Chat session not found'),
    });
    renderApp('/pcp/chats/c3');
    expect(await screen.findByText('This conversation was not completed.')).toBeInTheDocument();
    expect(screen.getByText('No answers were recorded.')).toBeInTheDocument();
    renderApp('/pcp/chats/zzz');
    expect(await screen.findByText('Chat session not found')).toBeInTheDocument();
  });
});

describe('Case detail', () => {
  it('shows every finding with its basis, rule name and version, and the answers as entered with display names and units', async () => {
    seedSession();
    const a = makeAssessment({
      id: 'a1',
      is_completed: true,
      current_question: null,
      current_parameter_id: null,
      answers: { 'p-sbp-0000-0002': 200, 'p-hba1c-0000-0001': 6.5, 'p-fpg-0000-0003': 126 },
      answer_details: [sbpTyped, hba1cTyped, fpgConverted],
      recommendation: hypertensiveEmergency,
      findings: [hypertensiveEmergency, diabetesFinding],
      undetermined_rules: [undeterminedRetinopathy],
      completed_at: '2026-11-23T10:05:00.000Z',
    });
    mockApi({ 'GET /api/me': json(200, me('pcp')), 'GET /api/assessments/a1': json(200, a) });
    renderApp('/pcp/cases/a1');
    expect(await screen.findByRole('heading', { name: 'Hypertensive emergency' })).toBeInTheDocument();
    const cards = screen.getAllByTestId('finding-card');
    expect(cards.map((c) => c.getAttribute('data-severity'))).toEqual(['critical', 'high']);
    expect(within(cards[0]).getByText('Primary recommendation')).toBeInTheDocument();
    expect(within(cards[1]).getByTestId('rule-provenance')).toHaveTextContent(
      'Rule: Diabetes by HbA1c · version 2 · Rule set: Diabetes diagnosis · Source: ADA Standards of Care in Diabetes—2026, Section 2',
    );
    expect(screen.getByTestId('undetermined-rules')).toHaveTextContent('missing: Urine albumin-to-creatinine ratio');

    const rows = within(screen.getByRole('list', { name: 'Answers given' })).getAllByTestId('answer-row');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('1. Systolic blood pressure200 mmHg (typed value)');
    expect(rows[1]).toHaveTextContent('2. HbA1c6.5 % (typed value, observed Nov 20, 2026)');
    // Typed in another unit: as typed, with the value it was compared in.
    expect(rows[2]).toHaveTextContent('3. Fasting plasma glucose7 mmol/L (= 126 mg/dL) (typed value)');
    expect(screen.queryByText(/…|0000-000/)).not.toBeInTheDocument();
  });

  it('a completed case without a recommendation says so, and shows Not available as such', async () => {
    seedSession();
    mockApi({
      'GET /api/me': json(200, me('pcp')),
      'GET /api/assessments/a2': json(200, { ...noRec('a2'), answer_details: [hba1cNotAvailable] }),
    });
    renderApp('/pcp/cases/a2');
    expect(await screen.findByText('No Recommendation Available')).toBeInTheDocument();
    expect(screen.getByTestId('answer-row')).toHaveTextContent('1. HbA1cNot available');
  });

  // Issue 20: case detail shows what was ruled out, as the result did.
  it('a completed case without a recommendation lists what the answers ruled out', async () => {
    seedSession();
    const statement = 'Systolic blood pressure 118 mmHg is below 180 mmHg';
    const ruled = {
      parameter_id: 'p-sbp-0000-0002',
      display_name: 'Systolic blood pressure',
      units: 'mm[Hg]',
      operator: 'greater_equal',
      threshold: 180,
      value: 118,
      label: '118 mmHg',
      rule_names: ['Hypertensive emergency'],
      statement,
    };
    mockApi({ 'GET /api/me': json(200, me('pcp')), 'GET /api/assessments/a3': json(200, { ...noRec('a3'), ruled_out: [ruled] }) });
    renderApp('/pcp/cases/a3');
    const list = await screen.findByRole('list', { name: 'Ruled out' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([statement]);
    expect(screen.getByTestId('no-recommendation-card').textContent).not.toMatch(/consult|healthcare provider/i);
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

describe('Diagnostic Assistant', () => {
  it("the spec's /pcp/diagnostics opens the one Diagnostic Assistant, the chat", async () => {
    seedSession();
    mockApi({ 'GET /api/me': json(200, me('pcp')) });
    renderApp('/pcp/diagnostics');
    expect(await screen.findByRole('heading', { name: 'Welcome to the Diagnostic Assistant' })).toBeInTheDocument();
    expect(screen.getByText(/The recommendation comes from the rules alone/)).toBeInTheDocument();
    expect(screen.queryByText('AI Chat Assistant')).not.toBeInTheDocument();
  });
});
