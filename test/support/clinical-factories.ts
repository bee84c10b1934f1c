import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import type {
  ImpactPreviewJson,
  ParameterJson,
  RuleJson,
  RuleSetJson,
  RuleTestResultJson as RuleTestResult,
  TestCaseJson,
  VersionJson,
} from '@cds/contracts';
import type { TestApp } from './app';
import type { TestUser } from './factories';

/**
 * Builders for the clinical knowledge base, through the API (the real path). Each returns the
 * server's JSON and fails loudly, with the response body, when the server refuses.
 *
 *   const hba1c = await createParameter(t, admin, { name: 'hba1c', data_type: 'lab_range' });
 *   const set = await createRuleSet(t, admin);
 *   await createRule(t, admin, set, { conditions: [cond(hba1c, '>=', 6.5)], actions: [action('Start metformin')] });
 *   const v1 = await publish(t, admin, set);
 */

export type { ParameterJson, RuleJson, RuleSetJson, RuleTestResult, TestCaseJson, VersionJson };

let sequence = 0;
/** A short unique suffix: names must be unique among active parameters. */
export function uniqueName(prefix: string): string {
  sequence += 1;
  return `${prefix}_${sequence}_${randomBytes(2).toString('hex')}`;
}

/** Throws with the body when the status is not the one expected (so a failing setup explains itself). */
export function expectStatus(res: Response, status: number, what: string): Response {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

export interface ParameterInput {
  name?: string;
  display_name?: string;
  description?: string | null;
  data_type?: string;
  category?: string;
  units?: string | null;
  is_required?: boolean;
  is_template?: boolean;
  template_name?: string | null;
  validation_rules?: Record<string, unknown>;
  loinc_code?: string | null;
  question_override?: string | null;
  change_reason?: string;
}

/** A custom parameter; a numeric lab value unless told otherwise. */
export async function createParameter(t: TestApp, as: TestUser, input: ParameterInput = {}): Promise<ParameterJson> {
  const name = input.name ?? uniqueName('param');
  const body = { display_name: name.replace(/_/g, ' '), data_type: 'number', category: 'labs', ...input, name };
  const res = await t.http().post('/api/parameters').set(as.auth).send(body);
  return expectStatus(res, 201, 'create parameter').body;
}

/** The diabetes templates (idempotent), returned by name. */
export async function seedTemplates(t: TestApp, as: TestUser): Promise<Record<string, ParameterJson>> {
  expectStatus(await t.http().post('/api/parameters/templates/seed').set(as.auth), 200, 'seed templates');
  const list: ParameterJson[] = expectStatus(await t.http().get('/api/parameters/templates').set(as.auth), 200, 'list templates').body;
  return Object.fromEntries(list.map((p) => [p.name, p]));
}

export async function createFromTemplate(
  t: TestApp,
  as: TestUser,
  template: { id: string },
  overrides: ParameterInput = {},
): Promise<ParameterJson> {
  const res = await t.http().post('/api/parameters/from-template').set(as.auth).send({ template_id: template.id, overrides });
  return expectStatus(res, 201, 'create parameter from template').body;
}

type Ref = { id: string } | string;
const idOf = (ref: Ref) => (typeof ref === 'string' ? ref : ref.id);

export interface ConditionInput {
  parameter: string;
  operator: string;
  value: unknown;
  logic?: 'AND' | 'OR';
}

/** A condition on a parameter (or its id): cond(hba1c, '>=', 6.5), cond(smoker, 'equals', true, 'OR'). */
export function cond(parameter: Ref, operator: string, value: unknown, logic?: 'AND' | 'OR'): ConditionInput {
  return { parameter: idOf(parameter), operator, value, ...(logic ? { logic } : {}) };
}

export interface ActionInput {
  type?: string;
  severity?: string;
  message: string;
  value?: string;
}

/** An action; a medium-severity recommendation unless told otherwise. */
export function action(message: string, overrides: Partial<ActionInput> = {}): ActionInput {
  return { type: 'recommendation', severity: 'medium', message, ...overrides };
}

export interface RuleSetInput {
  name?: string;
  description?: string | null;
  /** The guideline the set follows, shown on its findings. */
  source?: string | null;
  is_template?: boolean;
  is_active?: boolean;
}

export async function createRuleSet(t: TestApp, as: TestUser, input: RuleSetInput = {}): Promise<RuleSetJson> {
  const res = await t
    .http()
    .post('/api/rule-sets')
    .set(as.auth)
    .send({ name: uniqueName('Rule set'), ...input });
  return expectStatus(res, 201, 'create rule set').body;
}

export interface RuleInput {
  name?: string;
  description?: string;
  priority?: number;
  conditions?: unknown[];
  actions?: unknown[];
  is_active?: boolean;
}

/**
 * The ADA diagnosis and crisis rules the integration suites (CDS Hooks, FHIR) evaluate, on parameters
 * made from the diabetes templates: HbA1c ≥ 6.5 %, fasting glucose ≥ 126 mg/dL, systolic ≥ 180 mmHg.
 */
export function adaCoreRules(p: Record<string, Ref>): RuleInput[] {
  return [
    {
      name: 'Diabetes by HbA1c',
      priority: 20,
      conditions: [cond(p.hba1c, '>=', 6.5)],
      actions: [action('Confirm the diagnosis and start diabetes care', { severity: 'high' })],
    },
    {
      name: 'Diabetes by fasting glucose',
      priority: 19,
      conditions: [cond(p.fasting_glucose, '>=', 126)],
      actions: [action('Repeat the fasting glucose to confirm', { severity: 'high' })],
    },
    {
      name: 'Hypertensive crisis',
      priority: 30,
      conditions: [cond(p.blood_pressure_systolic, '>=', 180)],
      actions: [action('Assess for target-organ damage today', { severity: 'critical' })],
    },
  ];
}

/** A rule in the set; without conditions or actions it gets none (say what the test needs). */
export async function createRule(t: TestApp, as: TestUser, ruleSet: Ref, input: RuleInput = {}): Promise<RuleJson> {
  const res = await t
    .http()
    .post('/api/rules')
    .set(as.auth)
    .send({ name: uniqueName('Rule'), ...input, rule_set_id: idOf(ruleSet) });
  return expectStatus(res, 201, 'create rule').body;
}

export async function updateRule(t: TestApp, as: TestUser, rule: Ref, input: RuleInput): Promise<RuleJson> {
  const res = await t
    .http()
    .put(`/api/rules/${idOf(rule)}`)
    .set(as.auth)
    .send(input);
  return expectStatus(res, 200, 'update rule').body;
}

/** Fixtures acknowledge analysis warnings (with this reason) unless a body is given; errors still block. */
export const FIXTURE_ACKNOWLEDGEMENT = { acknowledge_warnings: { reason: 'Test fixture: warnings reviewed' } };

/** The impact preview an admin reviews before publishing (POST /api/rule-sets/:id/impact-preview). */
export async function previewImpact(t: TestApp, as: TestUser, ruleSet: Ref): Promise<ImpactPreviewJson> {
  const res = await t
    .http()
    .post(`/api/rule-sets/${idOf(ruleSet)}/impact-preview`)
    .set(as.auth);
  return expectStatus(res, 201, 'impact preview').body;
}

/** Publishes as the admin console does: the impact preview first (unless the body names one), then publish with its id. */
export async function publish(t: TestApp, as: TestUser, ruleSet: Ref, body: object = FIXTURE_ACKNOWLEDGEMENT): Promise<VersionJson> {
  const preview = 'impact_preview_id' in body ? {} : { impact_preview_id: (await previewImpact(t, as, ruleSet)).id };
  const res = await t
    .http()
    .post(`/api/rule-sets/${idOf(ruleSet)}/publish`)
    .set(as.auth)
    .send({ ...body, ...preview });
  return expectStatus(res, 201, 'publish rule set').body;
}

export async function createTestCase(
  t: TestApp,
  as: TestUser,
  rule: Ref,
  input: { name?: string; answers: Record<string, unknown>; expected_outcome: true | false | 'unknown'; reference_date?: string },
): Promise<TestCaseJson> {
  const res = await t
    .http()
    .post(`/api/rules/${idOf(rule)}/test-cases`)
    .set(as.auth)
    .send({ name: uniqueName('case'), ...input });
  return expectStatus(res, 201, 'create test case').body;
}

/**
 * A published rule set in one call, for suites that need published knowledge (assessments):
 *   const { ruleSet, rules, version } = await createPublishedRuleSet(t, admin, [
 *     { name: 'Diabetes range', priority: 10, conditions: [cond(hba1c, '>=', 6.5)], actions: [action('Refer', { type: 'referral' })] },
 *   ]);
 */
export async function createPublishedRuleSet(t: TestApp, as: TestUser, rules: RuleInput[], input: RuleSetInput = {}) {
  const ruleSet = await createRuleSet(t, as, input);
  const created: RuleJson[] = [];
  for (const rule of rules) created.push(await createRule(t, as, ruleSet, rule));
  const version = await publish(t, as, ruleSet);
  return { ruleSet, rules: created, version };
}

/** An answer a vignette gives: a number in the parameter's unit, `{ value, unit }`, a band, 'unknown', true/false. */
export type VignetteAnswer = unknown | { value: unknown; unit?: string };

export interface AssessmentRun {
  /** The final assessment JSON (completed). */
  result: {
    id: string;
    is_completed: boolean;
    recommendation: { rule_name: string; severity: string } | null;
    findings: { rule_name: string; rule_version: number; severity: string; source: string | null; basis: { label?: string | null }[] }[];
    undetermined_rules: { rule_name: string; unknown_parameters: { display_name?: string | null }[] }[];
    answer_details: { parameter_id: string; value: unknown; unit: string | null; entered_as: string; label: string }[];
    rule_set_versions: { rule_set_id: string; version: number }[];
  };
  /** Parameter ids in the order they were asked. */
  asked: string[];
}

const withUnit = (a: unknown): a is { value: unknown; unit?: string } =>
  typeof a === 'object' && a !== null && 'value' in a && (a as { type?: unknown }).type !== 'range';

/**
 * Drives a clinical assessment as a PCP would: starts it, answers each question it asks from
 * `answers` (by parameter id; a parameter the vignette does not give is "Not available"), and
 * returns the completed result. `answers[id]` may be a list: the first answer, then the exact value
 * when the assessment asks again (a band that straddled a threshold).
 */
export async function runAssessment(
  t: TestApp,
  as: TestUser,
  answers: Record<string, VignetteAnswer | VignetteAnswer[]>,
  onStep?: (assessment: { id: string; step: number; current_parameter_id: string | null }) => Promise<void>,
): Promise<AssessmentRun> {
  let a = expectStatus(await t.http().post('/api/assessments').set(as.auth).send({ mode: 'clinical' }), 201, 'start assessment').body;
  const asked: string[] = [];
  for (let guard = 0; !a.is_completed; guard++) {
    if (guard > 50) throw new Error('the assessment asked more than 50 questions');
    if (onStep) await onStep(a);
    const id: string = a.current_parameter_id;
    const given = answers[id];
    const times = asked.filter((x) => x === id).length;
    const answer = Array.isArray(given) ? given[Math.min(times, given.length - 1)] : given === undefined ? 'unknown' : given;
    asked.push(id);
    const body = withUnit(answer)
      ? { parameter_id: id, value: answer.value, ...(answer.unit ? { unit: answer.unit } : {}) }
      : { parameter_id: id, value: answer };
    a = expectStatus(
      await t
        .http()
        .post(`/api/assessments/${a.id}/answers`)
        .set(as.auth)
        .send({ ...body, step: a.step }),
      200,
      'answer',
    ).body;
  }
  return { result: a, asked };
}
