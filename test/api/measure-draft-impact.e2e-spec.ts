import type { MeasureDesignJson, MeasureDraftRuleJson, MeasureImpactJson, MeasureRunJson } from '@cds/contracts';
import type { TestApp } from '../support/app';
import { createCast } from '../support/factories';
import { streamedLines } from '../support/ndjson';
import { panelPatientBundle, thisYear } from '../support/panel-records';
import { startPolishApp, type PolishSetup } from '../support/polish-setup';
import { waitFor } from '../support/polling';

// Issue 21, deliverable 4 (admin): before a measure draft is published, the impact preview says which stored
// patients would change population under it. Here CMS122's numerator cut-point raised from 9 % to 10 %.
let setup: PolishSetup;
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
const CMS122 = 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR';
let current: MeasureDraftRuleJson[];

beforeAll(async () => {
  // A measure run's job needs a worker (a separate process on PostgreSQL and Redis, the API itself embedded).
  setup = await startPolishApp();
  t = setup.t;
  cast = await createCast(t);
  const patients = [
    { id: 'hba1c-9-5', given: 'Nora', family: 'Ames', birthDate: '1960-04-02', hba1c: { value: 9.5, unit: '%' } },
    { id: 'hba1c-11-2', given: 'Omar', family: 'Bell', birthDate: '1958-07-19', hba1c: { value: 11.2, unit: '%' } },
    { id: 'hba1c-7-0', given: 'Pia', family: 'Cruz', birthDate: '1971-01-30', hba1c: { value: 7.0, unit: '%' } },
  ];
  for (const p of patients) {
    const res = await t.http().post('/api/fhir').set(cast.admin.auth).send(panelPatientBundle(p));
    if (res.status !== 200) throw new Error(`loading ${p.id}: ${res.status}`);
  }
  const design = (await t.http().get(`/api/measures/designs/${CMS122}`).set(cast.admin.auth)).body as MeasureDesignJson;
  current = design.populations.flatMap((p) =>
    p.rules.map((r) => ({
      id: r.id,
      name: r.name,
      population: p.code,
      conditions: r.conditions.map((c) => ({ parameter: c.parameter_id, operator: c.operator, value: c.value })),
    })),
  );
});
afterAll(async () => {
  await setup?.close();
});

const preview = (body: unknown, as = cast.admin) =>
  t
    .http()
    .post(`/api/measures/designs/${CMS122}/impact`)
    .set(as.auth)
    .send(body as object);
const withCutPoint = (value: unknown) =>
  current.map((r) => (r.id === 'cms122-num-elevated' ? { ...r, conditions: [{ ...r.conditions[0], value }] } : r));

it('raising the numerator cut-point to 10 % moves the patient at 9.5 % out of the numerator, and nobody else', async () => {
  const res = await preview({ rules: withCutPoint(10) });
  expect(res.status).toBe(200);
  const impact = res.body as MeasureImpactJson;
  expect(impact.patients).toBe(3);
  expect(impact.changed).toBe(1);
  expect(impact.changed_patients).toEqual([
    expect.objectContaining({ patient_id: 'hba1c-9-5', name: 'Nora Ames', changes: ['Numerator: Yes → No'] }),
  ]);
  expect(impact.counts.find((c) => c.population === 'numerator')).toMatchObject({ before: 2, after: 1 });
  expect(impact.counts.find((c) => c.population === 'denominator')).toMatchObject({ before: 3, after: 3 });
  // Publishing it would be a new measure version: every stored result of the current one would go stale.
  expect(impact.versions.draft).not.toBe(impact.versions.current);
  expect(impact.analysis.summary.error).toBe(0);
});

it('the measure as it is, sent back as a draft, changes nobody and is the same version', async () => {
  const impact = (await preview({ rules: current })).body as MeasureImpactJson;
  expect(impact.changed).toBe(0);
  expect(impact.versions.draft).toBe(impact.versions.current);
});

