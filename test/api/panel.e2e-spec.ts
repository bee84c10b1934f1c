import type { PanelGapJson, PanelJson, PanelPatientJson } from '@cds/contracts';
import { startTestApp, type TestApp } from '../support/app';
import { createFromTemplate, createPublishedRuleSet, cond, action, expectStatus, seedTemplates } from '../support/clinical-factories';
import { conformanceCases, type ConformanceCase } from '../support/conformance';
import { createCast } from '../support/factories';
import { panelPatientBundle, thisYear } from '../support/panel-records';

// Issue 21, the PCP's Panel: each measure's counts and score over the stored records, the gap list
// (with CMS122 an inverse measure), undetermined patients listed and never counted, each patient's
// evidence, and a prefill ticket from the stored record for the clinical form.
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
const cases = conformanceCases();
const DECK_PERIOD = { periodStart: '2025-01-01', periodEnd: '2025-12-31' };
const MEASURE_ID: Record<string, string> = {
  CMS122: 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR',
  CMS951: 'KidneyHealthEvaluationFHIR',
  CMS165: 'ControllingHighBloodPressureFHIR',
};
const identifierOf = (c: ConformanceCase) => c.measure.split('-')[0];
const patientOf = (c: ConformanceCase) => String(c.bundle.entry.find((e) => e.resource.resourceType === 'Patient')!.resource.id);

const panel = (query: Record<string, string> = {}, as = cast.pcp) => t.http().get('/api/panel').query(query).set(as.auth);
const evidence = (id: string, query: Record<string, string> = {}) =>
  t
    .http()
    .get(`/api/panel/patients/${encodeURIComponent(id)}`)
    .query(query)
    .set(cast.pcp.auth);
const load = async (bundle: object) =>
  expectStatus(await t.http().post('/api/fhir').set(cast.admin.auth).send(bundle), 200, 'POST /api/fhir');

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
});
afterAll(async () => {
  await t?.close();
});

it('with no records loaded the panel says so: no patients, every measure at zero and without a score', async () => {
  const res = await panel();
  expect(res.status).toBe(200);
  const body = res.body as PanelJson;
  expect(body.patients).toBe(0);
  expect(body.gaps).toEqual([]);
  expect(body.measures.map((m) => [m.identifier, m.counts.initial_population, m.score])).toEqual([
    ['CMS122', 0, null],
    ['CMS951', 0, null],
    ['CMS165', 0, null],
  ]);
  // The default period is the current calendar year.
  expect(body.period).toEqual({ start: `${thisYear()}-01-01`, end: `${thisYear()}-12-31` });
});

