import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MeasureDesignJson, MeasureDesignSummaryJson } from '@cds/contracts';
import { startTestApp, type TestApp } from '../support/app';
import { conformanceCases } from '../support/conformance';
import { createCast } from '../support/factories';

// Issue 21, deliverables 2 and 4 (admin): each shipped measure opens in the designer as a rule set of the
// product's own model: its populations in words, its record criteria, its version, the designer's analysis,
// and the official cases as its vignettes.
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
const CMS122 = 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR';
const HBA1C_OID = '2.16.840.1.113883.3.464.1003.198.12.1013';
const cases = conformanceCases();

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
});
afterAll(async () => {
  await t?.close();
});

const design = async (id = CMS122) => {
  const res = await t.http().get(`/api/measures/designs/${id}`).set(cast.admin.auth);
  expect(res.status).toBe(200);
  return res.body as MeasureDesignJson;
};

it("lists the three shipped measures with each one's version, rules and official cases agreed", async () => {
  const res = await t.http().get('/api/measures/designs').set(cast.admin.auth);
  expect(res.status).toBe(200);
  const list = res.body as MeasureDesignSummaryJson[];
  expect(list.map((m) => m.identifier)).toEqual(['CMS122', 'CMS951', 'CMS165']);
  for (const m of list) {
    const deck = cases.filter((c) => c.measure.startsWith(`${m.identifier}-`)).length;
    expect(m).toMatchObject({ changed_since_shipped: false, vignettes: { agreed: deck, total: deck }, findings: { error: 0 } });
    expect(m.version).toMatch(new RegExp(`^${m.identifier}-[0-9a-f]{24}$`));
    expect(m.rule_count).toBeGreaterThan(2);
  }
});

it("opens CMS122 as its populations in words, the HbA1c criterion by value set, and its deck's cases as vignettes", async () => {
  const d = await design();
  const num = d.populations.find((p) => p.code === 'numerator')!;
  expect(num.rules[0].text).toBe('Most recent HbA1c or GMI (lowest that day) > 9 %');
  const hba1c = d.criteria.find((c) => c.id === 'glycemic_status_lowest')!;
  expect(hba1c.parts[0]).toMatchObject({
    resource_type: 'Observation',
    value_sets: [{ oid: HBA1C_OID, title: 'HbA1c Laboratory Test' }],
    take: 'lowest_on_latest_day',
  });
  expect(d.version.hash).toBe(d.version.shipped_hash);
  expect(d.version.value_sets.find((v) => v.oid === HBA1C_OID)).toMatchObject({ added: 0, removed: 0 });
  const deck = cases.filter((c) => c.measure.startsWith('CMS122-'));
  expect(d.vignettes.total).toBe(deck.length);
  expect(d.vignettes.cases.every((c) => c.agrees)).toBe(true);
});

it('a newer HbA1c expansion loaded by an administrator is a new CMS122 version, and the designer says what changed', async () => {
  const shipped = JSON.parse(
    readFileSync(join(__dirname, '..', '..', 'backend', 'content', 'ecqm-valuesets', `${HBA1C_OID}.json`), 'utf8'),
  ) as { expansion: { contains: object[] } };
  const before = await design();
  const newer = {
    ...shipped,
    expansion: { ...shipped.expansion, contains: [...shipped.expansion.contains, { system: 'http://loinc.org', code: '41995-2' }] },
  };
  const load = await t
    .http()
    .post('/api/fhir')
    .set(cast.admin.auth)
    .send({
      resourceType: 'Bundle',
      type: 'batch',
      entry: [{ resource: newer, request: { method: 'PUT', url: `ValueSet/${HBA1C_OID}` } }],
    });
  expect(load.status).toBe(200);
  const after = await design();
  expect(after.version.hash).not.toBe(before.version.hash);
  expect(after.version.shipped_hash).toBe(before.version.hash);
  expect(after.version.changes).toEqual([
    expect.stringMatching(/^HbA1c Laboratory Test \(.+\): \d+ codes loaded, \d+ shipped \(1 added, 0 removed\)$/),
  ]);
  const list = (await t.http().get('/api/measures/designs').set(cast.admin.auth)).body as MeasureDesignSummaryJson[];
  expect(list.find((m) => m.identifier === 'CMS122')!.changed_since_shipped).toBe(true);
  expect(list.find((m) => m.identifier === 'CMS951')!.changed_since_shipped).toBe(false);
});

it('an unknown measure is 404 with the error body, and a PCP may not open the designer', async () => {
  const missing = await t.http().get('/api/measures/designs/NoSuchMeasure').set(cast.admin.auth);
  expect(missing.status).toBe(404);
  expect(missing.body).toMatchObject({ statusCode: 404, code: 'not_found', message: 'Measure not found' });
  expect((await t.http().get(`/api/measures/designs/${CMS122}`).set(cast.pcp.auth)).status).toBe(403);
});