it('a draft without the "no HbA1c" numerator rule leaves an untested patient undetermined, not a gap', async () => {
  await t
    .http()
    .post('/api/fhir')
    .set(cast.admin.auth)
    .send(panelPatientBundle({ id: 'no-hba1c', given: 'Quinn', family: 'Diaz', birthDate: '1966-05-05' }));
  const impact = (await preview({ rules: current.filter((r) => r.id !== 'cms122-num-none') })).body as MeasureImpactJson;
  // With no result the cut-point cannot be read, so the engine says undetermined rather than a silent no.
  expect(impact.changed_patients.map((p) => [p.patient_id, p.changes])).toEqual([['no-hba1c', ['Numerator: Yes → Undetermined']]]);
});

it('refuses a draft it cannot evaluate, naming each problem (400), and a PCP (403)', async () => {
  const bad = await preview({
    rules: [
      ...withCutPoint('nine'),
      { name: 'Unknown', population: 'numerator', conditions: [{ parameter: 'egfr', operator: 'less_than', value: 60 }] },
      { name: 'Nowhere', population: 'gaps', conditions: [{ parameter: 'diabetes', operator: 'equals', value: true }] },
    ],
    periodStart: '2026-13-01',
  });
  expect(bad.status).toBe(400);
  expect(bad.body.code).toBe('validation_failed');
  const fields = (bad.body.details as { field: string }[]).map((d) => d.field);
  expect(fields).toEqual(
    expect.arrayContaining(['periodStart', 'rules[5].conditions[0].value', 'rules[8].conditions[0].parameter', 'rules[9].population']),
  );
  expect((await preview({ rules: current.filter((r) => r.population !== 'initial-population') })).status).toBe(400);
  expect((await preview([])).status).toBe(400);
  expect((await preview({ rules: current }, cast.pcp)).status).toBe(403);
  expect((await t.http().post('/api/measures/designs/NoSuchMeasure/impact').set(cast.admin.auth).send({ rules: current })).status).toBe(
    404,
  );
});

