import type { MeasureDesignJson, MeasureDraftRuleJson, MeasureImpactJson } from '@cds/contracts';
import { startTestApp, type TestApp } from '../support/app';
import { createCast } from '../support/factories';
import { panelPatientBundle } from '../support/panel-records';

// Issue 21, deliverable 4 (admin): before a measure draft is published, the impact preview says which stored
// patients would change population under it. Here CMS122's numerator cut-point raised from 9 % to 10 %.
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
const CMS122 = 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR';
let current: MeasureDraftRuleJson[];

beforeAll(async () => {
  t = await startTestApp();
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
  await t?.close();
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
