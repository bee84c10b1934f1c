import type { ConformanceJson, FhirResourceJson, MeasureRunJson, PanelJson, PanelTrendJson } from '@cds/contracts';
import { expectStatus } from '../support/clinical-factories';
import { conformanceCases } from '../support/conformance';
import { createCast } from '../support/factories';
import { MeasureRunsRunner } from '../../backend/src/modules/measures';
import { startPolishApp, type PolishSetup } from '../support/polish-setup';
import { waitFor } from '../support/polling';

// Issue 21, population runs: the measures over the whole panel as a background job in chunks with progress,
// each result stored per patient, measure version and period; a rerun evaluates only the patients whose record
// changed, and a new measure version (a new value-set expansion) makes every stored result stale.
let setup: PolishSetup;
let cast: Awaited<ReturnType<typeof createCast>>;
const PERIOD = { period_start: '2025-01-01', period_end: '2025-12-31' };
const QUERY = { periodStart: '2025-01-01', periodEnd: '2025-12-31' };
const CMS951 = 'KidneyHealthEvaluationFHIR';
const cases = conformanceCases();
const patientOf = (c: (typeof cases)[number]) => String(c.bundle.entry.find((e) => e.resource.resourceType === 'Patient')!.resource.id);
const patients = [...new Set(cases.map(patientOf))];

beforeAll(async () => {
  // Seven patients a chunk: every run here commits many chunks. A panel over 10 patients is "large" for the trend.
  setup = await startPolishApp({ MEASURE_RUN_CHUNK_PATIENTS: '7', PANEL_TREND_MAX_PATIENTS: '10' });
  cast = await createCast(setup.t);
  // Every case's resources in one collection Bundle (ids are unique across the decks).
  const all = { resourceType: 'Bundle', type: 'collection', entry: cases.flatMap((c) => c.bundle.entry) };
  expectStatus(await t().http().post('/api/fhir').set(cast.admin.auth).send(all), 200, 'POST /api/fhir');
}, 300_000);
afterAll(async () => {
  await setup?.close();
});

const t = () => setup.t;
const start = (body: unknown = PERIOD, as = cast.admin) =>
  t()
    .http()
    .post('/api/measure-runs')
    .set(as.auth)
    .send(body as object);
const run = async (id: string) => (await t().http().get(`/api/measure-runs/${id}`).set(cast.admin.auth)).body as MeasureRunJson;
async function finished(body: unknown = PERIOD): Promise<MeasureRunJson> {
  const res = await start(body);
  expect(res.status).toBe(202);
  expect(res.headers['content-location']).toBe(`/api/measure-runs/${res.body.id}`);
  let last: MeasureRunJson | undefined;
  await waitFor(
    async () => {
      last = await run(res.body.id);
      return last.status === 'completed' || last.status === 'failed';
    },
    { timeoutMs: 120_000, intervalMs: 100, what: `measure run ${res.body.id} to finish` },
  );
  return last!;
}
const summary = async (id: string) =>
  (
    await t()
      .http()
      .get(`/api/fhir/Measure/${id}/$evaluate-measure`)
      .query({ ...QUERY, reportType: 'population' })
      .set(cast.pcp.auth)
  ).body as FhirResourceJson;
const countOf = (report: FhirResourceJson, code: string) =>
  (report.group as { population: { code: { coding: { code: string }[] }; count: number }[] }[])[0].population.find(
    (p) => p.code.coding[0].code === code,
  )!.count;
const storedRows = async () =>
  Number((await t().db.query(`SELECT count(*)::int AS n FROM measure_results WHERE period_start = '2025-01-01'`))[0].n);

