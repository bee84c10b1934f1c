import { evalFhirPathTyped, toTypedValue } from '@medplum/core';
import { FHIR_SYSTEM } from '@cds/contracts';
import { startTestApp, type TestApp } from '../support/app';
import { createCast, createUser, type TestUser } from '../support/factories';
import {
  action,
  adaCoreRules,
  cond,
  createFromTemplate,
  createParameter,
  createPublishedRuleSet,
  expectStatus,
  seedTemplates,
  type ParameterJson,
} from '../support/clinical-factories';
import { expectValidFhir } from '../support/fhir-validation';

/**
 * FHIR R4 out and the adaptive questionnaire (issue 11): an assessment exports as a Bundle, a
 * published version as a PlanDefinition with its Library, and $next-question walks a patient to
 * the same result as the clinical form. Every resource produced passes Medplum's validateResource
 * with the R4 definitions.
 */
const ADA_2 = 'ADA Standards of Care in Diabetes—2026, Section 2';

let t: TestApp;
let admin: TestUser;
let pcp: TestUser;
let otherPcp: TestUser;
let p: Record<string, ParameterJson>;
let ruleSetId: string;
const ruleIds: Record<string, string> = {};
const emitted = new Set<string>();

type Json = Record<string, any>;

/** One answer, given the same way to the clinical form and to the questionnaire. */
type Given = number | { value: number; unit: string } | 'unknown' | boolean | { option: 'last' | 'first' };

beforeAll(async () => {
  expect(Number(process.version.slice(1).split('.')[0])).toBeGreaterThanOrEqual(22);
  t = await startTestApp();
  ({ admin, pcp } = await createCast(t));
  otherPcp = await createUser(t, 'pcp');
  const templates = await seedTemplates(t, admin);
  const suffix = Math.random().toString(36).slice(2, 8);
  p = {};
  for (const name of ['hba1c', 'fasting_glucose', 'blood_pressure_systolic', 'bmi'])
    p[name] = await createFromTemplate(t, admin, templates[name], { name: `${name}_${suffix}` });
  p.smoker = await createParameter(t, admin, {
    name: `smoker_${suffix}`,
    display_name: 'Current smoker',
    data_type: 'boolean',
    category: 'history',
  });
  const { ruleSet, rules } = await createPublishedRuleSet(
    t,
    admin,
    [
      ...adaCoreRules(p),
      {
        name: 'Obese smoker',
        priority: 5,
        conditions: [cond(p.bmi, '>=', 30), cond(p.smoker, 'equals', true)],
        actions: [action('Offer weight-management and smoking-cessation support', { severity: 'low' })],
      },
    ],
    { name: 'ADA 2026 adult care', source: ADA_2 },
  );
  ruleSetId = ruleSet.id;
  for (const r of rules) ruleIds[r.name] = r.id;
});

afterAll(async () => {
  await t?.close();
});

/** The clinical form, driven as a PCP would; returns the completed assessment and the parameters in the order asked. */
async function clinicalRun(as: TestUser, answers: Record<string, Given>) {
  let a = expectStatus(await t.http().post('/api/assessments').set(as.auth).send({}), 201, 'start').body;
  const asked: string[] = [];
  while (!a.is_completed) {
    const q = a.current_question;
    asked.push(q.parameter_id);
    const given = answers[q.parameter_id] ?? 'unknown';
    const options = q.options.filter((o: Json) => o.value !== 'unknown');
    const body =
      typeof given === 'object' && 'option' in given
        ? { value: (given.option === 'last' ? options.at(-1) : options[0]).value }
        : typeof given === 'object'
          ? { value: given.value, unit: given.unit }
          : { value: given };
    a = expectStatus(
      await t
        .http()
        .post(`/api/assessments/${a.id}/answers`)
        .set(as.auth)
        .send({ parameter_id: q.parameter_id, step: a.step, ...body }),
      200,
      'answer',
    ).body;
  }
  return { assessment: a, asked };
}

async function getQuestionnaire(): Promise<Json> {
  return expectStatus(await t.http().get(`/api/fhir/Questionnaire/${ruleSetId}`).set(pcp.auth), 200, 'questionnaire').body;
}

function nextQuestion(body: unknown, as: TestUser = pcp) {
  return t
    .http()
    .post(`/api/fhir/Questionnaire/${ruleSetId}/$next-question`)
    .set(as.auth)
    .set('Content-Type', 'application/fhir+json')
    .send(JSON.stringify(body));
}

