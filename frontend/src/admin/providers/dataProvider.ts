import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider, fetchUtils } from 'react-admin';
import { fetchJson } from '../../api';
import type {
  ActivityItem,
  AnalyticsPeriod,
  AnalysisResult,
  ApprovalRecord,
  DiffResult,
  DraftRule,
  Health,
  InvitationRecord,
  ParameterRecord,
  PolishStatus,
  Role,
  RuleRecord,
  RuleSetAnalytics,
  RuleSetRecord,
  RuleTestResult,
  Stats,
  TestCaseRecord,
  UserRecord,
  VersionSummary,
} from '../types';

const API = '/api';

/** The auth client's fetch: bearer token, one refresh-and-retry on 401, ApiError on failure. */
const httpClient = fetchJson as unknown as typeof fetchUtils.fetchJson;

const base = simpleRestProvider(API, httpClient);

/**
 * Fields each resource accepts on PUT. The API refuses unknown fields (400), and react-admin
 * sends the whole record, so an edit sends only what the server lets it change.
 */
const WRITABLE: Record<string, readonly string[]> = {
  parameters: [
    'name', 'display_name', 'description', 'data_type', 'category', 'units', 'is_required', 'template_name',
    'validation_rules', 'loinc_code', 'question_override', 'change_reason',
  ],
  rules: ['rule_set_id', 'name', 'description', 'priority', 'conditions', 'actions', 'is_active'],
  'rule-sets': ['name', 'description', 'is_template', 'is_active'],
};

export function pick<T extends object>(data: T, keys: readonly string[]): Partial<T> {
  return Object.fromEntries(Object.entries(data).filter(([k, v]) => keys.includes(k) && v !== undefined)) as Partial<T>;
}

const CONDITION_KEYS = ['id', 'type', 'parameter', 'operator', 'value', 'logic'];
const ACTION_KEYS = ['id', 'type', 'severity', 'message', 'value'];

/** A rule's body as the API takes it: no editor-only keys on conditions or actions. */
export function ruleBody(data: Partial<RuleRecord>): Partial<RuleRecord> {
  const body = pick(data, WRITABLE.rules);
  if (body.conditions) body.conditions = body.conditions.map((c) => pick(c, CONDITION_KEYS) as RuleRecord['conditions'][number]);
  if (body.actions) body.actions = body.actions.map((a) => pick(a, ACTION_KEYS) as RuleRecord['actions'][number]);
  return body;
}

