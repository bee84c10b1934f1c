import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider, fetchUtils } from 'react-admin';
import { fetchJson } from '../../api';
import { streamImpactPreview, type ImpactProgress } from './impactPreviewStream';
import {
  ACTION_KEYS,
  CDS_CLIENT_WRITABLE_FIELDS,
  CONDITION_KEYS,
  PARAMETER_WRITABLE_FIELDS,
  RULE_SET_WRITABLE_FIELDS,
  RULE_WRITABLE_FIELDS,
  type ActivityItemJson,
  type ConformanceJson,
  type MeasureDesignJson,
  type MeasureDesignSummaryJson,
  type MeasureDraftRequestJson,
  type ImpactPreviewJson,
  type MeasureImpactJson,
  type MeasureDraftSaveJson,
  type MeasurePublishJson,
  type MeasureVersionDetailJson,
  type MeasureVersionJson,
  type MeasureRunJson,
  type BoundaryVignetteJson,
  type PublishCheckJson,
  type PolishEnqueueJson,
  type PublishRequest,
  type SeedResultJson,
  type VignetteJson,
  type VignetteRunJson,
  type ValueSetSummaryJson,
  type AnalyticsPeriod,
  type AnalysisJson,
  type ApprovalJson,
  type DiffJson,
  type DraftRule,
  type HealthJson,
  type InvitationJson,
  type ParameterJson,
  type PolishStatusJson,
  type Role,
  type RuleJson,
  type RuleSetAnalytics,
  type RuleSetJson,
  type RuleTestResultJson,
  type StatsJson,
  type TestCaseJson,
  type UserListItemJson,
  type VersionSummaryJson,
} from '@cds/contracts';

const API = '/api';

/** The auth client's fetch: bearer token, one refresh-and-retry on 401, ApiError on failure. */
const httpClient = fetchJson as unknown as typeof fetchUtils.fetchJson;

const base = simpleRestProvider(API, httpClient);

/**
 * Fields each resource accepts on PUT. The API refuses unknown fields (400), and react-admin
 * sends the whole record, so an edit sends only what the server lets it change.
 */
const WRITABLE: Record<string, readonly string[]> = {
  parameters: PARAMETER_WRITABLE_FIELDS,
  rules: RULE_WRITABLE_FIELDS,
  'rule-sets': RULE_SET_WRITABLE_FIELDS,
  'cds-clients': CDS_CLIENT_WRITABLE_FIELDS,
};

export function pick<T extends object>(data: T, keys: readonly string[]): Partial<T> {
  return Object.fromEntries(Object.entries(data).filter(([k, v]) => keys.includes(k) && v !== undefined)) as Partial<T>;
}