// Issue 21 at population size: a preview over 100,000 patients takes minutes, so the publish dialog asks for the
// streamed form and shows how many patients are compared; and after a measure run the measure as it is comes from
// the run's stored results, so only the draft is evaluated.
describe('the admin previewing an 8 % A1C cut-point over a panel a measure run has read', () => {
  const streamed = (body: unknown) =>
    streamedLines<MeasureImpactJson>(
      t
        .http()
        .post(`/api/measures/designs/${CMS122}/impact`)
        .set(cast.admin.auth)
        .send(body as object),
    );
  const year = String(thisYear());
  const period = { period_start: `${year}-01-01`, period_end: `${year}-12-31` };
  async function measureRun(): Promise<MeasureRunJson> {
    const started = await t
      .http()
      .post('/api/measure-runs')
      .set(cast.admin.auth)
      .send({ measure_ids: [CMS122], ...period });
    expect(started.status).toBe(202);
    let last: MeasureRunJson | undefined;
    await waitFor(
      async () => {
        last = (await t.http().get(`/api/measure-runs/${started.body.id}`).set(cast.admin.auth)).body as MeasureRunJson;
        return last.status === 'completed' || last.status === 'failed';
      },
      { timeoutMs: 120_000, intervalMs: 100, what: 'the measure run to finish' },
    );
    return last!;
  }

  it('streamed, progress lines count every stored patient, and the final answer is the JSON answer', async () => {
    const json = (await preview({ rules: withCutPoint(8) })).body as MeasureImpactJson;
    const { res, lines } = await streamed({ rules: withCutPoint(8) });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const progress = lines.slice(0, -1).map((l) => l.progress!);
    expect(progress[0]).toEqual({ done: 0, total: json.patients });
    expect(progress.at(-1)).toEqual({ done: json.patients, total: json.patients });
    expect(lines.at(-1)!.preview).toEqual(json);
    // Nothing stored yet: the measure as it is was evaluated now for everyone.
    expect(json.current_from).toEqual({ stored: 0, evaluated: json.patients });
  });

  it('a draft or measure that cannot be previewed is a plain error answer before any line', async () => {
    const unknown = await streamedLines(
      t.http().post('/api/measures/designs/NoSuchMeasure/impact').set(cast.admin.auth).send({ rules: current }),
    );
    expect(unknown.res.status).toBe(404);
    expect(unknown.res.headers['content-type']).toMatch(/^application\/json/);
    const bad = await streamed({ rules: withCutPoint('eight') });
    expect(bad.res.status).toBe(400);
    expect(JSON.parse(String(bad.res.body))).toMatchObject({ code: 'validation_failed' });
  });

  it('after a measure run the measure as it is is read from its stored results, and only the draft is evaluated', async () => {
    const evaluated = (await preview({ rules: withCutPoint(8) })).body as MeasureImpactJson;
    expect(await measureRun()).toMatchObject({ status: 'completed' });
    const read = (await preview({ rules: withCutPoint(8) })).body as MeasureImpactJson;
    expect(read.current_from).toEqual({ stored: read.patients, evaluated: 0 });
    expect(read.counts).toEqual(evaluated.counts);
    expect(read.changed_patients).toEqual(evaluated.changed_patients);
    // Proof that the stored row is what was read: a result marked out of the numerator in the store is counted so.
    await t.db.query(
      `UPDATE measure_results SET populations = populations || '{"numerator": false}'::jsonb
        WHERE measure_id = $1 AND patient_id = 'hba1c-11-2' AND period_start = $2`,
      [CMS122, period.period_start],
    );
    const tampered = (await preview({ rules: withCutPoint(8) })).body as MeasureImpactJson;
    const numerator = (r: MeasureImpactJson) => r.counts.find((c) => c.population === 'numerator')!;
    expect(numerator(tampered).before).toBe(numerator(read).before - 1);
    expect(numerator(tampered).after).toBe(numerator(read).after);

    // A draft that keeps the initial population's rules does not read the record of a patient whom the stored result
    // places outside it (they stay outside); one that changes them (the upper age 75 → 76) reads every record.
    await t.db.query(
      `UPDATE measure_results SET populations = populations || '{"initial-population": false, "denominator": false, "numerator": false}'::jsonb
        WHERE measure_id = $1 AND patient_id = 'hba1c-9-5' AND period_start = $2`,
      [CMS122, period.period_start],
    );
    const initial = (r: MeasureImpactJson) => r.counts.find((c) => c.population === 'initial-population')!;
    const kept = (await preview({ rules: withCutPoint(8) })).body as MeasureImpactJson;
    expect(initial(kept)).toMatchObject({ before: initial(read).before - 1, after: initial(read).after - 1 });
    expect(kept.changed_patients.map((p) => p.patient_id)).not.toContain('hba1c-9-5');
    const olderAge = withCutPoint(8).map((r) =>
      r.population === 'initial-population' ? { ...r, conditions: r.conditions.map((c) => (c.value === 75 ? { ...c, value: 76 } : c)) } : r,
    );
    const changedAge = (await preview({ rules: olderAge })).body as MeasureImpactJson;
    expect(initial(changedAge)).toMatchObject({ before: initial(read).before - 1, after: initial(read).after });
    expect(changedAge.changed_patients.find((p) => p.patient_id === 'hba1c-9-5')?.changes).toContain('Initial population: No → Yes');
  });

  it('a patient imported after the run has no current stored result and is evaluated now', async () => {
    const before = (await preview({ rules: withCutPoint(8) })).body as MeasureImpactJson;
    const added = await t
      .http()
      .post('/api/fhir')
      .set(cast.admin.auth)
      .send(
        panelPatientBundle({
          id: 'hba1c-8-5-late',
          given: 'Rosa',
          family: 'Eng',
          birthDate: '1963-09-09',
          hba1c: { value: 8.5, unit: '%' },
        }),
      );
    expect(added.status).toBe(200);
    const { lines } = await streamed({ rules: withCutPoint(8) });
    const after = lines.at(-1)!.preview!;
    expect(after.patients).toBe(before.patients + 1);
    expect(after.current_from).toEqual({ stored: before.current_from.stored, evaluated: before.current_from.evaluated + 1 });
    // At 8.5 % she is not a gap at 9 % but is at 8 %: the draft moves her into the numerator.
    expect(after.changed_patients).toEqual(
      expect.arrayContaining([expect.objectContaining({ patient_id: 'hba1c-8-5-late', changes: ['Numerator: No → Yes'] })]),
    );
  });
});