/** What a FHIR client puts in the QuestionnaireResponse for the same answer, using only the Questionnaire. */
function fhirAnswer(item: Json, given: Given): Json {
  const options: Json[] = item.answerOption ?? [];
  const coded = options.filter((o) => o.valueCoding.system !== FHIR_SYSTEM.dataAbsentReason);
  if (given === 'unknown') return options.find((o) => o.valueCoding.system === FHIR_SYSTEM.dataAbsentReason)!;
  if (typeof given === 'boolean') return coded.find((o) => o.valueCoding.display === (given ? 'Yes' : 'No'))!;
  if (typeof given === 'object' && 'option' in given) return given.option === 'last' ? coded.at(-1)! : coded[0];
  const unit =
    typeof given === 'number' ? item.extension.find((e: Json) => e.url.endsWith('questionnaire-unitOption')).valueCoding.code : given.unit;
  return { valueQuantity: { value: typeof given === 'number' ? given : given.value, system: FHIR_SYSTEM.ucum, code: unit } };
}

/** Walks $next-question, answering each item it adds; returns the completed response and the linkIds in the order asked. */
async function fhirRun(answers: Record<string, Given>) {
  const q = await getQuestionnaire();
  let qr: Json = { resourceType: 'QuestionnaireResponse', questionnaire: q.url, status: 'in-progress' };
  const asked: string[] = [];
  for (let guard = 0; ; guard++) {
    if (guard > 20) throw new Error('$next-question asked more than 20 questions');
    const res = expectStatus(await nextQuestion(qr), 200, '$next-question');
    expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
    qr = res.body;
    expectValidFhir(qr, emitted);
    if (qr.status === 'completed') return { qr, asked };
    const pending = qr.item.at(-1);
    expect(pending.answer).toBeUndefined();
    asked.push(pending.linkId);
    // SDC's adaptive form: the response carries the Questionnaire built so far; the client needs nothing else.
    expect(qr.questionnaire).toBe('#questionnaire');
    const adaptive = qr.contained.find((r: Json) => r.resourceType === 'Questionnaire');
    expect(adaptive.derivedFrom).toEqual([`${q.url}|1`]);
    expect(adaptive.item.map((i: Json) => i.linkId)).toEqual(qr.item.map((i: Json) => i.linkId));
    const item = adaptive.item.find((i: Json) => i.linkId === pending.linkId);
    expect(item).toEqual(q.item.find((i: Json) => i.linkId === pending.linkId));
    pending.answer = [fhirAnswer(item, answers[pending.linkId] ?? 'unknown')];
  }
}

/** The findings of a completed QuestionnaireResponse's contained result, in rank order. */
function containedFindings(qr: Json): { rule_id: string; rank: number }[] {
  const params = qr.contained.find((r: Json) => r.resourceType === 'Parameters');
  const findings = (params?.parameter ?? []).filter((x: Json) => x.name === 'finding');
  return findings
    .map((f: Json) => ({
      rule_id: f.part.find((x: Json) => x.name === 'rule-id').valueString,
      rank: f.part.find((x: Json) => x.name === 'rank').valueInteger,
    }))
    .sort((a: Json, b: Json) => a.rank - b.rank);
}

const entries = (bundle: Json, type: string): Json[] =>
  bundle.entry.filter((e: Json) => e.resource.resourceType === type).map((e: Json) => e.resource);

