import { startTestApp, type TestApp } from '../support/app';
import { conformanceCases, type ConformanceCase } from '../support/conformance';
import { createCast } from '../support/factories';
import { expectValidFhir } from '../support/fhir-validation';

// Issue 21: the three CMS measures evaluated over records loaded through POST /api/fhir, checked
// against the official test decks through the HTTP API ($evaluate-measure).
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
const cases = conformanceCases();
const POPULATIONS = ['initial-population', 'denominator', 'denominator-exclusion', 'numerator'];
const MEASURE_ID: Record<string, string> = {
  CMS122: 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR',
  CMS951: 'KidneyHealthEvaluationFHIR',
  CMS165: 'ControllingHighBloodPressureFHIR',
};
const measureOf = (c: ConformanceCase) => MEASURE_ID[c.measure.split('-')[0]];
const patientOf = (c: ConformanceCase) => String(c.bundle.entry.find((e) => e.resource.resourceType === 'Patient')!.resource.id);

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  for (const c of cases) {
    const res = await t.http().post('/api/fhir').set(cast.admin.auth).send(c.bundle);
    if (res.status !== 200) throw new Error(`loading ${c.file}: ${res.status}`);
  }
});
afterAll(async () => {
  await t?.close();
});

type Report = {
  type: string;
  group: { population: { code: { coding: { code: string }[] }; count: number }[]; measureScore?: { value: number } }[];
} & Record<string, unknown>;
const countsOf = (report: Report) => Object.fromEntries(report.group[0].population.map((p) => [p.code.coding[0].code, p.count]));

const evaluate = (measure: string, query: Record<string, string>, as = cast.pcp) =>
  t.http().get(`/api/fhir/Measure/${measure}/$evaluate-measure`).query(query).set(as.auth);

describe('the installed measures', () => {
  it('GET /api/fhir/Measure lists CMS122, CMS951 and CMS165 as valid FHIR Measures', async () => {
    const res = await t.http().get('/api/fhir/Measure').set(cast.pcp.auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
    expect(res.body.entry.map((e: { resource: { id: string } }) => e.resource.id)).toEqual(Object.values(MEASURE_ID));
    expectValidFhir(res.body);
  });
});

describe('every official case agrees through $evaluate-measure', () => {
  it.each(cases.map((c) => [`${c.measure.split('-')[0]}: ${c.description}`, c] as const))('%s', async (_name, c) => {
    const res = await evaluate(measureOf(c), {
      periodStart: c.measurement_period.start,
      periodEnd: c.measurement_period.end,
      subject: `Patient/${patientOf(c)}`,
    });
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('individual');
    const got = countsOf(res.body);
    expect({ file: c.file, ...Object.fromEntries(POPULATIONS.map((p) => [p, got[p]])) }).toEqual({
      file: c.file,
      ...Object.fromEntries(POPULATIONS.map((p) => [p, c.expected[p]])),
    });
  });
});

describe('the panel', () => {
  it("a Group of one deck's patients: the summary counts are the deck's expected sums, with the score", async () => {
    const deck = cases.filter((c) => c.measure.startsWith('CMS951'));
    const group = {
      resourceType: 'Group',
      id: 'cms951-deck',
      type: 'person',
      actual: true,
      member: deck.map((c) => ({ entity: { reference: `Patient/${patientOf(c)}` } })),
    };
    expect(
      (
        await t
          .http()
          .post('/api/fhir')
          .set(cast.admin.auth)
          .send({
            resourceType: 'Bundle',
            type: 'batch',
            entry: [{ resource: group, request: { method: 'PUT', url: 'Group/cms951-deck' } }],
          })
      ).status,
    ).toBe(200);
    const { start, end } = deck[0].measurement_period;
    const res = await evaluate(MEASURE_ID.CMS951, {
      periodStart: start,
      periodEnd: end,
      subject: 'Group/cms951-deck',
      reportType: 'population',
    });
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('summary');
    const expected = Object.fromEntries(POPULATIONS.map((p) => [p, deck.reduce((n, c) => n + c.expected[p], 0)]));
    expect(countsOf(res.body)).toEqual(expected);
    const eligible = expected.denominator - expected['denominator-exclusion'];
    expect(res.body.group[0].measureScore.value).toBeCloseTo(expected.numerator / eligible, 5);
    expectValidFhir(res.body);
  });

  it('the whole panel: the summary is the sum of every patient evaluated alone, and the subject list names them', async () => {
    const { start, end } = cases[0].measurement_period;
    const ids = [...new Set(cases.map(patientOf))];
    const sums: Record<string, number> = Object.fromEntries(POPULATIONS.map((p) => [p, 0]));
    const numerator: string[] = [];
    for (const id of ids) {
      const one = countsOf((await evaluate(MEASURE_ID.CMS122, { periodStart: start, periodEnd: end, subject: `Patient/${id}` })).body);
      for (const p of POPULATIONS) sums[p] += one[p];
      if (one.numerator) numerator.push(`Patient/${id}`);
    }
    const summary = await evaluate(MEASURE_ID.CMS122, { periodStart: start, periodEnd: end });
    expect(countsOf(summary.body)).toEqual(sums);
    const list = await evaluate(MEASURE_ID.CMS122, { periodStart: start, periodEnd: end, reportType: 'subject-list' });
    expect(list.body.type).toBe('subject-list');
    const contained = (list.body.contained as { id: string; entry: { item: { reference: string } }[] }[]).find(
      (l) => l.id === 'numerator-subjects',
    )!;
    expect(contained.entry.map((e) => e.item.reference).sort()).toEqual(numerator.sort());
    expectValidFhir(list.body);
  });

  it('POST takes the parameters as a FHIR Parameters body', async () => {
    const c = cases.find((x) => x.measure.startsWith('CMS165'))!;
    const res = await t
      .http()
      .post(`/api/fhir/Measure/${MEASURE_ID.CMS165}/$evaluate-measure`)
      .set(cast.admin.auth)
      .send({
        resourceType: 'Parameters',
        parameter: [
          { name: 'periodStart', valueDate: c.measurement_period.start },
          { name: 'periodEnd', valueDate: c.measurement_period.end },
          { name: 'subject', valueString: `Patient/${patientOf(c)}` },
        ],
      });
    expect(res.status).toBe(200);
    expect(countsOf(res.body).numerator).toBe(c.expected.numerator);
  });
});

describe('bad requests', () => {
  const period = { periodStart: '2025-01-01', periodEnd: '2025-12-31' };
  it.each([
    ['no period', {}, 'periodStart'],
    ['a period that ends before it starts', { periodStart: '2025-12-31', periodEnd: '2025-01-01' }, 'periodEnd'],
    ['February 30th', { periodStart: '2025-02-30', periodEnd: '2025-12-31' }, 'periodStart'],
    ['an unknown report type', { ...period, reportType: 'everything' }, 'reportType'],
    ['a subject that is not a Patient or Group', { ...period, subject: 'Practitioner/1' }, 'subject'],
  ])('%s is 400 naming the field', async (_name, query, field) => {
    const res = await evaluate(MEASURE_ID.CMS122, query as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });

  it('an unknown measure or patient is 404', async () => {
    expect((await evaluate('CMS999', period)).status).toBe(404);
    expect((await evaluate(MEASURE_ID.CMS122, { ...period, subject: 'Patient/nobody' })).status).toBe(404);
  });

  it('a user without a clinical role is refused', async () => {
    expect((await evaluate(MEASURE_ID.CMS122, period, cast.none)).status).toBe(403);
  });
});
