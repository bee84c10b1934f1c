import { randomUUID } from 'node:crypto';
import type {
  ConformanceJson,
  MeasureDesignJson,
  MeasureDraftRuleJson,
  MeasureVersionDetailJson,
  MeasureVersionJson,
  PanelJson,
} from '@cds/contracts';
import { startTestApp, type TestApp } from '../support/app';
import { createCast } from '../support/factories';
import { startFhirServer, type FhirServer } from '../support/fhir-server';
import { recordHookCalls, registerCdsClient, startCdsClient, type Card, type CdsClientKeys } from '../support/cds-hooks';
import { panelPatientBundle, thisYear, type PanelPatientInput } from '../support/panel-records';

// Issue 21, deliverables 2 and 4: an administrator edits a shipped measure's population rules as a saved draft,
// and publishes it with a change note as a local version; the Panel, $evaluate-measure and the CDS Hooks gap cards
// then all read it, and say it is a local version, not the CMS measure as specified.
const CMS122 = 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR';
const YEAR = thisYear();
const PERIOD = { periodStart: `${YEAR}-01-01`, periodEnd: `${YEAR}-12-31` };
const FHIR_TOKEN = `fhir-${randomUUID()}`;
const NOTE = 'Clinic quality goal: HbA1c above 8 % is poor control (board decision, November)';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let fhir: FhirServer;
let ehr: CdsClientKeys;
let hook: ReturnType<typeof recordHookCalls>;
let shipped: MeasureDraftRuleJson[];

const PATIENTS: PanelPatientInput[] = [
  { id: 'mv-hba1c-8-5', given: 'Rosa', family: 'Eklund', birthDate: '1962-02-11', hba1c: { value: 8.5, unit: '%' } },
  { id: 'mv-hba1c-9-6', given: 'Sami', family: 'Farah', birthDate: '1959-08-23', hba1c: { value: 9.6, unit: '%' } },
  { id: 'mv-hba1c-7-2', given: 'Tove', family: 'Gill', birthDate: '1970-12-01', hba1c: { value: 7.2, unit: '%' } },
];

const api = () => t.http();
const design = async () => (await api().get(`/api/measures/designs/${CMS122}`).set(cast.admin.auth)).body as MeasureDesignJson;
const history = async () => (await api().get(`/api/measures/designs/${CMS122}/versions`).set(cast.admin.auth)).body as MeasureVersionJson[];
const saveDraft = (body: unknown, as = cast.admin) =>
  api()
    .put(`/api/measures/designs/${CMS122}/draft`)
    .set(as.auth)
    .send(body as object);
const publish = (body: unknown, as = cast.admin) =>
  api()
    .post(`/api/measures/designs/${CMS122}/draft/publish`)
    .set(as.auth)
    .send(body as object);
const discard = (revision: number, as = cast.admin) =>
  api().delete(`/api/measures/designs/${CMS122}/draft`).query({ revision }).set(as.auth);
const cms122OnPanel = async () =>
  ((await api().get('/api/panel').set(cast.pcp.auth)).body as PanelJson).measures.find((m) => m.id === CMS122)!;
const numeratorOf = (report: { group: { population: { code: { coding: { code: string }[] }; count: number }[] }[] }) =>
  report.group[0].population.find((p) => p.code.coding[0].code === 'numerator')!.count;
