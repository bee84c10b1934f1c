import { createHash, randomUUID } from 'node:crypto';
import type { AssessmentJson, CdsPrefillJson, ParameterJson } from '@cds/contracts';
import { startTestApp, type TestApp } from '../support/app';
import { action, cond, createFromTemplate, createPublishedRuleSet, expectStatus, seedTemplates } from '../support/clinical-factories';
import { callPatientView, expectCardsResponse, registerCdsClient, startCdsClient, type CdsClientKeys } from '../support/cds-hooks';
import { createCast, createUser, type TestUser } from '../support/factories';
import { panelPatientBundle } from '../support/panel-records';

/**
 * Issue 20: the case detail plots each parameter's history. An assessment started from the record (the
 * Panel's "Start assessment", or a CDS card) keeps whose values they were and each parameter's results as
 * they were read, through the prefill's record context, named once when it starts; one started without it
 * holds no patient. Nobody sees another clinician's case.
 */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let otherPcp: TestUser;
let ehr: CdsClientKeys;
let hba1c: ParameterJson;
let sbp: ParameterJson;

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

const redeem = async (ticket: string, as: TestUser) =>
  expectStatus(await t.http().post('/api/cds-prefill/redeem').set(as.auth).send({ ticket }), 200, 'redeem').body as CdsPrefillJson;
const start = (as: TestUser, body: Record<string, unknown> = {}) =>
  t
    .http()
    .post('/api/assessments')
    .set(as.auth)
    .send({ mode: 'clinical', ...body });
const caseDetail = async (id: string, as: TestUser = cast.pcp) =>
  expectStatus(await t.http().get(`/api/assessments/${id}`).set(as.auth), 200, 'case detail').body as AssessmentJson;

/** The Panel's "Start assessment" for a stored patient, redeemed by `as`: the prefill the form gets. */
async function panelPrefill(patientId: string, as: TestUser = cast.pcp): Promise<CdsPrefillJson> {
  const res = expectStatus(await t.http().post(`/api/panel/patients/${patientId}/assessment-prefill`).set(as.auth), 201, 'panel prefill');
  return redeem(String(res.body.url).split('=')[1], as);
}

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  otherPcp = await createUser(t, 'pcp');
  const templates = await seedTemplates(t, cast.admin);
  hba1c = await createFromTemplate(t, cast.admin, templates.hba1c, { name: 'hba1c_history' });
  sbp = await createFromTemplate(t, cast.admin, templates.blood_pressure_systolic, { name: 'sbp_history' });
  await createPublishedRuleSet(
    t,
    cast.admin,
    [
      { name: 'Diabetes range', priority: 10, conditions: [cond(hba1c, '>=', 6.5)], actions: [action('Confirm the diagnosis')] },
      {
        name: 'Prediabetes range',
        priority: 5,
        conditions: [cond(hba1c, '>=', 5.7), cond(hba1c, '<', 6.5)],
        actions: [action('Lifestyle')],
      },
      { name: 'Stage 2 hypertension', priority: 8, conditions: [cond(sbp, '>=', 140)], actions: [action('Treat')] },
    ],
    { name: 'Case history plots' },
  );
  const load = async (bundle: object) => expectStatus(await t.http().post('/api/fhir').set(cast.admin.auth).send(bundle), 200, 'load');
  // Three HbA1c results, one in IFCC units; no blood pressure.
  await load(
    panelPatientBundle({
      id: 'rising-a1c',
      given: 'Ada',
      family: 'Hightower',
      birthDate: '1960-04-02',
      hba1c: { value: 7.4, unit: '%' },
      earlierHba1c: [
        { value: 6.1, unit: '%', at: daysAgo(400) },
        { value: 58, unit: 'mmol/mol', at: daysAgo(200) },
      ],
    }),
  );
  await load(
    panelPatientBundle({ id: 'one-a1c', given: 'Omar', family: 'Single', birthDate: '1970-01-01', hba1c: { value: 6.8, unit: '%' } }),
  );
  ehr = await startCdsClient(`https://ehr-${randomUUID()}.example.org`);
  await registerCdsClient(t, cast.admin, ehr);
}, 120_000);

afterAll(async () => {
  await ehr?.close();
  await t?.close();
});

