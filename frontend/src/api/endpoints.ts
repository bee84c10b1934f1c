import { api } from './index';
import type { Assessment, ChatSession, MeResponse, Profile } from './types';

export const getMe = () => api.get<MeResponse>('/api/me');

export const updateProfile = (input: { first_name: string; last_name: string }) =>
  api.send<Profile>('PATCH', '/api/me/profile', input);

export const requestPcpAccess = () => api.send<unknown>('POST', '/api/me/access-requests', { requested_role: 'pcp' });

/** The caller's own cases: an admin in the PCP console sees their own, not everyone's. */
export const listAssessments = (range: [number, number]) =>
  api.list<Assessment>('assessments', { range, sort: ['created_at', 'DESC'], filter: { mine: true } });

export const getAssessment = (id: string, debug = false) =>
  api.get<Assessment>(`/api/assessments/${encodeURIComponent(id)}${debug ? '?debug=true' : ''}`);

export const getAssessmentSummary = () => api.get<{ active_rules?: number }>('/api/assessments/summary');

export const startAssessment = () => api.send<Assessment>('POST', '/api/assessments', { mode: 'clinical' });

export const answerAssessment = (id: string, parameter_id: string, value: unknown) =>
  api.send<Assessment>('POST', `/api/assessments/${encodeURIComponent(id)}/answers`, { parameter_id, value });

export const startChatSession = () => api.send<ChatSession>('POST', '/api/chat-sessions');

export const answerChat = (id: string, parameter_id: string, value: unknown) =>
  api.send<ChatSession>('POST', `/api/chat-sessions/${encodeURIComponent(id)}/answers`, { parameter_id, value });

export const chooseChatRule = (id: string, rule_id: string) =>
  api.send<ChatSession>('POST', `/api/chat-sessions/${encodeURIComponent(id)}/choice`, { rule_id });
