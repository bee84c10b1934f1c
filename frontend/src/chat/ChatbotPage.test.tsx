import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ChatMessage, ChatSession } from '../api/types';
import { apiError, deferred, json, me, mockApi, renderApp, seedSession } from '../test/helpers';

const msg = (id: string, type: ChatMessage['type'], content: string): ChatMessage => ({
  id,
  type,
  content,
  timestamp: '2025-03-01T14:05:00.000Z',
});

const session = (over: Partial<ChatSession> = {}): ChatSession => ({
  id: 's-1',
  user_id: 'user-1',
  session_data: {},
  answered_parameters: [],
  matched_rules: [],
  conversation_history: [msg('m1', 'question', 'What is your tsh?')],
  current_step: 1,
  is_completed: false,
  final_recommendations: null,
  pending: { kind: 'question', parameter_id: 'p-tsh', options: [{ label: 'TSH < 4.5', value: 3.5 }, { label: 'TSH >= 4.5', value: 5.5 }] },
  created_at: '2025-03-01T14:05:00.000Z',
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
    expect(screen.getByRole('button', { name: 'TSH < 4.5' })).toBeInTheDocument();
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
            msg('m2', 'answer', 'TSH >= 4.5'),
            msg('m3', 'question', 'Multiple recommendations are available. Which would you like to follow?'),
            msg('m4', 'answer', 'Hashimoto'),
            msg('m5', 'recommendation', 'Based on your responses: Start levothyroxine'),
          ],
        }),
      ),
    });
    renderApp('/chatbot');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Conversation' }));
    await userEvent.click(await screen.findByRole('button', { name: 'TSH >= 4.5' }));
    expect(await screen.findByText('Processing...')).toBeInTheDocument();
    expect(screen.queryByText('Please select an option:')).not.toBeInTheDocument();
    answer.resolve(
      json(
        200,
        session({
          conversation_history: [
            msg('m1', 'question', 'What is your tsh?'),
            msg('m2', 'answer', 'TSH >= 4.5'),
            msg('m3', 'question', 'Multiple recommendations are available. Which would you like to follow?'),
          ],
          pending: { kind: 'choice', options: [{ label: 'Hashimoto', value: 'r-1' }, { label: 'Subclinical', value: 'r-2' }] },
        }),
      ),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Hashimoto' }));
    expect(await screen.findByText('Session completed. Would you like to start over?')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start New Session' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Restart' })).not.toBeInTheDocument();
    expect(screen.getByText('Based on your responses: Start levothyroxine').closest('li')).toHaveAttribute('data-message-type', 'recommendation');
    expect(api.callsTo('POST /api/chat-sessions/s-1/answers')[0].body).toEqual({ parameter_id: 'p-tsh', value: 5.5 });
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
    await userEvent.click(await screen.findByRole('button', { name: 'TSH < 4.5' }));
    expect(await screen.findByText('Failed to process your answer. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'TSH < 4.5' })).toBeEnabled();
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
});