it('HbA1c rising over a year, one result in IFCC units: the case detail names the Panel patient and plots the three results as read', async () => {
  const prefill = await panelPrefill('rising-a1c');
  expect(prefill.origin).toBe('record');
  expect(prefill.patient).toEqual({ source: 'record', reference: 'Patient/rising-a1c', name: 'Ada Hightower' });
  expect(prefill.record_context).toMatch(/^[0-9a-f-]{36}$/);

  const started = expectStatus(await start(cast.pcp, { record_context: prefill.record_context }), 201, 'start').body as AssessmentJson;
  expect(started.patient).toEqual(prefill.patient);

  const detail = await caseDetail(started.id);
  expect(detail.patient).toEqual(prefill.patient);
  expect(detail.histories).toHaveLength(1);
  const [h] = detail.histories!;
  expect(h.title).toBe(hba1c.display_name);
  expect(h.unit).toBe('%');
  // Oldest first; the IFCC result plotted in % (through ADA's pairs, 53 / 64 mmol/mol = 7 / 8 %) and listed as the record gave it.
  expect(h.points.map((p) => [p.value, p.entered ?? null])).toEqual([
    [6.1, null],
    [7.45, '58 mmol/mol'],
    [7.4, null],
  ]);
  // The rules' cut-points around the results: 5.7 below them, 6.5 among them, nothing above.
  expect(h.thresholds.map((x) => x.value)).toEqual([5.7, 6.5]);
  expect(h.thresholds[1].label).toBe('Rule cut-point 6.5 %');
  expect(h.not_plotted).toBe(0);

  // The list reads the patient too; the history only on the case itself.
  const list = expectStatus(await t.http().get('/api/assessments').set(cast.pcp.auth), 200, 'list').body as AssessmentJson[];
  const row = list.find((a) => a.id === started.id)!;
  expect(row.patient).toEqual(prefill.patient);
  expect(row.histories).toBeUndefined();
});

it('a single HbA1c in the record: the history holds the one result, with nothing for the blood pressure it lacks', async () => {
  const prefill = await panelPrefill('one-a1c');
  const started = expectStatus(await start(cast.pcp, { record_context: prefill.record_context }), 201, 'start').body as AssessmentJson;
  const detail = await caseDetail(started.id);
  expect(detail.histories!.map((h) => [h.title, h.points.map((p) => p.value)])).toEqual([[hba1c.display_name, [6.8]]]);
});

describe('a value offered from the record and recorded unchanged', () => {
  const answer = (id: string, body: Record<string, unknown>) =>
    t.http().post(`/api/assessments/${id}/answers`).set(cast.pcp.auth).send(body);
  /** Answers Not available until the HbA1c is asked. */
  async function untilHba1c(a: AssessmentJson): Promise<AssessmentJson> {
    while (a.current_question && a.current_question.parameter_id !== hba1c.id)
      a = expectStatus(await answer(a.id, { parameter_id: a.current_question.parameter_id, value: 'unknown' }), 200, 'answer').body;
    expect(a.current_question?.parameter_id).toBe(hba1c.id);
    return a;
  }

  it('HbA1c 6.8 % from the Panel, confirmed: the case keeps it as confirmed from the record, with its date', async () => {
    const prefill = await panelPrefill('one-a1c');
    const offered = prefill.values.find((v) => v.parameter_id === hba1c.id)!;
    const started = expectStatus(await start(cast.pcp, { record_context: prefill.record_context }), 201, 'start').body as AssessmentJson;
    const a = await untilHba1c(started);
    const body = { parameter_id: hba1c.id, value: offered.value, observed_at: offered.observed_at!.slice(0, 10), confirmed_from: 'record' };
    const done = expectStatus(await answer(a.id, body), 200, 'confirm').body as AssessmentJson;
    expect(done.answer_details.find((d) => d.parameter_id === hba1c.id)).toMatchObject({ value: 6.8, confirmed_from: 'record' });
  });

  it('HbA1c from the Panel changed from 6.8 to 7.2 % cannot be sent as confirmed from the record: refused, nothing recorded; sent as typed it is kept as typed', async () => {
    const prefill = await panelPrefill('one-a1c');
    const a = await untilHba1c(
      expectStatus(await start(cast.pcp, { record_context: prefill.record_context }), 201, 'start').body as AssessmentJson,
    );
    const refused = await answer(a.id, { parameter_id: hba1c.id, value: 7.2, confirmed_from: 'record' });
    expectStatus(refused, 400, 'altered value called confirmed');
    expect(refused.body.details).toEqual([
      expect.objectContaining({ field: 'confirmed_from', message: expect.stringContaining('7.2 % is not a result the record gave') }),
    ]);
    expect((await caseDetail(a.id)).current_question?.parameter_id).toBe(hba1c.id);
    const typed = expectStatus(await answer(a.id, { parameter_id: hba1c.id, value: 7.2 }), 200, 'typed').body as AssessmentJson;
    const kept = typed.answer_details.find((d) => d.parameter_id === hba1c.id)!;
    expect(kept).toMatchObject({ value: 7.2, entered_as: 'typed' });
    expect(kept.confirmed_from).toBeUndefined();
  });

  it('an assessment started without values from the record, or from the stored record and not the EHR, cannot call a typed HbA1c confirmed', async () => {
    const plain = await untilHba1c(expectStatus(await start(cast.pcp), 201, 'start').body as AssessmentJson);
    const refused = await answer(plain.id, { parameter_id: hba1c.id, value: 6.8, confirmed_from: 'record' });
    expectStatus(refused, 400, 'no context');
    expect(refused.body.details).toEqual([expect.objectContaining({ field: 'confirmed_from' })]);

    const prefill = await panelPrefill('one-a1c');
    const fromRecord = await untilHba1c(
      expectStatus(await start(cast.pcp, { record_context: prefill.record_context }), 201, 'start').body as AssessmentJson,
    );
    expectStatus(await answer(fromRecord.id, { parameter_id: hba1c.id, value: 6.8, confirmed_from: 'ehr' }), 400, 'wrong origin');
    // Nothing was recorded by either refusal: the HbA1c is still the question.
    expect((await caseDetail(fromRecord.id)).current_question?.parameter_id).toBe(hba1c.id);
    expect((await caseDetail(plain.id)).answer_details.some((d) => d.parameter_id === hba1c.id)).toBe(false);
  });
});

