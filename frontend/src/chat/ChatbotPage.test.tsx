import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type {
  ChatMatchedRuleJson as ChatMatchedRule,
  ChatMessageJson as ChatMessage,
  ChatSessionJson as ChatSession,
} from '@cds/contracts';
import { diabetesFinding, hba1cTyped, hypertensiveEmergency, sbpTyped, undeterminedRetinopathy } from '../test/clinicalFixtures';
import { apiError, deferred, json, me, mockApi, renderApp, seedSession } from '../test/helpers';

const msg = (id: string, type: ChatMessage['type'], content: string): ChatMessage => ({
  id,
  type,
  content,
  timestamp: '2025-03-01T14:05:00.000Z',
});

const TSH_LOW = { type: 'range', min: null, max: 4.5, min_inclusive: false, max_inclusive: false } as const;
const TSH_HIGH = { type: 'range', min: 4.5, max: null, min_inclusive: true, max_inclusive: false } as const;

const matched = (f: typeof diabetesFinding, selected = false): ChatMatchedRule => ({ ...f, selected });

const session = (over: Partial<ChatSession> = {}): ChatSession => ({
  id: 's-1',
  user_id: 'user-1',
  session_data: {},
  answered_parameters: [],
  answer_details: [],
  matched_rules: [],
  conversation_history: [msg('m1', 'question', 'What is your tsh?')],
  current_step: 1,
  is_completed: false,
  final_recommendations: null,
  pending: {
    kind: 'question',
    parameter_id: 'p-tsh',
    options: [
      { label: 'TSH < 4.5 mIU/L', value: TSH_LOW },
      { label: 'TSH ≥ 4.5 mIU/L', value: TSH_HIGH },
      { label: 'Not available', value: 'unknown' },
    ],
  },
  rule_set_versions: [],
  created_at: '2025-03-01T14:05:00.000Z',
  updated_at: '2025-03-01T14:05:00.000Z',
  completed_at: null,
  ...over,
});

function chatApi(extra: Parameters<typeof mockApi>[0] = {}) {
  seedSession();
  return mockApi({ 'GET /api/me': json(200, me(null)), ...extra });
}