describe('with the official decks and hand-built records loaded', () => {
  beforeAll(async () => {
    for (const c of cases) await load(c.bundle);
    await load(
      panelPatientBundle({
        id: 'panel-high-a1c',
        given: 'Ada',
        family: 'Hightower',
        birthDate: '1960-04-02',
        hba1c: { value: 10.2, unit: '%' },
      }),
    );
    // "kg" is no unit an HbA1c can be read in: the result is set aside, and the numerator left open.
    await load(
      panelPatientBundle({
        id: 'panel-unreadable-a1c',
        given: 'Una',
        family: 'Reed',
        birthDate: '1958-09-30',
        hba1c: { value: 8, unit: 'kg' },
      }),
    );
  }, 120_000);

  const deckPanel = async () => {
    const res = await panel(DECK_PERIOD);
    expect(res.status).toBe(200);
    return res.body as PanelJson;
  };
  const rowOf = (body: PanelJson, identifier: string, patient: string): PanelGapJson | undefined =>
    body.gaps.find((g) => g.identifier === identifier && g.patient_id === patient);

  it("each measure's counts are the $evaluate-measure summary's over the whole store", async () => {
    const body = await deckPanel();
    for (const m of body.measures) {
      const report = await t.http().get(`/api/fhir/Measure/${m.id}/$evaluate-measure`).query(DECK_PERIOD).set(cast.pcp.auth);
      const counts = Object.fromEntries(
        (report.body.group[0].population as { code: { coding: { code: string }[] }; count: number }[]).map((p) => [
          p.code.coding[0].code,
          p.count,
        ]),
      );
      expect({ measure: m.identifier, ...m.counts, undetermined: undefined }).toEqual({
        measure: m.identifier,
        initial_population: counts['initial-population'],
        denominator: counts.denominator,
        denominator_exclusion: counts['denominator-exclusion'],
        numerator: counts.numerator,
        undetermined: undefined,
      });
      expect(m.eligible).toBe(m.counts.denominator - m.counts.denominator_exclusion - m.counts.undetermined);
      expect(m.score).toBeCloseTo(m.counts.numerator / m.eligible, 5);
    }
  });

  it('CMS122 is inverse: a deck patient in its numerator (HbA1c above 9 %, no result, or none) is a gap; controlled or excluded is not', async () => {
    const body = await deckPanel();
    const deck = cases.filter((c) => identifierOf(c) === 'CMS122' && c.expected.denominator === 1);
    expect(deck.some((c) => c.expected.numerator === 1)).toBe(true);
    for (const c of deck) {
      const row = rowOf(body, 'CMS122', patientOf(c));
      const gap = c.expected['denominator-exclusion'] === 0 && c.expected.numerator === 1;
      expect({ file: c.file, status: row?.status ?? 'not listed' }).toEqual({ file: c.file, status: gap ? 'gap' : 'not listed' });
    }
  });

  it.each(['CMS951', 'CMS165'])(
    '%s is a proportion measure: a deck patient in the denominator, not excluded and not in the numerator is a gap',
    async (identifier) => {
      const body = await deckPanel();
      const deck = cases.filter((c) => identifierOf(c) === identifier && c.expected.denominator === 1);
      for (const c of deck) {
        const row = rowOf(body, identifier, patientOf(c));
        const gap = c.expected['denominator-exclusion'] === 0 && c.expected.numerator === 0;
        expect({ file: c.file, status: row?.status ?? 'not listed' }).toEqual({ file: c.file, status: gap ? 'gap' : 'not listed' });
      }
      expect(body.measures.find((m) => m.identifier === identifier)!.gaps).toBe(
        body.gaps.filter((g) => g.identifier === identifier && g.status === 'gap').length,
      );
    },
  );

  it('a gap row names the patient, their age at the end of the period and why, in words', async () => {
    const res = await panel();
    const row = rowOf(res.body as PanelJson, 'CMS122', 'panel-high-a1c');
    expect(row).toEqual({
      measure_id: MEASURE_ID.CMS122,
      identifier: 'CMS122',
      patient_id: 'panel-high-a1c',
      name: 'Ada Hightower',
      birth_date: '1960-04-02',
      age: thisYear() - 1960,
      status: 'gap',
      reason: 'Most recent HbA1c or GMI 10.2 % (above 9 %)',
    });
    expect(rowOf(res.body as PanelJson, 'CMS951', 'panel-high-a1c')?.reason).toBe(
      'No eGFR and no urine albumin-creatinine ratio with a result in the period',
    );
  });

  it('an HbA1c in a unit that cannot be read leaves CMS122 undetermined: listed as such, in no numerator, not scored', async () => {
    const body = (await panel()).body as PanelJson;
    const row = rowOf(body, 'CMS122', 'panel-unreadable-a1c')!;
    expect(row.status).toBe('undetermined');
    expect(row.reason).toMatch(/^Not determined from the record: .*HbA1c or GMI.* could not be read$/);
    const cms122 = body.measures.find((m) => m.identifier === 'CMS122')!;
    expect(cms122.counts.undetermined).toBeGreaterThanOrEqual(1);
    expect(cms122.eligible).toBe(cms122.counts.denominator - cms122.counts.denominator_exclusion - cms122.counts.undetermined);
    // Its own report: in the denominator, in no numerator, the numerator reported undetermined.
    const report = await t
      .http()
      .get(`/api/fhir/Measure/${MEASURE_ID.CMS122}/$evaluate-measure`)
      .query({ periodStart: body.period.start, periodEnd: body.period.end, subject: 'Patient/panel-unreadable-a1c' })
      .set(cast.pcp.auth);
    const numerator = (
      report.body.group[0].population as { code: { coding: { code: string }[] }; count: number; extension?: unknown[] }[]
    ).find((p) => p.code.coding[0].code === 'numerator')!;
    expect(numerator.count).toBe(0);
    expect(numerator.extension).toEqual([expect.objectContaining({ valueInteger: 1 })]);
  });

  it('hypertension without a blood pressure reading in the period is a CMS165 gap, not undetermined', async () => {
    const body = await deckPanel();
    const c = cases.find((x) => identifierOf(x) === 'CMS165' && x.file.startsWith('annual-wellness-during-mp'))!;
    expect(c.expected).toMatchObject({ denominator: 1, 'denominator-exclusion': 0, numerator: 0 });
    expect(rowOf(body, 'CMS165', patientOf(c))).toMatchObject({ status: 'gap', reason: 'No blood pressure reading in the period' });
  });

  it('a patient\'s HbA1c over time is plotted in %, an IFCC result converted through ADA\'s pairs; a "< 15" eGFR is counted, not plotted', async () => {
    const year = thisYear();
    const obs = (id: string, code: string, value: number, unit: string, when: string, extra: Record<string, unknown> = {}) => ({
      resource: {
        resourceType: 'Observation',
        id,
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code }] },
        subject: { reference: 'Patient/panel-history' },
        effectiveDateTime: when,
        valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit, ...extra },
      },
      request: { method: 'PUT', url: `Observation/${id}` },
    });
    await load({
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        {
          resource: {
            resourceType: 'Patient',
            id: 'panel-history',
            name: [{ family: 'Historia', given: ['Helen'] }],
            birthDate: '1958-02-01',
            gender: 'female',
          },
          request: { method: 'PUT', url: 'Patient/panel-history' },
        },
        obs('panel-history-a1c-1', '4548-4', 8.1, '%', `${year - 1}-10-01T09:00:00Z`),
        obs('panel-history-a1c-2', '59261-8', 75, 'mmol/mol', `${year}-01-15T09:00:00Z`),
        obs('panel-history-egfr', '98979-8', 15, 'mL/min/{1.73_m2}', `${year}-01-15T09:00:00Z`, { comparator: '<' }),
      ],
    });
    const res = await evidence('panel-history');
    expect(res.status).toBe(200);
    const { histories } = res.body as PanelPatientJson;
    const a1c = histories.find((h) => h.title === 'HbA1c')!;
    expect(a1c).toMatchObject({ unit: '%', not_plotted: 0 });
    expect(a1c.points.map((p) => [p.at.slice(0, 10), p.value])).toEqual([
      [`${year - 1}-10-01`, 8.1],
      [`${year}-01-15`, 9],
    ]);
    expect(a1c.thresholds.map((t) => t.value)).toEqual([6.5, 9]);
    // The IFCC result is listed as the record gave it; the plotted % is the conversion.
    expect(a1c.points.map((p) => p.entered)).toEqual([undefined, '75 mmol/mol']);
    expect(histories.find((h) => h.title === 'eGFR')).toMatchObject({ points: [], not_plotted: 1 });
    expect(histories.find((h) => h.title === 'Systolic blood pressure')).toBeUndefined();
  });

  it("a patient's evidence names the resources that made each population true, with dates, values and words", async () => {
    const res = await evidence('panel-high-a1c');
    expect(res.status).toBe(200);
    const body = res.body as PanelPatientJson;
    expect(body.patient).toMatchObject({ id: 'panel-high-a1c', name: 'Ada Hightower', birth_date: '1960-04-02', gender: 'female' });
    const cms122 = body.measures.find((m) => m.identifier === 'CMS122')!;
    expect(cms122).toMatchObject({ status: 'gap', reason: 'Most recent HbA1c or GMI 10.2 % (above 9 %)' });
    const numerator = cms122.populations.find((p) => p.code === 'numerator')!;
    expect(numerator.state).toBe(true);
    expect(numerator.rules).toEqual(['Most recent HbA1c or GMI > 9 %']);
    const lowest = numerator.inputs.find((i) => i.parameter_id === 'glycemic_status_lowest')!;
    expect(lowest.answer).toBe('10.2 %');
    expect(lowest.evidence).toEqual([
      {
        resource_type: 'Observation',
        id: 'panel-high-a1c-hba1c',
        at: expect.stringMatching(new RegExp(`^${thisYear()}-`)),
        what: 'Hemoglobin A1c/Hemoglobin.total in Blood',
        value: '10.2 %',
      },
    ]);
    const ip = cms122.populations.find((p) => p.code === 'initial-population')!;
    expect(ip.state).toBe(true);
    const diabetes = ip.inputs.find((i) => i.parameter_id === 'diabetes')!;
    expect(diabetes.evidence.map((e) => [e.resource_type, e.id, e.what])).toEqual([
      ['Condition', 'panel-high-a1c-diabetes', 'Sensory neuropathy due to type 1 diabetes mellitus (disorder)'],
    ]);
    expect(ip.inputs.find((i) => i.parameter_id === 'age_at_period_end')!.answer).toBe(`${thisYear() - 1960} years`);
    // Not hypertensive: outside CMS165.
    expect(body.measures.find((m) => m.identifier === 'CMS165')!.status).toBeNull();
  });

  it('blood pressures in the evidence read "mmHg", never the UCUM code', async () => {
    const c = cases.find((x) => identifierOf(x) === 'CMS165' && x.expected.numerator === 1)!;
    const body = (await evidence(patientOf(c), DECK_PERIOD)).body as PanelPatientJson;
    const numerator = body.measures.find((m) => m.identifier === 'CMS165')!.populations.find((p) => p.code === 'numerator')!;
    const values = numerator.inputs
      .filter((i) => i.parameter_id.endsWith('_lowest'))
      .flatMap((i) => [i.answer, ...i.evidence.map((e) => e.value)]);
    expect(values.length).toBeGreaterThanOrEqual(4);
    for (const v of values) expect(v).toMatch(/^\d+(\.\d)? mmHg$/);
  });

  it("Start assessment: a one-time ticket with the stored record's latest HbA1c, redeemed once by the form", async () => {
    const templates = await seedTemplates(t, cast.admin);
    const a1c = await createFromTemplate(t, cast.admin, templates.hba1c, { name: 'hba1c_panel' });
    await createPublishedRuleSet(
      t,
      cast.admin,
      [{ name: 'HbA1c above target', priority: 10, conditions: [cond(a1c, '>=', 9)], actions: [action('Intensify therapy')] }],
      { name: 'Panel prefill' },
    );
    const res = await t.http().post('/api/panel/patients/panel-high-a1c/assessment-prefill').set(cast.pcp.auth);
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/^\/clinical-form\?prefill=[A-Za-z0-9_-]{16,100}$/);
    expect(res.body.values).toBe(1);
    const ticket = String(res.body.url).split('=')[1];
    const redeemed = await t.http().post('/api/cds-prefill/redeem').set(cast.pcp.auth).send({ ticket });
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.values).toEqual([
      expect.objectContaining({ parameter_id: a1c.id, value: 10.2, unit: '%', source: 'observation', observed_at: expect.any(String) }),
    ]);
    expect((await t.http().post('/api/cds-prefill/redeem').set(cast.pcp.auth).send({ ticket })).status).toBe(410);
  });

  it('an unknown patient is 404, for the evidence and the prefill', async () => {
    expect((await evidence('nobody-here')).status).toBe(404);
    expect((await t.http().post('/api/panel/patients/nobody-here/assessment-prefill').set(cast.pcp.auth)).status).toBe(404);
  });
});