/** A rule's body as the API takes it: no editor-only keys on conditions or actions. */
export function ruleBody(data: Partial<RuleJson>): Partial<RuleJson> {
  const body = pick(data, WRITABLE.rules);
  if (body.conditions) body.conditions = body.conditions.map((c) => pick(c, CONDITION_KEYS) as RuleJson['conditions'][number]);
  if (body.actions) body.actions = body.actions.map((a) => pick(a, ACTION_KEYS) as RuleJson['actions'][number]);
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
  stats: () => call<StatsJson>('GET', '/stats'),
  activity: () => call<ActivityItemJson[]>('GET', `/activity?${q({ range: [0, 9] })}`),
  health: async (): Promise<HealthJson> => {
    // 503 still carries the report: which part is down is exactly what the admin needs.
    try {
      return await call<HealthJson>('GET', '/health');
    } catch (e) {
      const body = (e as { body?: unknown }).body as HealthJson | undefined;
      if (body && typeof body === 'object' && 'database' in body) return body;
      throw e;
    }
  },
  polishStatus: () => call<PolishStatusJson>('GET', '/polish/status'),
  conformance: () => call<ConformanceJson>('GET', '/measures/conformance'),
  measureDesigns: () => call<MeasureDesignSummaryJson[]>('GET', '/measures/designs'),
  measureDesign: (measureId: string) => call<MeasureDesignJson>('GET', `/measures/designs/${encodeURIComponent(measureId)}`),
  /** Streamed: `onProgress` hears how many patients the server has compared (impactPreviewStream.ts). */
  measureImpact: (measureId: string, draft: MeasureDraftRequestJson, onProgress: (p: ImpactProgress) => void = () => undefined) =>
    streamImpactPreview<MeasureImpactJson>(`${API}/measures/designs/${id(measureId)}/impact`, onProgress, draft),
  measureVersions: (measureId: string) => call<MeasureVersionJson[]>('GET', `/measures/designs/${id(measureId)}/versions`),
  saveMeasureDraft: (measureId: string, body: MeasureDraftSaveJson) =>
    call<MeasureVersionDetailJson>('PUT', `/measures/designs/${id(measureId)}/draft`, body),
  discardMeasureDraft: (measureId: string, revision: number) =>
    call<unknown>('DELETE', `/measures/designs/${id(measureId)}/draft?${q({ revision: String(revision) })}`),
  publishMeasureDraft: (measureId: string, body: MeasurePublishJson) =>
    call<MeasureVersionDetailJson>('POST', `/measures/designs/${id(measureId)}/draft/publish`, body),
  measureRuns: () => call<MeasureRunJson[]>('GET', `/measure-runs?${q({ range: [0, 4] })}`),
  startMeasureRun: () => call<MeasureRunJson>('POST', '/measure-runs', { trend: true }),

  setRole: (userId: string, role: Role | null) => call<UserListItemJson>('PUT', `/users/${id(userId)}/role`, { role }),
  approve: (approvalId: string) => call<ApprovalJson>('POST', `/approvals/${id(approvalId)}/approve`),
  reject: (approvalId: string, reason?: string) =>
    call<ApprovalJson>('POST', `/approvals/${id(approvalId)}/reject`, reason ? { reason } : {}),
  invite: (email: string, role: Role | null) => call<InvitationJson>('POST', '/invitations', { email, role }),
  revokeInvitation: (invitationId: string) => call<InvitationJson>('DELETE', `/invitations/${id(invitationId)}`),

  allParameters: (filter: Record<string, unknown> = {}) => listAll<ParameterJson>('parameters', filter, ['display_name', 'ASC']),
  parameterTemplates: () => call<ParameterJson[]>('GET', '/parameters/templates'),
  valueSets: () => call<ValueSetSummaryJson[]>('GET', '/value-sets'),
  seedTemplates: () => call<SeedResultJson>('POST', '/parameters/templates/seed'),
  parameterFromTemplate: (templateId: string, overrides?: Record<string, unknown>) =>
    call<ParameterJson>('POST', '/parameters/from-template', { template_id: templateId, ...(overrides ? { overrides } : {}) }),
  cloneParameter: (parameterId: string, body: { name: string; display_name?: string }) =>
    call<ParameterJson>('POST', `/parameters/${id(parameterId)}/clone`, body),
  polishParameter: (parameterId: string) => call<PolishEnqueueJson>('POST', `/parameters/${id(parameterId)}/polish`),

  ruleSetTemplates: () => call<RuleSetJson[]>('GET', '/rule-sets/templates'),
  ruleSetFromTemplate: (templateId: string, name?: string) =>
    call<RuleSetJson>('POST', '/rule-sets/from-template', { template_id: templateId, ...(name ? { name } : {}) }),
  setRuleSetActivation: (ruleSetId: string, isActive: boolean) =>
    call<RuleSetJson>('PATCH', `/rule-sets/${id(ruleSetId)}/activation`, { is_active: isActive }),
  publish: (ruleSetId: string, body: PublishRequest = {}) => call<VersionSummaryJson>('POST', `/rule-sets/${id(ruleSetId)}/publish`, body),
  publishCheck: (ruleSetId: string) => call<PublishCheckJson>('GET', `/rule-sets/${id(ruleSetId)}/publish-check`),
  /** Streamed: `onProgress` hears how many patients the server has compared (impactPreviewStream.ts). */
  impactPreview: (ruleSetId: string, onProgress: (p: ImpactProgress) => void = () => undefined) =>
    streamImpactPreview<ImpactPreviewJson>(`${API}/rule-sets/${id(ruleSetId)}/impact-preview`, onProgress),
  runVignette: (ruleSetId: string, answers: Record<string, unknown>) =>
    call<VignetteRunJson>('POST', `/rule-sets/${id(ruleSetId)}/run`, { answers }),
  boundaryVignettes: (ruleSetId: string) => call<BoundaryVignetteJson[]>('GET', `/rule-sets/${id(ruleSetId)}/boundary-vignettes`),
  vignettes: (ruleSetId: string) => call<VignetteJson[]>('GET', `/rule-sets/${id(ruleSetId)}/test-cases`),
  createVignette: (
    ruleSetId: string,
    body: { name: string; answers: Record<string, unknown>; expected_fired: string[]; expected_primary: string | null },
  ) => call<VignetteJson>('POST', `/rule-sets/${id(ruleSetId)}/test-cases`, body),
  removeVignette: (ruleSetId: string, caseId: string) => call<unknown>('DELETE', `/rule-sets/${id(ruleSetId)}/test-cases/${id(caseId)}`),
  versions: (ruleSetId: string) => call<VersionSummaryJson[]>('GET', `/rule-sets/${id(ruleSetId)}/versions`),
  diff: (ruleSetId: string) => call<DiffJson>('GET', `/rule-sets/${id(ruleSetId)}/diff`),
  analysis: (ruleSetId: string) => call<AnalysisJson>('GET', `/rule-sets/${id(ruleSetId)}/analysis`),
  analyzeDraft: (ruleSetId: string, rules: DraftRule[], signal?: AbortSignal) =>
    fetchJson<AnalysisJson>(`${API}/rule-sets/${id(ruleSetId)}/analysis`, {
      method: 'POST',
      body: JSON.stringify({ rules: rules.map((r) => ({ ...ruleBody(r as Partial<RuleJson>), ...(r.id ? { id: r.id } : {}) })) }),
      signal,
    }).then((r) => r.json),
  analytics: (ruleSetId: string, period: AnalyticsPeriod = 'month') =>
    call<RuleSetAnalytics>('GET', `/rule-sets/${id(ruleSetId)}/analytics?${q({ period })}`),

  cloneRule: (ruleId: string) => call<RuleJson>('POST', `/rules/${id(ruleId)}/clone`),
  testRule: (ruleId: string, answers: Record<string, unknown>, referenceDate?: string) =>
    call<RuleTestResultJson>('POST', `/rules/${id(ruleId)}/test`, { answers, ...(referenceDate ? { reference_date: referenceDate } : {}) }),
  testCases: (ruleId: string) => call<TestCaseJson[]>('GET', `/rules/${id(ruleId)}/test-cases`),
  createTestCase: (
    ruleId: string,
    body: Pick<TestCaseJson, 'name' | 'answers' | 'expected_outcome'> & { reference_date?: string | null },
  ) => call<TestCaseJson>('POST', `/rules/${id(ruleId)}/test-cases`, body),
  updateTestCase: (
    ruleId: string,
    caseId: string,
    body: Partial<Pick<TestCaseJson, 'name' | 'answers' | 'expected_outcome' | 'reference_date'>>,
  ) => call<TestCaseJson>('PUT', `/rules/${id(ruleId)}/test-cases/${id(caseId)}`, body),
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