async function call<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const { json } = await fetchJson<T>(`${API}${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return json;
}

const id = (value: string) => encodeURIComponent(value);
const q = (params: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  ).toString();

/** Pages through a simple-rest list (100 rows per request, the API's maximum). */
async function listAll<T>(resource: string, filter: Record<string, unknown>, sort: [string, 'ASC' | 'DESC']): Promise<T[]> {
  const PAGE = 100;
  const items: T[] = [];
  for (;;) {
    const { json, headers } = await fetchJson<T[]>(
      `${API}/${resource}?${q({ filter, sort, range: [items.length, items.length + PAGE - 1] })}`,
    );
    const page = Array.isArray(json) ? json : [];
    items.push(...page);
    const total = Number(headers.get('Content-Range')?.match(/\/(\d+)\s*$/)?.[1] ?? items.length);
    if (!page.length || items.length >= total) return items;
  }
}

export const adminApi = {
  stats: () => call<Stats>('GET', '/stats'),
  activity: () => call<ActivityItem[]>('GET', `/activity?${q({ range: [0, 9] })}`),
  health: async (): Promise<Health> => {
    // 503 still carries the report: which part is down is exactly what the admin needs.
    try {
      return await call<Health>('GET', '/health');
    } catch (e) {
      const body = (e as { body?: unknown }).body as Health | undefined;
      if (body && typeof body === 'object' && 'database' in body) return body;
      throw e;
    }
  },
  polishStatus: () => call<PolishStatus>('GET', '/polish/status'),

  setRole: (userId: string, role: Role | null) => call<UserRecord>('PUT', `/users/${id(userId)}/role`, { role }),
  approve: (approvalId: string) => call<ApprovalRecord>('POST', `/approvals/${id(approvalId)}/approve`),
  reject: (approvalId: string, reason?: string) =>
    call<ApprovalRecord>('POST', `/approvals/${id(approvalId)}/reject`, reason ? { reason } : {}),
  invite: (email: string, role: Role | null) => call<InvitationRecord>('POST', '/invitations', { email, role }),
  revokeInvitation: (invitationId: string) => call<InvitationRecord>('DELETE', `/invitations/${id(invitationId)}`),

  allParameters: (filter: Record<string, unknown> = {}) => listAll<ParameterRecord>('parameters', filter, ['display_name', 'ASC']),
  parameterTemplates: () => call<ParameterRecord[]>('GET', '/parameters/templates'),
  seedTemplates: () => call<{ created: number; message: string; templates: ParameterRecord[] }>('POST', '/parameters/templates/seed'),
  parameterFromTemplate: (templateId: string, overrides?: Record<string, unknown>) =>
    call<ParameterRecord>('POST', '/parameters/from-template', { template_id: templateId, ...(overrides ? { overrides } : {}) }),
  cloneParameter: (parameterId: string, body: { name: string; display_name?: string }) =>
    call<ParameterRecord>('POST', `/parameters/${id(parameterId)}/clone`, body),
  polishParameter: (parameterId: string) =>
    call<{ job_id: string; parameter_id: string; status: string }>('POST', `/parameters/${id(parameterId)}/polish`),

  ruleSetTemplates: () => call<RuleSetRecord[]>('GET', '/rule-sets/templates'),
  ruleSetFromTemplate: (templateId: string, name?: string) =>
    call<RuleSetRecord>('POST', '/rule-sets/from-template', { template_id: templateId, ...(name ? { name } : {}) }),
  setRuleSetActivation: (ruleSetId: string, isActive: boolean) =>
    call<RuleSetRecord>('PATCH', `/rule-sets/${id(ruleSetId)}/activation`, { is_active: isActive }),
  publish: (ruleSetId: string) => call<VersionSummary>('POST', `/rule-sets/${id(ruleSetId)}/publish`),
  versions: (ruleSetId: string) => call<VersionSummary[]>('GET', `/rule-sets/${id(ruleSetId)}/versions`),
  diff: (ruleSetId: string) => call<DiffResult>('GET', `/rule-sets/${id(ruleSetId)}/diff`),
  analysis: (ruleSetId: string) => call<AnalysisResult>('GET', `/rule-sets/${id(ruleSetId)}/analysis`),
  analyzeDraft: (ruleSetId: string, rules: DraftRule[], signal?: AbortSignal) =>
    fetchJson<AnalysisResult>(`${API}/rule-sets/${id(ruleSetId)}/analysis`, {
      method: 'POST',
      body: JSON.stringify({ rules: rules.map((r) => ({ ...ruleBody(r as Partial<RuleRecord>), ...(r.id ? { id: r.id } : {}) })) }),
      signal,
    }).then((r) => r.json),
  analytics: (ruleSetId: string, period: AnalyticsPeriod = 'month') =>
    call<RuleSetAnalytics>('GET', `/rule-sets/${id(ruleSetId)}/analytics?${q({ period })}`),

  cloneRule: (ruleId: string) => call<RuleRecord>('POST', `/rules/${id(ruleId)}/clone`),
  testRule: (ruleId: string, answers: Record<string, unknown>, referenceDate?: string) =>
    call<RuleTestResult>('POST', `/rules/${id(ruleId)}/test`, { answers, ...(referenceDate ? { reference_date: referenceDate } : {}) }),
  testCases: (ruleId: string) => call<TestCaseRecord[]>('GET', `/rules/${id(ruleId)}/test-cases`),
  createTestCase: (ruleId: string, body: Pick<TestCaseRecord, 'name' | 'answers' | 'expected_outcome'> & { reference_date?: string | null }) =>
    call<TestCaseRecord>('POST', `/rules/${id(ruleId)}/test-cases`, body),
  updateTestCase: (ruleId: string, caseId: string, body: Partial<Pick<TestCaseRecord, 'name' | 'answers' | 'expected_outcome' | 'reference_date'>>) =>
    call<TestCaseRecord>('PUT', `/rules/${id(ruleId)}/test-cases/${id(caseId)}`, body),
  removeTestCase: (ruleId: string, caseId: string) => call<unknown>('DELETE', `/rules/${id(ruleId)}/test-cases/${id(caseId)}`),
};


/**
 * simple-rest for lists and records, with the few routes that are not plain CRUD: a role
 * change is PUT /users/:id/role, and deciding an access request is POST .../approve|reject,
 * so that screens can use react-admin's useUpdate for both.
 */
export const dataProvider: DataProvider = {
  ...base,
  update: async (resource, params) => {
    if (resource === 'users') {
      const role = (params.data as { role?: Role | null }).role ?? null;
      return { data: await adminApi.setRole(String(params.id), role) } as never;
    }
    if (resource === 'approvals') {
      const data = params.data as { status?: string; reason?: string };
      if (data.status === 'approved') return { data: await adminApi.approve(String(params.id)) } as never;
      if (data.status === 'rejected') return { data: await adminApi.reject(String(params.id), data.reason) } as never;
      throw new Error('An access request can only be approved or rejected');
    }
    const keys = WRITABLE[resource];
    const body = resource === 'rules' ? ruleBody(params.data) : keys ? pick(params.data, keys) : params.data;
    return base.update(resource, { ...params, data: body });
  },
  create: (resource, params) => {
    const body = resource === 'rules' ? ruleBody(params.data) : params.data;
    return base.create(resource, { ...params, data: body });
  },
  // DELETE /api/<resource>/:id answers with the record (the API has no bulk delete).
  delete: (resource, params) =>
    fetchJson(`${API}/${resource}/${id(String(params.id))}`, { method: 'DELETE' }).then(({ json }) => ({
      data: (json ?? params.previousData ?? { id: params.id }) as never,
    })),
};