const evaluate = async () => (await api().get(`/api/fhir/Measure/${CMS122}/$evaluate-measure`).query(PERIOD).set(cast.pcp.auth)).body;
/** CMS122's gap cards (the patients have no kidney tests: CMS951's are beside them). */
const gapSummaries = (cards: Card[]) => cards.filter((c) => /^Gap in care: .*HbA1c/.test(c.summary)).map((c) => c.summary);
/** CMS122 with its numerator cut-point at `value`, the rule's name saying so ("Most recent HbA1c or GMI > 8 %"). */
const withCutPoint = (value: unknown, name = `Most recent HbA1c or GMI > ${String(value)} %`) =>
  shipped.map((r) => (r.id === 'cms122-num-elevated' ? { ...r, name, conditions: [{ ...r.conditions[0], value }] } : r));

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'error' });
  cast = await createCast(t);
  for (const p of PATIENTS) {
    const res = await api().post('/api/fhir').set(cast.admin.auth).send(panelPatientBundle(p));
    if (res.status !== 200) throw new Error(`loading ${p.id}: ${res.status}`);
  }
  // The same patients in the EHR a patient-view call reads.
  fhir = await startFhirServer({ token: FHIR_TOKEN });
  ehr = await startCdsClient('https://ehr.example.org/measure-versions');
  await registerCdsClient(t, cast.admin, ehr, { allowed_fhir_servers: [`${fhir.url}/`] });
  hook = recordHookCalls(t, fhir, ehr, FHIR_TOKEN);
  for (const p of PATIENTS) {
    const resources = panelPatientBundle(p)
      .entry.map((e) => e.resource)
      .filter((r) => r.resourceType !== 'Patient')
      .map(({ id: _id, ...r }) => r);
    await hook.patient(p.id, resources, p.birthDate);
  }
  shipped = (await api().get(`/api/measures/designs/${CMS122}/versions/1`).set(cast.admin.auth)).body.rules;
});

afterAll(async () => {
  await ehr?.close();
  await fhir?.close();
  await t?.close();
});

it('a measure never edited has one version: 1, the CMS definition as shipped, published', async () => {
  expect(await history()).toEqual([
    expect.objectContaining({ version: 1, label: '1 (CMS as shipped)', status: 'published', source: 'shipped' }),
  ]);
  expect((await design()).draft).toBeNull();
  expect(shipped.find((r) => r.id === 'cms122-num-elevated')!.conditions).toEqual([
    { parameter: 'glycemic_status_lowest', operator: 'greater_than', value: 9 },
  ]);
});

it('only an administrator reads or changes a measure’s versions (403 for a PCP), and a body of the wrong shape is refused (400)', async () => {
  expect((await api().get(`/api/measures/designs/${CMS122}/versions`).set(cast.pcp.auth)).status).toBe(403);
  expect((await saveDraft({ rules: withCutPoint(8), draft_revision: null }, cast.pcp)).status).toBe(403);
  expect((await publish({ note: NOTE, draft_revision: 1 }, cast.pcp)).status).toBe(403);
  expect((await discard(1, cast.pcp)).status).toBe(403);
  const bad = await saveDraft({ rules: [], draft_revision: 'latest', publish: true });
  expect(bad.status).toBe(400);
  expect(bad.body).toMatchObject({ statusCode: 400, code: 'validation_failed' });
  expect((bad.body.details as { field: string }[]).map((d) => d.field).sort()).toEqual(['draft_revision', 'publish', 'rules']);
  expect((await publish({ draft_revision: 1 })).body.details).toEqual([expect.objectContaining({ field: 'note' })]);
  expect((await api().delete(`/api/measures/designs/${CMS122}/draft`).set(cast.admin.auth)).status).toBe(400);
  expect(
    (await api().put('/api/measures/designs/NoSuch/draft').set(cast.admin.auth).send({ rules: shipped, draft_revision: null })).status,
  ).toBe(404);
  expect((await history()).map((v) => v.version)).toEqual([1]);
});

it('a saved draft is edited at its revision; an edit made on an older revision is refused (409), nothing of it saved', async () => {
  const made = await saveDraft({ rules: withCutPoint(8.5), draft_revision: null });
  expect(made.status).toBe(200);
  const draft = made.body as MeasureVersionDetailJson;
  expect(draft).toMatchObject({ version: 2, label: '2 (local)', status: 'draft', revision: 1, note: null });
  expect(draft.created?.email).toBe(cast.admin.email);
  // A second "new draft" while one exists is a conflict: a measure has at most one.
  expect((await saveDraft({ rules: withCutPoint(7), draft_revision: null })).status).toBe(409);
  const edited = await saveDraft({ rules: withCutPoint(8), draft_revision: 1 }, cast.super_admin);
  expect(edited.body).toMatchObject({ version: 2, revision: 2, updated: expect.objectContaining({ email: cast.super_admin.email }) });
  const stale = await saveDraft({ rules: withCutPoint(10), draft_revision: 1 });
  expect(stale.status).toBe(409);
  expect(stale.body).toMatchObject({ statusCode: 409, code: 'conflict' });
  expect(stale.body.message).toMatch(/saved by someone else since you opened it \(it is now at revision 2\)/);
  const kept = (await design()).draft!;
  expect(kept.revision).toBe(2);
  expect(kept.rules.find((r) => r.id === 'cms122-num-elevated')!.conditions[0].value).toBe(8);
  expect((await history()).map((v) => [v.version, v.status])).toEqual([
    [2, 'draft'],
    [1, 'published'],
  ]);
});