describe('bad requests and access', () => {
  it.each([
    ['February 30th', { periodStart: '2025-02-30', periodEnd: '2025-12-31' }, 'periodStart'],
    ['a start without an end', { periodStart: '2025-01-01' }, 'periodEnd'],
    ['an end before the start', { periodStart: '2025-12-31', periodEnd: '2025-01-01' }, 'periodEnd'],
    ['a date-time instead of a date', { periodStart: '2025-01-01T00:00:00Z', periodEnd: '2025-12-31' }, 'periodStart'],
    ['a year no visit falls in', { periodStart: '0001-01-01', periodEnd: '2025-12-31' }, 'periodStart'],
    ['a parameter the panel does not take', { year: '2025' }, 'year'],
  ])('%s is 400 naming the field', async (_name, query, field) => {
    for (const res of [await panel(query as Record<string, string>), await evidence('panel-high-a1c', query as Record<string, string>)]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'validation_failed' });
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
  });

  it('a patient id that is not a FHIR id is 400', async () => {
    const res = await evidence('a b');
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([expect.objectContaining({ field: 'patientId' })]);
  });

  it('signed out is 401; a user without a clinical role is 403; PCPs and admins are served', async () => {
    expect((await t.http().get('/api/panel')).status).toBe(401);
    expect((await t.http().get('/api/panel/patients/x')).status).toBe(401);
    expect((await t.http().post('/api/panel/patients/x/assessment-prefill')).status).toBe(401);
    expect((await panel({}, cast.none)).status).toBe(403);
    expect((await t.http().post('/api/panel/patients/x/assessment-prefill').set(cast.none.auth)).status).toBe(403);
    expect((await panel({}, cast.admin)).status).toBe(200);
  });
});