describe('GET /api/fhir/Questionnaire/:id', () => {
  it("is generated from the rule set's parameters: item types, LOINC codes, units, the partition's bands and Not available", async () => {
    const q = await getQuestionnaire();
    expectValidFhir(q, emitted);
    expect(q).toMatchObject({ resourceType: 'Questionnaire', id: ruleSetId, version: '1', status: 'active', title: 'ADA 2026 adult care' });
    expect(q.url).toBe(`${new URL(q.url).origin}/api/fhir/Questionnaire/${ruleSetId}`);
    const a1c = q.item.find((i: Json) => i.linkId === p.hba1c.id);
    expect(a1c.type).toBe('quantity');
    expect(a1c.code).toEqual([{ system: FHIR_SYSTEM.loinc, code: '4548-4', display: 'HbA1c' }]);
    const units = a1c.extension.filter((e: Json) => e.url.endsWith('questionnaire-unitOption')).map((e: Json) => e.valueCoding.code);
    expect(units).toEqual(['%', 'mmol/mol']);
    // The bands the clinical form offers, coded in order, then Not available as a data-absent reason.
    const a = expectStatus(await t.http().post('/api/assessments').set(pcp.auth).send({}), 201, 'start').body;
    const first = q.item.find((i: Json) => i.linkId === a.current_question.parameter_id);
    expect(first.answerOption.map((o: Json) => o.valueCoding.display)).toEqual(a.current_question.options.map((o: Json) => o.label));
    expect(first.answerOption.at(-1).valueCoding).toMatchObject({ system: FHIR_SYSTEM.dataAbsentReason, code: 'asked-unknown' });
    expect(a1c.answerOption.some((o: Json) => /6\.5/.test(o.valueCoding.display))).toBe(true);
    const smoker = q.item.find((i: Json) => i.linkId === p.smoker.id);
    expect(smoker.type).toBe('choice');
    expect(smoker.answerOption.map((o: Json) => o.valueCoding.display)).toEqual(['Yes', 'No', 'Not available']);
    // The clinical form's question order.
    expect(q.item[0].linkId).toBe(a.current_question.parameter_id);
  });

  it('is only for active published rule sets, as the clinical form uses them', async () => {
    const draft = expectStatus(await t.http().post('/api/rule-sets').set(admin.auth).send({ name: 'Never published' }), 201, 'draft').body;
    const { ruleSet: retired } = await createPublishedRuleSet(t, admin, [
      { name: 'Retired rule', priority: 1, conditions: [cond(p.bmi, '>=', 40)], actions: [action('Refer for bariatric surgery')] },
    ]);
    expectStatus(
      await t.http().patch(`/api/rule-sets/${retired.id}/activation`).set(admin.auth).send({ is_active: false }),
      200,
      'deactivate',
    );
    for (const id of [draft.id, retired.id]) {
      const res = await t.http().get(`/api/fhir/Questionnaire/${id}`).set(pcp.auth);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
      const next = await t
        .http()
        .post(`/api/fhir/Questionnaire/${id}/$next-question`)
        .set(pcp.auth)
        .send({ resourceType: 'QuestionnaireResponse', status: 'in-progress', questionnaire: `Questionnaire/${id}|1` });
      expect(next.status).toBe(404);
    }
    // Administrators still export any published version.
    expectStatus(await t.http().get(`/api/rule-sets/${retired.id}/versions/1/fhir`).set(admin.auth), 200, 'export retired');
  });

  it('is 404 for a rule set that does not exist, and needs a clinical role', async () => {
    const res = await t.http().get('/api/fhir/Questionnaire/00000000-0000-4000-8000-000000000000').set(pcp.auth);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, code: 'not_found' });
    expect((await t.http().get(`/api/fhir/Questionnaire/${ruleSetId}`)).status).toBe(401);
  });
});