it('discarding a draft leaves the published measure as it was', async () => {
  const before = { panel: await cms122OnPanel(), report: numeratorOf(await evaluate()), design: await design() };
  expect((await discard(1)).status).toBe(409); // a stale page never discards a newer edit
  expect((await discard(2)).status).toBe(204);
  expect((await discard(2)).status).toBe(404);
  expect((await history()).map((v) => [v.version, v.status])).toEqual([[1, 'published']]);
  const after = await design();
  expect(after.draft).toBeNull();
  expect(after.version.hash).toBe(before.design.version.hash);
  expect(await cms122OnPanel()).toEqual(before.panel);
  expect(before.panel.local_version).toBeNull();
  expect(numeratorOf(await evaluate())).toBe(before.report);
});

it('a draft the engine cannot read is saved, but its publish is refused naming each problem (400), and nothing is published', async () => {
  const unreadable = [
    ...withCutPoint('eight'),
    { name: 'eGFR low', population: 'numerator', conditions: [{ parameter: 'egfr', operator: 'less_than', value: 60 }] },
  ];
  const draft = (await saveDraft({ rules: unreadable, draft_revision: null })).body as MeasureVersionDetailJson;
  expect(draft.version).toBe(2); // the discarded draft's number is free again: no version 2 was ever published
  const res = await publish({ note: NOTE, draft_revision: draft.revision });
  expect(res.status).toBe(400);
  expect((res.body.details as { field: string }[]).map((d) => d.field)).toEqual(
    expect.arrayContaining([expect.stringMatching(/conditions\[0\]\.value$/), expect.stringMatching(/conditions\[0\]\.parameter$/)]),
  );
  expect((await design()).published.version).toBe(1);
  expect((await discard(draft.revision)).status).toBe(204);
});