describe('Diagnostic Assistant chat', () => {
  it('welcome, then the first question with its options', async () => {
    const start = deferred<Response>();
    chatApi({ 'POST /api/chat-sessions': () => start.promise });
    renderApp('/chatbot');
    expect(await screen.findByRole('heading', { name: 'Diagnostic Assistant' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('link', { name: /home/i })).toHaveAttribute('href', '/');
    await userEvent.click(screen.getByRole('button', { name: 'Start Conversation' }));
    expect(await screen.findByText('Preparing your first question...')).toBeInTheDocument();
    start.resolve(json(201, session()));
    const log = await screen.findByRole('log', { name: 'Conversation messages' });
    expect(await within(log).findByText('What is your tsh?')).toBeInTheDocument();
    expect(within(log).getByText('2:05 PM')).toBeInTheDocument();
    expect(screen.getByText('Please select an option:')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'TSH < 4.5 mIU/L' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Restart' })).toBeInTheDocument();
  });

  it('answer → Processing... → multiple-match choice → completed', async () => {
    const answer = deferred<Response>();
    const api = chatApi({
      'POST /api/chat-sessions': json(201, session()),
      'POST /api/chat-sessions/s-1/answers': () => answer.promise,
      'POST /api/chat-sessions/s-1/choice': json(
        200,
        session({
          is_completed: true,
          pending: null,
          conversation_history: [
            msg('m1', 'question', 'What is your tsh?'),
            msg('m2', 'answer', 'TSH ≥ 4.5 mIU/L'),
            msg('m3', 'question', 'Multiple recommendations are available. Which would you like to follow?'),
            msg('m4', 'answer', 'Hashimoto'),
            msg('m5', 'recommendation', 'Based on your responses: Start levothyroxine'),
          ],
        }),
      ),
    });
    renderApp('/chatbot');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Conversation' }));
    await userEvent.click(await screen.findByRole('button', { name: 'TSH ≥ 4.5 mIU/L' }));
    expect(await screen.findByText('Processing...')).toBeInTheDocument();
    expect(screen.queryByText('Please select an option:')).not.toBeInTheDocument();
    answer.resolve(
      json(
        200,
        session({
          conversation_history: [
            msg('m1', 'question', 'What is your tsh?'),
            msg('m2', 'answer', 'TSH ≥ 4.5 mIU/L'),
            msg('m3', 'question', 'Multiple recommendations are available. Which would you like to follow?'),
          ],
          pending: {
            kind: 'choice',
            options: [
              { label: 'Hashimoto', value: 'r-1', severity: 'medium', actions: [], basis: [] },
              { label: 'Subclinical', value: 'r-2', severity: 'medium', actions: [], basis: [] },
            ],
          },
        }),
      ),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Hashimoto' }));
    expect(await screen.findByText('Session completed. Would you like to start over?')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start New Session' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Restart' })).not.toBeInTheDocument();
    expect(screen.getByText('Based on your responses: Start levothyroxine').closest('li')).toHaveAttribute(
      'data-message-type',
      'recommendation',
    );
    expect(api.callsTo('POST /api/chat-sessions/s-1/answers')[0].body).toEqual({ parameter_id: 'p-tsh', value: TSH_HIGH });
    expect(api.callsTo('POST /api/chat-sessions/s-1/choice')[0].body).toEqual({ rule_id: 'r-1' });
  });

  it('no questions configured', async () => {
    chatApi({ 'POST /api/chat-sessions': json(201, session({ pending: null, conversation_history: [] })) });
    renderApp('/chatbot');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Conversation' }));
    expect(await screen.findByText('No Questions Available')).toBeInTheDocument();
    expect(screen.getByText('No diagnostic questions are configured. Please contact an administrator.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Conversation' })).toBeInTheDocument();
  });

  it('start failure toast', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    chatApi({ 'POST /api/chat-sessions': apiError(500, 'internal', 'boom') });
    renderApp('/chatbot');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Conversation' }));
    expect(await screen.findByText('Failed to start new session. Please try again.')).toBeInTheDocument();
  });

  it('answer failure toast keeps the options', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    chatApi({ 'POST /api/chat-sessions': json(201, session()), 'POST /api/chat-sessions/s-1/answers': apiError(500, 'internal', 'x') });
    renderApp('/chatbot');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Conversation' }));
    await userEvent.click(await screen.findByRole('button', { name: 'TSH < 4.5 mIU/L' }));
    expect(await screen.findByText('Failed to process your answer. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'TSH < 4.5 mIU/L' })).toBeEnabled();
  });

  it('Restart starts a fresh session', async () => {
    let n = 0;
    const api = chatApi({
      'POST /api/chat-sessions': () => json(201, session({ id: `s-${++n}` })),
    });
    renderApp('/chatbot');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Conversation' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Restart' }));
    await waitFor(() => expect(api.callsTo('POST /api/chat-sessions')).toHaveLength(2));
    expect(await screen.findByText('What is your tsh?')).toBeInTheDocument();
  });

  it('Not available is offered and sent as unknown', async () => {
    const api = chatApi({ 'POST /api/chat-sessions': json(201, session()), 'POST /api/chat-sessions/s-1/answers': json(200, session()) });
    renderApp('/chatbot');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Conversation' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Not available' }));
    await waitFor(() => expect(api.callsTo('POST /api/chat-sessions/s-1/answers')).toHaveLength(1));
    expect(api.callsTo('POST /api/chat-sessions/s-1/answers')[0].body).toEqual({ parameter_id: 'p-tsh', value: 'unknown' });
  });

  it('a "no specific recommendations" ending lists the rules it could not evaluate: no finding is not a negative finding', async () => {
    const noMatch =
      'No rule fired, and the answers ruled none out. 1 rule could not be evaluated for missing values: no finding is not a negative finding.';
    const done = session({
      pending: null,
      is_completed: true,
      conversation_history: [
        msg('m1', 'question', 'What is your tsh?'),
        msg('m2', 'answer', 'Not available'),
        { ...msg('m3', 'recommendation', noMatch), undetermined_rules: [undeterminedRetinopathy] },
      ],
    });
    chatApi({ 'POST /api/chat-sessions': json(201, session()), 'POST /api/chat-sessions/s-1/answers': json(200, done) });
    renderApp('/chatbot');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Conversation' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Not available' }));
    expect(await screen.findByText(noMatch)).toBeInTheDocument();
    const list = await screen.findByRole('region', { name: 'Could not be evaluated' });
    expect(within(list).getByText('Diabetic kidney disease')).toBeInTheDocument();
    expect(list.textContent).toContain('Urine albumin-to-creatinine ratio');
  });

  it('the multiple-match choice and the final message show severity (word and colour), actions and basis', async () => {
    const rules = [matched(hypertensiveEmergency), matched(diabetesFinding)];
    const choiceHistory = [
      msg('m1', 'question', 'What is the systolic blood pressure?'),
      msg('m2', 'answer', '200 mmHg'),
      { ...msg('m3', 'question', 'Multiple recommendations are available. Which would you like to follow?'), rules },
    ];
    chatApi({
      'POST /api/chat-sessions': json(
        201,
        session({
          conversation_history: choiceHistory,
          matched_rules: rules,
          answer_details: [sbpTyped, hba1cTyped],
          pending: {
            kind: 'choice',
            options: [
              { label: 'Hypertensive emergency', value: 'r-hte', severity: 'medium', actions: [], basis: [] },
              { label: 'Diabetes by HbA1c', value: 'r-t2d', severity: 'medium', actions: [], basis: [] },
            ],
          },
        }),
      ),
      'POST /api/chat-sessions/s-1/choice': json(
        200,
        session({
          is_completed: true,
          pending: null,
          matched_rules: [matched(hypertensiveEmergency, true), matched(diabetesFinding)],
          answer_details: [sbpTyped, hba1cTyped],
          final_recommendations: hypertensiveEmergency.actions,
          conversation_history: [
            ...choiceHistory,
            msg('m4', 'answer', 'Hypertensive emergency'),
            {
              ...msg('m5', 'recommendation', 'Based on your responses: Send to the emergency department now'),
              rules: [matched(hypertensiveEmergency, true)],
            },
          ],
        }),
      ),
    });
    renderApp('/chatbot');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Conversation' }));
    const group = await screen.findByRole('group', { name: 'Please select an option:' });
    const choices = within(group).getAllByTestId('finding-card');
    expect(choices.map((c) => c.getAttribute('data-severity'))).toEqual(['critical', 'high']);
    expect(within(choices[0]).getByText('Critical severity')).toBeInTheDocument();
    expect(within(choices[0]).getByText('Send to the emergency department now')).toBeInTheDocument();
    expect(within(choices[0]).getByTestId('basis-item')).toHaveTextContent(
      'Systolic blood pressure ≥ 180 mmHg — answer: 200 mmHg (typed value)',
    );
    expect(within(choices[1]).getByTestId('basis-item')).toHaveTextContent(
      'HbA1c ≥ 6.5 % — answer: 6.5 % (typed value, observed Nov 20, 2026)',
    );

    await userEvent.click(within(choices[0]).getByRole('button', { name: 'Follow Hypertensive emergency' }));
    await screen.findByText('Session completed. Would you like to start over?');
    const final = screen.getByText('Based on your responses: Send to the emergency department now').closest('li')!;
    expect(final).toHaveAttribute('data-severity', 'critical');
    const cards = within(final as HTMLElement).getAllByTestId('finding-card');
    // The rule followed first and marked primary; the other match is still shown, never hidden.
    expect(cards.map((c) => c.getAttribute('data-severity'))).toEqual(['critical', 'high']);
    expect(within(cards[0]).getByText('Primary recommendation')).toBeInTheDocument();
    expect(within(cards[0]).getByTestId('rule-provenance')).toHaveTextContent('Source: ADA Standards of Care in Diabetes—2026, Section 10');
    expect(within(cards[1]).getByRole('heading', { name: 'Diabetes by HbA1c' })).toBeInTheDocument();
  });

  // Issue 20: the chosen finding used to be listed first, above a critical one it did not outrank.
  it('choosing the less urgent finding: the final message still lists the critical one first, the chosen one marked', async () => {
    const ranked = [matched(hypertensiveEmergency), matched(diabetesFinding, true)];
    chatApi({
      'POST /api/chat-sessions': json(
        201,
        session({
          is_completed: true,
          pending: null,
          matched_rules: ranked,
          answer_details: [sbpTyped, hba1cTyped],
          final_recommendations: diabetesFinding.actions,
          conversation_history: [
            msg('m1', 'question', 'Multiple recommendations are available. Which would you like to follow?'),
            msg('m2', 'answer', 'Diabetes by HbA1c'),
            {
              ...msg(
                'm3',
                'recommendation',
                'Based on your responses, 2 rules fired, most urgent first: "Hypertensive emergency" (critical); "Diabetes by HbA1c" (high, chosen). You chose to follow "Diabetes by HbA1c".',
              ),
              rules: ranked,
            },
          ],
        }),
      ),
    });
    renderApp('/chatbot');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Conversation' }));
    const final = (await screen.findByText(/2 rules fired, most urgent first/)).closest('li')!;
    expect(final).toHaveAttribute('data-severity', 'critical');
    const cards = within(final as HTMLElement).getAllByTestId('finding-card');
    expect(cards.map((c) => c.getAttribute('data-severity'))).toEqual(['critical', 'high']);
    expect(within(cards[1]).getByText('Primary recommendation')).toBeInTheDocument();
    expect(within(cards[0]).queryByText('Primary recommendation')).toBeNull();
  });
});