describe('starting a run', () => {
  it.each([
    ['an unknown field', { ...PERIOD, everyone: true }, 'everyone'],
    ['a start without an end', { period_start: '2025-01-01' }, 'period_end'],
    ['a date that is not a day', { period_start: '2025-02-30', period_end: '2025-12-31' }, 'period_start'],
    ['an end before the start', { period_start: '2025-12-31', period_end: '2025-01-01' }, 'period_end'],
    ['a measure the product does not ship', { ...PERIOD, measure_ids: ['CMS999'] }, 'measure_ids'],
    ['an empty measure list', { ...PERIOD, measure_ids: [] }, 'measure_ids'],
    ['a body that is a list', [PERIOD], 'body'],
  ])('%s is refused with 400 naming the field', async (_what, body, field) => {
    const res = await start(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'validation_failed' });
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('an unknown run is 404, and so is an id that cannot name one', async () => {
    expect((await t().http().get('/api/measure-runs/00000000-0000-4000-8000-000000000000').set(cast.admin.auth)).status).toBe(404);
    expect((await t().http().get('/api/measure-runs/nope').set(cast.admin.auth)).status).toBe(404);
  });

  it('a PCP cannot start one', async () => {
    expect((await start(PERIOD, cast.pcp)).status).toBe(403);
  });
});

describe("a population run over the official decks' patients", () => {
  let first: MeasureRunJson;
  beforeAll(async () => {
    first = await finished();
  }, 180_000);

  it('goes through every patient in chunks, evaluates each once and stores a result per patient and measure', async () => {
    expect(first).toMatchObject({
      kind: 'measure-run',
      status: 'completed',
      period: { start: '2025-01-01', end: '2025-12-31' },
      progress: { done: patients.length, total: patients.length },
      evaluated: patients.length,
      failure: null,
      requested_by: cast.admin.id,
    });
    expect(first.measure_ids).toHaveLength(3);
    expect(await storedRows()).toBe(patients.length * 3);
    const list = await t().http().get('/api/measure-runs').set(cast.admin.auth);
    expect(list.status).toBe(200);
    expect(list.headers['content-range']).toMatch(/^measure-runs 0-\d+\/\d+$/);
    expect(list.body.map((r: MeasureRunJson) => r.id)).toContain(first.id);
  });

  it('a summary report agrees with the decks after the run, read from the stored results', async () => {
    const expected = cases.filter((c) => c.measure.startsWith('CMS951')).filter((c) => c.expected.numerator === 1).length;
    expect(countOf(await summary(CMS951), 'numerator')).toBe(expected);
    // A stored result that says otherwise is what the report counts: the report reads the store, it does not recompute.
    const outside = cases.find((c) => c.measure.startsWith('CMS951') && c.expected.denominator === 1 && c.expected.numerator === 0)!;
    await t().db.query(
      `UPDATE measure_results SET populations = populations || '{"numerator": true}' WHERE measure_id = $1 AND patient_id = $2 AND period_start = '2025-01-01'`,
      [CMS951, patientOf(outside)],
    );
    expect(countOf(await summary(CMS951), 'numerator')).toBe(expected + 1);
    // Any write to that patient's record makes their stored result stale: the next report evaluates them again.
    const patient = outside.bundle.entry.find((e) => e.resource.resourceType === 'Patient')!.resource;
    expectStatus(
      await t()
        .http()
        .post('/api/fhir')
        .set(cast.admin.auth)
        .send({
          resourceType: 'Bundle',
          type: 'batch',
          entry: [{ resource: patient, request: { method: 'PUT', url: `Patient/${patientOf(outside)}` } }],
        }),
      200,
      'POST /api/fhir',
    );
    expect(countOf(await summary(CMS951), 'numerator')).toBe(expected);
  });

  it('the Panel from stored results is the Panel computed on request', async () => {
    const read = async () => {
      const res = await t().http().get('/api/panel').query(QUERY).set(cast.pcp.auth);
      expect(res.status).toBe(200);
      return res.body as PanelJson;
    };
    const stored = await read();
    expect(stored.patients).toBe(patients.length);
    expect(stored.measures.every((m) => m.counts.denominator > 0)).toBe(true);
    await t().db.query(`DELETE FROM measure_results`);
    const computed = await read();
    expect(stored).toEqual(computed);
    // The Panel stored what it computed: the next run finds every result current.
    expect(await storedRows()).toBe(patients.length * 3);
  });

  it('a rerun with nothing changed evaluates no patient', async () => {
    const again = await finished();
    expect(again).toMatchObject({ status: 'completed', progress: { done: patients.length, total: patients.length }, evaluated: 0 });
  });

  it('a rerun after an import evaluates only the patients the import changed', async () => {
    const changed = [patientOf(cases[0]), patientOf(cases[cases.length - 1])];
    const lines = changed.map((p) =>
      JSON.stringify({
        resourceType: 'Observation',
        id: `${p.slice(0, 20)}-new-a1c`,
        status: 'final',
        category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
        code: { coding: [{ system: 'http://loinc.org', code: '4548-4' }] },
        subject: { reference: `Patient/${p}` },
        effectiveDateTime: '2025-06-01',
        valueQuantity: { value: 7.1, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
      }),
    );
    const imp = await t()
      .http()
      .post('/api/fhir/$import')
      .set(cast.admin.auth)
      .set('Content-Type', 'application/fhir+ndjson')
      .send(lines.join('\n'));
    expect(imp.status).toBe(202);
    await waitFor(async () => (await t().http().get(`/api/jobs/${imp.body.id}`).set(cast.admin.auth)).body.status === 'completed', {
      timeoutMs: 60_000,
      intervalMs: 100,
      what: 'the import to complete',
    });
    const rerun = await finished();
    expect(rerun).toMatchObject({ status: 'completed', progress: { done: patients.length, total: patients.length }, evaluated: 2 });
  });

  it('a run cut short by a restart resumes after its last committed chunk: no patient counted twice', async () => {
    // As a worker killed mid-run leaves it: running, its cursor at the 49th patient, their results stored.
    const ids = [...patients].sort();
    await t().db.query(`DELETE FROM measure_results WHERE patient_id > $1`, [ids[48]]);
    const [{ id }] = await t().db.query(
      `INSERT INTO measure_runs (status, measure_ids, period_start, period_end, total, done, evaluated, cursor, started_at)
       VALUES ('running', $1::text[], '2025-01-01', '2025-12-31', $2, 49, 49, $3, now()) RETURNING id`,
      [first.measure_ids, ids.length, ids[48]],
    );
    expect(await t().runtime.app.get(MeasureRunsRunner).resume('test')).toBeGreaterThanOrEqual(1);
    let resumed: MeasureRunJson | undefined;
    await waitFor(
      async () => {
        resumed = await run(id);
        return resumed.status === 'completed' || resumed.status === 'failed';
      },
      { timeoutMs: 120_000, intervalMs: 100, what: 'the resumed run to finish' },
    );
    expect(resumed).toMatchObject({ status: 'completed', progress: { done: ids.length, total: ids.length }, evaluated: ids.length });
    expect(await storedRows()).toBe(patients.length * 3);
  });

  it("a new expansion of a measure's value set is a new measure version: every stored result is stale, and the old ones are dropped", async () => {
    // CMS122's HbA1c value set.
    const url = 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.198.12.1013';
    const vs = (
      await t().db.query(`SELECT resource FROM fhir_resources WHERE resource_type = 'ValueSet' AND resource->>'url' = $1 LIMIT 1`, [url])
    )[0]?.resource as Record<string, unknown> | undefined;
    expect(vs).toBeDefined();
    const newer = {
      ...vs,
      id: `${String(vs!.id)}-newer`,
      expansion: {
        ...(vs!.expansion as object),
        contains: [
          ...((vs!.expansion as { contains: object[] }).contains ?? []),
          { system: 'http://loinc.org', code: '99999-9', display: 'A code added by the publisher' },
        ],
      },
    };
    const stored = await t()
      .http()
      .post('/api/fhir')
      .set(cast.admin.auth)
      .send({
        resourceType: 'Bundle',
        type: 'batch',
        entry: [{ resource: newer, request: { method: 'PUT', url: `ValueSet/${newer.id}` } }],
      });
    expect(stored.body.entry?.[0]?.response).toMatchObject({ status: '201 Created' });
    const rerun = await finished();
    expect(rerun).toMatchObject({ status: 'completed', evaluated: patients.length });
    expect(await storedRows()).toBe(patients.length * 3);
  });
});

describe('the score by month of a panel too large to compute on request', () => {
  it('is refused until a run with the trend stored its months, then read from the store', async () => {
    const before = await t().http().get('/api/panel/trend').set(cast.pcp.auth);
    expect(before.status).toBe(409);
    expect(before.body).toMatchObject({ code: 'conflict' });
    expect(before.body.message).toMatch(/comes from a measure run, and \d+ of \d+ patients have no current result/);

    const trendRun = await finished({ trend: true });
    expect(trendRun).toMatchObject({ status: 'completed', trend: true, progress: { done: patients.length } });
    const after = await t().http().get('/api/panel/trend').set(cast.pcp.auth);
    expect(after.status).toBe(200);
    const trend = after.body as PanelTrendJson;
    expect(trend.patients).toBe(patients.length);
    expect(trend.measures.map((m) => m.points.length)).toEqual([12, 12, 12]);
    // A month in 2025 holds the decks' patients: its point counts them, from the stored results.
    const december = trend.measures
      .find((m) => m.identifier === 'CMS951')!
      .points.find((p) => p.month === `${new Date().getUTCFullYear() - 1}-12`);
    if (december) expect(december.eligible).toBeGreaterThan(0);
  });
});

describe("the admin console's conformance report", () => {
  it("runs every case of the official decks through the product's own measures: each case's expected and actual populations, all agreeing", async () => {
    const res = await t().http().get('/api/measures/conformance').set(cast.admin.auth);
    expect(res.status).toBe(200);
    const report = res.body as ConformanceJson;
    expect(report).toMatchObject({ available: true, total: cases.length, agreed: cases.length });
    expect(report.measures.map((m) => [m.identifier, m.cases.length])).toEqual(
      ['CMS122', 'CMS951', 'CMS165'].map((id) => [id, cases.filter((c) => c.measure.startsWith(id)).length]),
    );
    const one = cases[0];
    const row = report.measures.flatMap((m) => m.cases).find((c) => c.file === one.file)!;
    expect(row).toMatchObject({ description: one.description, period: one.measurement_period, agrees: true });
    expect(row.actual).toEqual(row.expected);
    expect(row.expected).toEqual({
      'initial-population': one.expected['initial-population'],
      denominator: one.expected.denominator,
      'denominator-exclusion': one.expected['denominator-exclusion'],
      numerator: one.expected.numerator,
    });
  });

  it('is for administrators only', async () => {
    expect((await t().http().get('/api/measures/conformance').set(cast.pcp.auth)).status).toBe(403);
  });
});
