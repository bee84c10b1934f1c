import { api } from './index';
import type {
  AnswerRequest,
  AssessmentJson,
  AssessmentSummaryJson,
  CdsPrefillJson,
  ChatSessionJson,
  MeJson,
  PanelJson,
  PanelPatientJson,
  PanelPrefillJson,
  PanelTrendJson,
  ProfileJson,
} from '@cds/contracts';

export const getMe = () => api.get<MeJson>('/api/me');

export const updateProfile = (input: { first_name: string; last_name: string }) => api.send<ProfileJson>('PATCH', '/api/me/profile', input);

export const requestPcpAccess = () => api.send<unknown>('POST', '/api/me/access-requests', { requested_role: 'pcp' });

/** The caller's own cases: an admin in the PCP console sees their own, not everyone's. */
export const listAssessments = (range: [number, number]) =>
  api.list<AssessmentJson>('assessments', { range, sort: ['created_at', 'DESC'], filter: { mine: true } });

export const getAssessment = (id: string, debug = false) =>
  api.get<AssessmentJson>(`/api/assessments/${encodeURIComponent(id)}${debug ? '?debug=true' : ''}`);

export const getAssessmentSummary = () => api.get<AssessmentSummaryJson>('/api/assessments/summary');

/** `recordContext`: from a redeemed prefill, so the assessment keeps the patient and the results the values came from. */
export const startAssessment = (recordContext?: string | null) =>
  api.send<AssessmentJson>('POST', '/api/assessments', { mode: 'clinical', ...(recordContext ? { record_context: recordContext } : {}) });

export const answerAssessment = (id: string, answer: AnswerRequest) =>
  api.send<AssessmentJson>('POST', `/api/assessments/${encodeURIComponent(id)}/answers`, answer);

export const listChatSessions = (range: [number, number]) =>
  api.list<ChatSessionJson>('chat-sessions', { range, sort: ['created_at', 'DESC'], filter: { mine: true } });

export const getChatSession = (id: string) => api.get<ChatSessionJson>(`/api/chat-sessions/${encodeURIComponent(id)}`);

export const startChatSession = () => api.send<ChatSessionJson>('POST', '/api/chat-sessions');

export const answerChat = (id: string, answer: AnswerRequest) =>
  api.send<ChatSessionJson>('POST', `/api/chat-sessions/${encodeURIComponent(id)}/answers`, answer);

export const chooseChatRule = (id: string, rule_id: string) =>
  api.send<ChatSessionJson>('POST', `/api/chat-sessions/${encodeURIComponent(id)}/choice`, { rule_id });

/** A CDS card link's one-time ticket → the values the EHR sent (issue 11). */
export const redeemPrefill = (ticket: string) => api.send<CdsPrefillJson>('POST', '/api/cds-prefill/redeem', { ticket });

/** The Panel: each measure's counts and score, and the gap list, for a period (issue 21). */
export const getPanel = (period: { start: string; end: string }) =>
  api.get<PanelJson>(`/api/panel?${new URLSearchParams({ periodStart: period.start, periodEnd: period.end }).toString()}`);

/** One patient's standing on each measure, with the resources behind each population. */
/** Each measure's score at the end of each of the last 12 months, each point a rolling year (issue 21). */
export const getPanelTrend = () => api.get<PanelTrendJson>('/api/panel/trend');

export const getPanelPatient = (id: string, period: { start: string; end: string }) =>
  api.get<PanelPatientJson>(
    `/api/panel/patients/${encodeURIComponent(id)}?${new URLSearchParams({ periodStart: period.start, periodEnd: period.end }).toString()}`,
  );

/** A one-time prefill ticket with the record's latest values: open its url to start the assessment. */
export const startPanelAssessment = (id: string) =>
  api.send<PanelPrefillJson>('POST', `/api/panel/patients/${encodeURIComponent(id)}/assessment-prefill`);