it('values read from an EHR in a hook call: the case names the EHR patient and plots the results the EHR sent', async () => {
  const patientId = `ehr-${randomUUID().slice(0, 8)}`;
  const obs = (value: number, at: string) => ({
    resource: {
      resourceType: 'Observation',
      status: 'final',
      subject: { reference: `Patient/${patientId}` },
      code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
      effectiveDateTime: at,
      valueQuantity: { value, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
    },
  });
  const res = await callPatientView(t, ehr, patientId, {
    patient: { resourceType: 'Patient', id: patientId, name: [{ given: ['Grace'], family: 'Okafor' }], birthDate: '1955-03-03' },
    'obs-8480-6': {
      resourceType: 'Bundle',
      type: 'searchset',
      entry: [obs(152, daysAgo(2)), obs(138, daysAgo(90)), obs(161, daysAgo(180))],
    },
  });
  const cards = expectCardsResponse(expectStatus(res, 200, 'hook call').body);
  const ticket = new URL(cards[0].links![0].url).searchParams.get('prefill')!;
  const prefill = await redeem(ticket, cast.pcp);
  expect(prefill.origin).toBe('ehr');
  expect(prefill.patient).toEqual({ source: 'ehr', reference: `Patient/${patientId}`, name: 'Grace Okafor' });

  const started = expectStatus(await start(cast.pcp, { record_context: prefill.record_context }), 201, 'start').body as AssessmentJson;
  const detail = await caseDetail(started.id);
  const bp = detail.histories!.find((h) => h.title === sbp.display_name)!;
  expect(bp.unit).toBe('mmHg');
  expect(bp.points.map((p) => p.value)).toEqual([161, 138, 152]);
  expect(bp.thresholds.map((x) => x.value)).toEqual([140]);
});

it("a hook call with several cards keeps the EHR's record context once: each card's link still starts an assessment with it", async () => {
  const patientId = `ehr-${randomUUID().slice(0, 8)}`;
  const res = await callPatientView(t, ehr, patientId, {
    patient: { resourceType: 'Patient', id: patientId, name: [{ given: ['Lin'], family: 'Shared' }], birthDate: '1962-06-06' },
    'obs-8480-6': {
      resourceType: 'Bundle',
      type: 'searchset',
      entry: [
        {
          resource: {
            resourceType: 'Observation',
            status: 'final',
            subject: { reference: `Patient/${patientId}` },
            code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
            effectiveDateTime: daysAgo(3),
            valueQuantity: { value: 150, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
          },
        },
      ],
    },
  });
  const cards = expectCardsResponse(expectStatus(res, 200, 'hook call').body);
  // Stage 2 hypertension, and the HbA1c the EHR did not send.
  expect(cards.length).toBeGreaterThanOrEqual(2);
  const tickets = cards.map((c) => new URL(c.links![0].url).searchParams.get('prefill')!);
  const hashes = tickets.map((x) => createHash('sha256').update(x).digest('hex'));
  const [stored] = await t.db.query(
    `SELECT count(*)::int AS tickets, count(DISTINCT t.context_id)::int AS contexts, count(c.id)::int AS named
       FROM cds_prefill_tickets t LEFT JOIN cds_record_contexts c ON c.id = t.context_id WHERE t.token_hash = ANY($1::text[])`,
    [hashes],
  );
  expect(stored).toEqual({ tickets: cards.length, contexts: 1, named: cards.length });
  for (const ticket of tickets.slice(0, 2)) {
    const prefill = await redeem(ticket, cast.pcp);
    const started = expectStatus(await start(cast.pcp, { record_context: prefill.record_context }), 201, 'start').body as AssessmentJson;
    const detail = await caseDetail(started.id);
    expect(detail.patient?.name).toBe('Lin Shared');
    expect(detail.histories!.find((h) => h.title === sbp.display_name)!.points.map((p) => p.value)).toEqual([150]);
  }
});

describe('the record context is kept once, by the clinician who loaded the values, for a while', () => {
  it('another clinician cannot name it, and cannot read the case it went to', async () => {
    const prefill = await panelPrefill('rising-a1c');
    const refused = await start(otherPcp, { record_context: prefill.record_context });
    expect(refused.status).toBe(410);
    expect(refused.body).toMatchObject({ statusCode: 410, code: 'record_context_unavailable' });
    // Still the loading clinician's to use.
    const started = expectStatus(await start(cast.pcp, { record_context: prefill.record_context }), 201, 'start').body as AssessmentJson;
    expect((await t.http().get(`/api/assessments/${started.id}`).set(otherPcp.auth)).status).toBe(404);
    // An administrator reviews any case, with its patient.
    expect((await caseDetail(started.id, cast.admin)).patient?.name).toBe('Ada Hightower');
  });

  it('a second assessment cannot take a context already taken', async () => {
    const prefill = await panelPrefill('one-a1c');
    expectStatus(await start(cast.pcp, { record_context: prefill.record_context }), 201, 'first start');
    const again = await start(cast.pcp, { record_context: prefill.record_context });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 410, code: 'record_context_unavailable' });
  });

  it('two starts at once naming one context: one assessment has it, the other is refused', async () => {
    const prefill = await panelPrefill('one-a1c');
    const [a, b] = await Promise.all([
      start(cast.pcp, { record_context: prefill.record_context }),
      start(cast.pcp, { record_context: prefill.record_context }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 410]);
  });

  it('loaded more than 60 minutes ago: refused, and no assessment is written', async () => {
    const prefill = await panelPrefill('one-a1c');
    await t.db.query(`UPDATE cds_prefill_tickets SET redeemed_at = now() - interval '61 minutes' WHERE id = $1`, [prefill.record_context]);
    const before = Number((await t.db.query(`SELECT count(*)::int AS n FROM assessments`))[0].n);
    expect((await start(cast.pcp, { record_context: prefill.record_context })).status).toBe(410);
    expect(Number((await t.db.query(`SELECT count(*)::int AS n FROM assessments`))[0].n)).toBe(before);
  });

  it('an unknown context is refused like any other, a malformed one is a validation error', async () => {
    expect((await start(cast.pcp, { record_context: randomUUID() })).body).toMatchObject({ code: 'record_context_unavailable' });
    expect((await start(cast.pcp, { record_context: 'Patient/rising-a1c' })).body).toMatchObject({
      statusCode: 400,
      code: 'validation_failed',
    });
  });

  it('an assessment started without one is as before: no patient, no history', async () => {
    const started = expectStatus(await start(cast.pcp), 201, 'start').body as AssessmentJson;
    expect(started.patient).toBeNull();
    const detail = await caseDetail(started.id);
    expect(detail.patient).toBeNull();
    expect(detail.histories).toBeUndefined();
  });
});