it("an admin lowers CMS122's A1C threshold to 8 %, and the Panel, $evaluate-measure and the gap card all read the new version", async () => {
  // As shipped: 9.6 % is a gap, 8.5 % is not.
  expect(gapSummaries(await hook.cardsFor('mv-hba1c-8-5'))).toEqual([]);
  const before = await cms122OnPanel();
  const reportBefore = numeratorOf(await evaluate());
  const draft = (await saveDraft({ rules: withCutPoint(8), draft_revision: null })).body as MeasureVersionDetailJson;
  const impact = await api().post(`/api/measures/designs/${CMS122}/impact`).set(cast.admin.auth).send({ rules: draft.rules });
  expect(impact.body.changed_patients.map((p: { patient_id: string }) => p.patient_id)).toEqual(['mv-hba1c-8-5']);
  expect((await publish({ note: NOTE, draft_revision: draft.revision + 1 })).status).toBe(409);
  // The Panel's evidence and the gap card show rule names: a rule still named "> 9 %" while comparing with 8 is refused.
  const misnamed = (await saveDraft({ rules: withCutPoint(8, 'Most recent HbA1c or GMI > 9 %'), draft_revision: draft.revision })).body;
  const refused = await publish({ note: NOTE, draft_revision: misnamed.revision });
  expect(refused.status).toBe(400);
  expect(refused.body.details).toEqual([
    expect.objectContaining({ message: expect.stringMatching(/name says 9 but the rule now compares with 8: rename it/) }),
  ]);
  const renamed = (await saveDraft({ rules: withCutPoint(8), draft_revision: misnamed.revision })).body as MeasureVersionDetailJson;
  const published = await publish({ note: `  ${NOTE}  `, draft_revision: renamed.revision });
  expect(published.status).toBe(200);
  expect(published.body).toMatchObject({
    version: 2,
    status: 'published',
    note: NOTE,
    published: expect.objectContaining({ email: cast.admin.email }),
  });

  const panel = await cms122OnPanel();
  expect(panel.counts.numerator).toBe(before.counts.numerator + 1);
  expect(panel.local_version).toMatchObject({ version: 2, label: '2 (local)', note: NOTE });
  expect(panel.goal).toBe('Most recent HbA1c or GMI in the period at or below 8 %');
  const gaps = ((await api().get('/api/panel').set(cast.pcp.auth)).body as PanelJson).gaps.filter((g) => g.measure_id === CMS122);
  expect(gaps.find((g) => g.patient_id === 'mv-hba1c-8-5')?.reason).toBe('Most recent HbA1c or GMI 8.5 % (above 8 %)');

  const report = await evaluate();
  expect(numeratorOf(report)).toBe(reportBefore + 1);
  expect(report.measure).toMatch(new RegExp(`/api/fhir/Measure/${CMS122}\\|2 \\(local\\)$`));
  const measure = (await api().get(`/api/fhir/Measure/${CMS122}`).set(cast.pcp.auth)).body;
  expect(measure).toMatchObject({ version: '2 (local)', title: 'Diabetes: Glycemic Status Assessment Greater Than 8% (local version 2)' });
  expect(measure.description).toContain(NOTE);

  const cards = (await hook.cardsFor('mv-hba1c-8-5')).filter((c) => /^Gap in care: .*HbA1c/.test(c.summary));
  expect(cards.map((c) => c.summary)).toEqual([`Gap in care: most recent HbA1c 8.5 % (above 8 %) in ${YEAR}`]);
  expect(cards[0].source.label).toBe('CMS122 local version 2 (changed from the CMS measure)');
  expect(cards[0].detail).toContain(NOTE);

  const patient = (await api().get('/api/panel/patients/mv-hba1c-8-5').set(cast.pcp.auth)).body;
  expect(patient.measures.find((m: { id: string }) => m.id === CMS122)).toMatchObject({
    status: 'gap',
    local_version: { label: '2 (local)' },
  });

  expect((await history()).map((v) => [v.version, v.status, v.note])).toEqual([
    [2, 'published', NOTE],
    [1, 'retired', null],
  ]);
  const d = await design();
  expect(d.published).toMatchObject({ version: 2, source: 'local' });
  expect(d.version.changes).toEqual([expect.stringContaining('Population rules changed locally: version 2 (local)')]);
  // The official decks check the definition as shipped, and say the published version differs from it.
  const conformance = (await api().get('/api/measures/conformance').set(cast.admin.auth)).body as ConformanceJson;
  if (conformance.available) {
    const cms122 = conformance.measures.find((m) => m.id === CMS122)!;
    expect(cms122.agreed).toBe(cms122.cases.length);
    expect(cms122.published_version).toMatchObject({ label: '2 (local)' });
  }
});

it('a second edit is version 3; publishing it retires version 2, and the shipped rules as a draft are not "nothing to publish"', async () => {
  const draft = (await saveDraft({ rules: shipped, draft_revision: null })).body as MeasureVersionDetailJson;
  expect(draft.version).toBe(3);
  expect((await publish({ note: 'Back to the CMS cut-point of 9 %', draft_revision: draft.revision })).status).toBe(200);
  expect((await history()).map((v) => [v.version, v.status])).toEqual([
    [3, 'published'],
    [2, 'retired'],
    [1, 'retired'],
  ]);
  expect((await cms122OnPanel()).goal).toBe('Most recent HbA1c or GMI in the period at or below 9 %');
  const again = (await saveDraft({ rules: shipped, draft_revision: null })).body as MeasureVersionDetailJson;
  const same = await publish({ note: 'No change', draft_revision: again.revision });
  expect(same.status).toBe(409);
  expect(same.body.message).toMatch(/nothing to publish/);
  const v2 = (await api().get(`/api/measures/designs/${CMS122}/versions/2`).set(cast.admin.auth)).body as MeasureVersionDetailJson;
  expect(v2.rules.find((r) => r.id === 'cms122-num-elevated')!.conditions[0].value).toBe(8);
  expect((await api().get(`/api/measures/designs/${CMS122}/versions/9`).set(cast.admin.auth)).status).toBe(404);
});