describe('POST /api/fhir/Questionnaire/:id/$next-question', () => {
  const scenarios: [string, () => Record<string, Given>, string[]][] = [
    [
      'HbA1c typed in mmol/mol, glucose as the top band, a crisis blood pressure, an obese smoker',
      () => ({
        [p.hba1c.id]: { value: 53, unit: 'mmol/mol' },
        [p.fasting_glucose.id]: { option: 'last' },
        [p.blood_pressure_systolic.id]: 186,
        [p.bmi.id]: 32.4,
        [p.smoker.id]: true,
      }),
      ['Hypertensive crisis', 'Diabetes by HbA1c', 'Diabetes by fasting glucose', 'Obese smoker'],
    ],
    [
      'everything normal',
      () => ({ [p.hba1c.id]: 5.2, [p.fasting_glucose.id]: { option: 'first' }, [p.blood_pressure_systolic.id]: 118, [p.bmi.id]: 23 }),
      [],
    ],
    ['nothing available: unknown, never false', () => ({}), []],
  ];

  it.each(scenarios)('walks a patient to the same result as the clinical form: %s', async (_name, answers, expected) => {
    const clinical = await clinicalRun(pcp, answers());
    const fhir = await fhirRun(answers());
    expect(fhir.asked).toEqual(clinical.asked);
    expect(containedFindings(fhir.qr).map((f) => f.rule_id)).toEqual(clinical.assessment.findings.map((f: Json) => f.rule_id));
    expect(clinical.assessment.findings.map((f: Json) => f.rule_name)).toEqual(expected);
    const gr = fhir.qr.contained.find((r: Json) => r.resourceType === 'GuidanceResponse');
    expect(gr.moduleCanonical).toMatch(new RegExp(`/api/fhir/PlanDefinition/${ruleSetId}\\|1$`));
    const undetermined = (fhir.qr.contained.find((r: Json) => r.resourceType === 'Parameters')?.parameter ?? []).filter(
      (x: Json) => x.name === 'undetermined',
    );
    expect(undetermined.map((u: Json) => u.part[1].valueString).sort()).toEqual(
      clinical.assessment.undetermined_rules.map((u: Json) => u.rule_id).sort(),
    );
    expect(gr.status).toBe(undetermined.length ? 'data-required' : 'success');
    expect(fhir.qr.extension).toContainEqual({
      url: expect.stringMatching(/guidance-response$/),
      valueReference: { reference: '#result' },
    });
  });

  it('is described in OpenAPI under its FHIR name', async () => {
    const doc = (await t.http().get('/api/docs-json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/fhir/Questionnaire/{id}', '/api/fhir/Questionnaire/{id}/$next-question', '/api/assessments/{id}/fhir']),
    );
  });

  it('accepts the SDC Parameters form and keeps the answers as given', async () => {
    const q = await getQuestionnaire();
    const qr = { resourceType: 'QuestionnaireResponse', questionnaire: `${q.url}|1`, status: 'in-progress' };
    const res = expectStatus(
      await nextQuestion({ resourceType: 'Parameters', parameter: [{ name: 'in', resource: qr }] }),
      200,
      'Parameters',
    );
    expect(res.body.item).toHaveLength(1);
    expect(res.body.authored).toEqual(expect.any(String));
  });

  it('refuses a QuestionnaireResponse for another Questionnaire with 422 questionnaire_mismatch', async () => {
    for (const questionnaire of [
      'http://example.org/fhir/Questionnaire/phq-9',
      `Questionnaire/00000000-0000-4000-8000-000000000000`,
      // Same id, another server.
      `http://example.org/fhir/Questionnaire/${ruleSetId}`,
    ]) {
      const contained = [{ resourceType: 'Questionnaire', id: 'q', status: 'active', derivedFrom: [questionnaire] }];
      for (const body of [
        { resourceType: 'QuestionnaireResponse', questionnaire, status: 'in-progress' },
        { resourceType: 'QuestionnaireResponse', questionnaire: '#q', contained, status: 'in-progress' },
      ]) {
        const res = await nextQuestion(body);
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({
          statusCode: 422,
          code: 'questionnaire_mismatch',
          message: expect.stringContaining(questionnaire),
        });
      }
      const res = await nextQuestion({ resourceType: 'QuestionnaireResponse', questionnaire, status: 'in-progress' });
      expect(res.body).toMatchObject({ statusCode: 422, code: 'questionnaire_mismatch', message: expect.stringContaining(questionnaire) });
      expect(res.body.details[0].field).toBe('questionnaire');
    }
  });

  it('refuses malformed resources with 400 invalid_fhir_resource, and wrong answers as the clinical form does', async () => {
    const q = await getQuestionnaire();
    const base = { resourceType: 'QuestionnaireResponse', questionnaire: q.url, status: 'in-progress' };
    const first = q.item[0];
    expect(first.type).toBe('quantity');
    const max: number = first.extension.find((e: Json) => e.url.endsWith('/maxValue')).valueDecimal;
    const unit: string = first.extension.find((e: Json) => e.url.endsWith('questionnaire-unitOption')).valueCoding.code;
    const bad: [unknown, number, string][] = [
      [{ resourceType: 'Patient' }, 400, 'invalid_fhir_resource'],
      [[], 400, 'invalid_fhir_resource'],
      [{ resourceType: 'QuestionnaireResponse', status: 'in-progress' }, 400, 'invalid_fhir_resource'],
      [{ ...base, item: 'x' }, 400, 'invalid_fhir_resource'],
      [{ ...base, item: [{ text: 'no linkId' }] }, 400, 'invalid_fhir_resource'],
      [{ ...base, authored: 'yesterday' }, 400, 'invalid_fhir_resource'],
      // The reference time of "within N days": a year 0 or 275760, or a time of no zone, would decide those conditions.
      [{ ...base, authored: '0000-01-01T00:00:00Z' }, 400, 'invalid_fhir_resource'],
      [{ ...base, authored: '+275760-09-13T00:00:00Z' }, 400, 'invalid_fhir_resource'],
      [{ ...base, authored: '2026-11-02T10:15:00' }, 400, 'invalid_fhir_resource'],
      [{ ...base, item: [{ linkId: first.linkId, answer: [{ valueDecimal: 7, valueString: '7' }] }] }, 400, 'invalid_fhir_resource'],
      [
        { ...base, item: [{ linkId: first.linkId, answer: [{ valueCoding: { system: 'http://example.org', code: '1' } }] }] },
        400,
        'invalid_fhir_resource',
      ],
      [{ ...base, item: [{ linkId: first.linkId, answer: [{ valueAttachment: { url: 'x' } }] }] }, 400, 'invalid_fhir_resource'],
      [{ ...base, questionnaire: `${q.url}|draft` }, 400, 'invalid_fhir_resource'],
      [{ ...base, questionnaire: '#missing' }, 400, 'invalid_fhir_resource'],
      [
        { ...base, questionnaire: '#q', contained: [{ resourceType: 'Questionnaire', id: 'q', status: 'active' }] },
        400,
        'invalid_fhir_resource',
      ],
      [{ resourceType: 'Parameters', parameter: [] }, 400, 'invalid_fhir_resource'],
      // Not the question asked first.
      [{ ...base, item: [{ linkId: q.item[1].linkId, answer: [{ valueBoolean: true }] }] }, 400, 'validation_failed'],
      // The clinical form's checks: plausible limits and accepted units.
      [
        {
          ...base,
          item: [{ linkId: first.linkId, answer: [{ valueQuantity: { value: max + 1, system: FHIR_SYSTEM.ucum, code: unit } }] }],
        },
        422,
        'out_of_range',
      ],
      [
        { ...base, item: [{ linkId: first.linkId, answer: [{ valueQuantity: { value: max, system: FHIR_SYSTEM.ucum, code: 'g/L' } }] }] },
        422,
        'unit_not_accepted',
      ],
      [{ ...base, questionnaire: `${q.url}|7` }, 404, 'not_found'],
    ];
    for (const [body, status, code] of bad) {
      const res = await nextQuestion(body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code });
      expect(res.body).toEqual(expect.objectContaining({ statusCode: status, message: expect.any(String) }));
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('refuses an answer after the questionnaire is complete with 409', async () => {
    const done = await fhirRun({});
    const qr = { ...done.qr, item: [...done.qr.item, { linkId: p.smoker.id, answer: [{ valueBoolean: true }] }] };
    const res = await nextQuestion(qr);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
  });
});

describe('GET /api/assessments/:id/fhir', () => {
  let assessment: Json;
  let bundle: Json;

  beforeAll(async () => {
    ({ assessment } = await clinicalRun(pcp, {
      [p.hba1c.id]: { value: 53, unit: 'mmol/mol' },
      [p.fasting_glucose.id]: { option: 'last' },
      [p.blood_pressure_systolic.id]: 'unknown',
      [p.bmi.id]: 32.4,
      [p.smoker.id]: true,
    }));
    const res = expectStatus(await t.http().get(`/api/assessments/${assessment.id}/fhir`).set(pcp.auth), 200, 'bundle');
    expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
    bundle = res.body;
  });

  it('is a valid collection Bundle of Questionnaire, QuestionnaireResponse, Observations and GuidanceResponse', () => {
    const types = expectValidFhir(bundle, emitted);
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    expect([...types].sort()).toEqual([
      'Bundle',
      'GuidanceResponse',
      'Observation',
      'Parameters',
      'Questionnaire',
      'QuestionnaireResponse',
    ]);
    const urls = bundle.entry.map((e: Json) => e.fullUrl);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('carries the answers as entered, LOINC-coded through its Questionnaire; Not available is unknown, never false', () => {
    const [qr] = entries(bundle, 'QuestionnaireResponse');
    const [q] = entries(bundle, 'Questionnaire');
    expect(qr.questionnaire).toBe(`${q.url}|1`);
    expect(qr.status).toBe('completed');
    const item = (id: string) => qr.item.find((i: Json) => i.linkId === id);
    expect(item(p.hba1c.id).answer).toEqual([
      { valueQuantity: { value: 53, unit: 'mmol/mol', system: FHIR_SYSTEM.ucum, code: 'mmol/mol' } },
    ]);
    expect(item(p.blood_pressure_systolic.id).answer).toEqual([
      { valueCoding: { system: FHIR_SYSTEM.dataAbsentReason, code: 'asked-unknown', display: 'Not available' } },
    ]);
    expect(item(p.smoker.id).answer[0].valueCoding.display).toBe('Yes');
    expect(item(p.fasting_glucose.id).answer[0].valueCoding.display).toBe(
      assessment.answer_details.find((d: Json) => d.parameter_id === p.fasting_glucose.id).label,
    );
    expect(q.item.find((i: Json) => i.linkId === p.hba1c.id).code[0]).toMatchObject({ system: FHIR_SYSTEM.loinc, code: '4548-4' });
  });

  it('has one Observation per measured answer: UCUM quantity, band as a range, Not available as dataAbsentReason', () => {
    const obs = entries(bundle, 'Observation');
    const of = (loinc: string) => obs.filter((o) => o.code.coding[0].code === loinc);
    expect(obs).toHaveLength(4);
    // A value in mmol/mol is written under the IFCC code 59261-8, never under 4548-4 (a % code).
    expect(of('4548-4')).toEqual([]);
    const [a1c] = of('59261-8');
    expect(a1c.valueQuantity).toEqual({ value: 53, unit: 'mmol/mol', system: FHIR_SYSTEM.ucum, code: 'mmol/mol' });
    expect(a1c.code.coding[0].system).toBe(FHIR_SYSTEM.loinc);
    expect(a1c.effectiveDateTime).toEqual(expect.any(String));
    expect(a1c.derivedFrom).toEqual([{ reference: `urn:uuid:${assessment.id}` }]);
    const [glucose] = of('1558-6');
    expect(glucose.valueRange.low).toMatchObject({ system: FHIR_SYSTEM.ucum, code: 'mg/dL' });
    const [bp] = of('8480-6');
    expect(bp.valueQuantity).toBeUndefined();
    expect(bp.dataAbsentReason.coding[0]).toMatchObject({ system: FHIR_SYSTEM.dataAbsentReason, code: 'asked-unknown' });
    expect(of('39156-5')[0].valueQuantity).toMatchObject({ value: 32.4, code: 'kg/m2' });
  });

  it('reports the result as a GuidanceResponse with the rule version, every finding and its basis', () => {
    const [gr] = entries(bundle, 'GuidanceResponse');
    const [params] = entries(bundle, 'Parameters');
    expect(gr.moduleCanonical).toMatch(new RegExp(`/api/fhir/PlanDefinition/${ruleSetId}\\|1$`));
    expect(gr.outputParameters.reference).toBe(
      bundle.entry.find((e: Json) => e.resource === params || e.resource.id === params.id).fullUrl,
    );
    expect(gr.requestIdentifier.value).toBe(assessment.id);
    // The crisis rule is undetermined (blood pressure not available): the GuidanceResponse asks for that data.
    expect(gr.status).toBe('data-required');
    expect(gr.dataRequirement[0].codeFilter[0].code[0]).toMatchObject({ system: FHIR_SYSTEM.loinc, code: '8480-6' });
    const findings = params.parameter.filter((x: Json) => x.name === 'finding');
    expect(findings.map((f: Json) => f.part.find((x: Json) => x.name === 'rule-id').valueString)).toEqual(
      assessment.findings.map((f: Json) => f.rule_id),
    );
    const a1c = findings.find((f: Json) => f.part.find((x: Json) => x.name === 'rule').valueString === 'Diabetes by HbA1c');
    expect(a1c.part).toEqual(
      expect.arrayContaining([
        { name: 'rule-version', valueInteger: 1 },
        { name: 'severity', valueCode: 'high' },
        { name: 'source', valueString: ADA_2 },
      ]),
    );
    const basis = a1c.part.find((x: Json) => x.name === 'basis');
    expect(basis.part).toEqual(
      expect.arrayContaining([
        { name: 'condition', valueString: 'HbA1c ≥ 6.5 %' },
        { name: 'answer', valueString: expect.stringContaining('53 mmol/mol') },
        { name: 'observation', valueReference: { reference: expect.stringMatching(/^urn:uuid:/) } },
      ]),
    );
  });

  it("follows GET /api/assessments/:id's visibility: the owner and administrators; another PCP gets 404", async () => {
    expect((await t.http().get(`/api/assessments/${assessment.id}/fhir`).set(admin.auth)).status).toBe(200);
    const res = await t.http().get(`/api/assessments/${assessment.id}/fhir`).set(otherPcp.auth);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect((await t.http().get(`/api/assessments/${assessment.id}`).set(otherPcp.auth)).status).toBe(404);
  });

  it('exports an assessment in progress with its pending question and an in-progress GuidanceResponse', async () => {
    const a = expectStatus(await t.http().post('/api/assessments').set(pcp.auth).send({}), 201, 'start').body;
    const res = expectStatus(await t.http().get(`/api/assessments/${a.id}/fhir`).set(pcp.auth), 200, 'bundle');
    expectValidFhir(res.body, emitted);
    const [qr] = entries(res.body, 'QuestionnaireResponse');
    expect(qr.status).toBe('in-progress');
    expect(qr.item).toEqual([{ linkId: a.current_question.parameter_id, text: a.current_question.text }]);
    expect(entries(res.body, 'GuidanceResponse')[0].status).toBe('in-progress');
  });
});

describe('GET /api/assessments/:id/fhir with two published rule sets', () => {
  let second: string;

  beforeAll(async () => {
    const { ruleSet } = await createPublishedRuleSet(
      t,
      admin,
      [{ name: 'Severe obesity', priority: 8, conditions: [cond(p.bmi, '>=', 40)], actions: [action('Discuss metabolic surgery')] }],
      { name: 'Obesity care', source: 'ADA Standards of Care in Diabetes—2026, Section 8' },
    );
    second = ruleSet.id;
  });

  afterAll(async () => {
    await t.http().patch(`/api/rule-sets/${second}/activation`).set(admin.auth).send({ is_active: false });
  });

  it('reports each version in its own GuidanceResponse, ranked across both, with one Questionnaire for the questions asked', async () => {
    const { assessment } = await clinicalRun(pcp, { [p.hba1c.id]: 7.4, [p.bmi.id]: 41, [p.smoker.id]: false });
    expect(assessment.rule_set_versions).toHaveLength(2);
    expect(assessment.findings.map((f: Json) => f.rule_name)).toEqual(['Diabetes by HbA1c', 'Severe obesity']);
    const bundle = expectStatus(await t.http().get(`/api/assessments/${assessment.id}/fhir`).set(pcp.auth), 200, 'bundle').body;
    expectValidFhir(bundle, emitted);
    const [q] = entries(bundle, 'Questionnaire');
    const [qr] = entries(bundle, 'QuestionnaireResponse');
    expect(qr.questionnaire).toBe(q.url);
    expect(bundle.entry.find((e: Json) => e.resource === q || e.resource.id === q.id).fullUrl).toBe(q.url);
    const grs = entries(bundle, 'GuidanceResponse');
    expect(grs.map((g) => g.moduleCanonical.split('/').at(-1)).sort()).toEqual([`${ruleSetId}|1`, `${second}|1`].sort());
    const ranks = entries(bundle, 'Parameters').flatMap((params) =>
      params.parameter
        .filter((x: Json) => x.name === 'finding')
        .map((f: Json) => [
          f.part.find((x: Json) => x.name === 'rank').valueInteger,
          f.part.find((x: Json) => x.name === 'rule').valueString,
        ]),
    );
    expect(ranks.sort()).toEqual([
      [1, 'Diabetes by HbA1c'],
      [2, 'Severe obesity'],
    ]);
  });
});

describe('GET /api/rule-sets/:id/versions/:number/fhir', () => {
  it('exports the version as a PlanDefinition with its source, actions and conditions, and the Library of conditions', async () => {
    const res = expectStatus(await t.http().get(`/api/rule-sets/${ruleSetId}/versions/1/fhir`).set(admin.auth), 200, 'plan');
    expectValidFhir(res.body, emitted);
    const [plan] = entries(res.body, 'PlanDefinition');
    const [library] = entries(res.body, 'Library');
    expect(plan).toMatchObject({ version: '1', title: 'ADA 2026 adult care', relatedArtifact: [{ type: 'citation', citation: ADA_2 }] });
    expect(plan.library).toEqual([`${library.url}|1`]);
    expect(plan.action.map((a: Json) => a.title)).toEqual([
      'Hypertensive crisis',
      'Diabetes by HbA1c',
      'Diabetes by fasting glucose',
      'Obese smoker',
    ]);
    const crisis = plan.action[0];
    expect(crisis).toMatchObject({ id: ruleIds['Hypertensive crisis'], priority: 'stat' });
    expect(crisis.condition[0].expression).toMatchObject({ language: 'text/fhirpath', description: 'Systolic Blood Pressure ≥ 180 mmHg' });
    expect(crisis.action).toEqual([expect.objectContaining({ title: 'Assess for target-organ damage today', priority: 'stat' })]);
    expect(plan.action[3].condition[0].expression.description).toBe('BMI ≥ 30 kg/m² AND Current smoker = true');
    const json = library.content.find((c: Json) => c.contentType === 'application/json');
    const conditions = JSON.parse(Buffer.from(json.data, 'base64').toString('utf8'));
    expect(conditions.map((c: Json) => c.rule_name)).toEqual(plan.action.map((a: Json) => a.title));
    expect(library.dataRequirement.map((d: Json) => d.codeFilter[0].code[0].code)).toEqual(
      expect.arrayContaining(['4548-4', '1558-6', '8480-6']),
    );
  });

  it("evaluates its conditions' FHIRPath over a QuestionnaireResponse three-valued, as the engine does", async () => {
    const res = expectStatus(await t.http().get(`/api/rule-sets/${ruleSetId}/versions/1/fhir`).set(admin.auth), 200, 'plan');
    const [plan] = entries(res.body, 'PlanDefinition');
    const a1cRule = plan.action.find((a: Json) => a.title === 'Diabetes by HbA1c').condition[0].expression.expression;
    const qr = (a1c: Json | null) => ({
      resourceType: 'QuestionnaireResponse',
      status: 'completed',
      item: a1c ? [{ linkId: p.hba1c.id, answer: [a1c] }] : [],
    });
    const run = (resource: Json) => {
      const typed = toTypedValue(resource);
      return evalFhirPathTyped(a1cRule, [typed], { '%resource': typed }).map((v) => v.value);
    };
    expect(run(qr({ valueQuantity: { value: 7.1, system: FHIR_SYSTEM.ucum, code: '%' } }))).toEqual([true]);
    expect(run(qr({ valueQuantity: { value: 6.4, system: FHIR_SYSTEM.ucum, code: '%' } }))).toEqual([false]);
    // Missing, or in another unit: empty (unknown), never false.
    expect(run(qr(null))).toEqual([]);
    expect(run(qr({ valueQuantity: { value: 53, system: FHIR_SYSTEM.ucum, code: 'mmol/mol' } }))).toEqual([]);
  });

  it('never contradicts the engine: over an exported QuestionnaireResponse each condition is true only for a fired rule, false only for one that did not fire', async () => {
    const plan = entries(
      expectStatus(await t.http().get(`/api/rule-sets/${ruleSetId}/versions/1/fhir`).set(admin.auth), 200, 'plan').body,
      'PlanDefinition',
    )[0];
    const answers: Record<string, Given>[] = [
      {
        [p.hba1c.id]: 7.2,
        [p.fasting_glucose.id]: { option: 'last' },
        [p.blood_pressure_systolic.id]: 186,
        [p.bmi.id]: 32.4,
        [p.smoker.id]: true,
      },
      {
        [p.hba1c.id]: { option: 'first' },
        [p.fasting_glucose.id]: 92,
        [p.blood_pressure_systolic.id]: 'unknown',
        [p.bmi.id]: 23,
        [p.smoker.id]: false,
      },
    ];
    let decided = 0;
    for (const given of answers) {
      const { assessment } = await clinicalRun(pcp, given);
      const bundle = expectStatus(await t.http().get(`/api/assessments/${assessment.id}/fhir`).set(pcp.auth), 200, 'bundle').body;
      const typed = toTypedValue(entries(bundle, 'QuestionnaireResponse')[0]);
      const fired = new Set(assessment.findings.map((f: Json) => f.rule_id));
      for (const action of plan.action) {
        const value = evalFhirPathTyped(action.condition[0].expression.expression, [typed], { '%resource': typed }).map((v) => v.value);
        if (value.length) decided += 1;
        if (value[0] === true) expect({ rule: action.title, fired: fired.has(action.id) }).toEqual({ rule: action.title, fired: true });
        if (value[0] === false) expect({ rule: action.title, fired: fired.has(action.id) }).toEqual({ rule: action.title, fired: false });
      }
    }
    // Typed values, bands and Yes/No all decide: 4 rules x 2 patients, less the one blood pressure not available.
    expect(decided).toBe(7);
  });

  it('is for administrators (like the version itself); an unknown version is 404', async () => {
    expect((await t.http().get(`/api/rule-sets/${ruleSetId}/versions/1/fhir`).set(pcp.auth)).status).toBe(403);
    const res = await t.http().get(`/api/rule-sets/${ruleSetId}/versions/9/fhir`).set(admin.auth);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

it('validated every resource type it produced with validateResource (runs last)', () => {
  expect([...emitted].sort()).toEqual(
    [
      'Bundle',
      'GuidanceResponse',
      'Library',
      'Observation',
      'Parameters',
      'PlanDefinition',
      'Questionnaire',
      'QuestionnaireResponse',
    ].sort(),
  );
});
