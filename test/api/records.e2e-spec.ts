import { startTestApp, type TestApp } from '../support/app';
import { RecordsRepository } from '../../backend/src/modules/records';
import { conformanceCases, conformanceValueSets } from '../support/conformance';
import { counts, createCast } from '../support/factories';
import { statementsOf } from '../support/statements';

// Issue 21, records in: POST /api/fhir stores a Bundle's resources by resourceType/id.
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
});
afterAll(async () => {
  await t?.close();
});

const post = (body: unknown, type = 'application/fhir+json') =>
  t.http().post('/api/fhir').set(cast.admin.auth).set('Content-Type', type).send(JSON.stringify(body));

const stored = async (resourceType: string, id: string) =>
  (
    await t.db.query(`SELECT patient_id, version_id, resource FROM fhir_resources WHERE resource_type = $1 AND id = $2`, [resourceType, id])
  )[0] as { patient_id: string | null; version_id: number; resource: Record<string, unknown> } | undefined;

const observation = (id: string, patient: string, extra: Record<string, unknown> = {}) => ({
  resourceType: 'Observation',
  id,
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code: '4548-4' }] },
  subject: { reference: `Patient/${patient}` },
  effectiveDateTime: '2026-10-01',
  valueQuantity: { value: 7.2, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
  ...extra,
});

describe('the official CMS test decks load as records', () => {
  it('every resource of every case is stored at its resourceType/id, about its patient', async () => {
    const cases = conformanceCases();
    expect(cases.length).toBeGreaterThan(90);
    let resources = 0;
    for (const c of cases) {
      const res = await post(c.bundle);
      expect({ file: c.file, status: res.status }).toEqual({ file: c.file, status: 200 });
      expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
      expect(res.body.type).toBe('batch-response');
      expect(res.body.entry).toHaveLength(c.bundle.entry.length);
      res.body.entry.forEach((e: { response: { status: string; location: string } }, i: number) => {
        const r = c.bundle.entry[i].resource;
        // Ids are unique across the decks, so each is new; a resource repeated in another deck is replaced.
        expect(e.response.status).toMatch(/^20[01] /);
        expect(e.response.location).toMatch(new RegExp(`^${String(r.resourceType)}/${String(r.id)}/_history/\\d+$`));
      });
      resources += c.bundle.entry.length;
    }
    const patient = cases[0].bundle.entry.find((e) => e.resource.resourceType === 'Patient')!.resource;
    const row = await stored('Patient', String(patient.id));
    expect(row?.patient_id).toBe(patient.id);
    expect(row?.resource).toEqual(patient);
    const encounter = cases[0].bundle.entry.find((e) => e.resource.resourceType === 'Encounter')!.resource;
    expect((await stored('Encounter', String(encounter.id)))?.patient_id).toBe(patient.id);
    expect((await counts(t, ['fhir_resources'])).fhir_resources).toBeGreaterThan(resources * 0.9);
  });

  it('sending a case again replaces each resource and moves its version on', async () => {
    const c = conformanceCases()[0];
    const res = await post(c.bundle, 'application/json');
    expect(res.status).toBe(200);
    for (const e of res.body.entry) {
      expect(e.response.status).toBe('200 OK');
      expect(e.response.location).toMatch(/\/_history\/([2-9]|\d\d+)$/);
    }
  });
});

describe('a batch stores what is valid and answers each entry', () => {
  it('an invalid Observation is a 400 entry with an OperationOutcome and is not stored; the others are', async () => {
    const res = await post({
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        {
          resource: { resourceType: 'Patient', id: 'batch-p1', gender: 'female', birthDate: '1961-04-02' },
          request: { method: 'PUT', url: 'Patient/batch-p1' },
        },
        { resource: observation('batch-o1', 'batch-p1'), request: { method: 'PUT', url: 'Observation/batch-o1' } },
        { resource: observation('batch-o2', 'batch-p1', { status: 'done-ish' }), request: { method: 'PUT', url: 'Observation/batch-o2' } },
        { resource: observation('batch-o3', 'batch-p1'), request: { method: 'DELETE', url: 'Observation/batch-o3' } },
        { resource: observation('batch-o4', 'batch-p1'), request: { method: 'PUT', url: 'Observation/another-id' } },
      ],
    });
    expect(res.status).toBe(200);
    const statuses = res.body.entry.map((e: { response: { status: string } }) => e.response.status);
    expect(statuses).toEqual(['201 Created', '201 Created', '400 Bad Request', '400 Bad Request', '400 Bad Request']);
    for (const i of [2, 3, 4]) expect(res.body.entry[i].response.outcome.resourceType).toBe('OperationOutcome');
    expect(JSON.stringify(res.body.entry[2].response.outcome)).toMatch(/status/);
    expect(await stored('Observation', 'batch-o1')).toMatchObject({ patient_id: 'batch-p1', version_id: 1 });
    for (const id of ['batch-o2', 'batch-o3', 'batch-o4', 'another-id']) expect(await stored('Observation', id)).toBeUndefined();
  });

  it('a POST without an id gets one, and references to its urn:uuid fullUrl point at it', async () => {
    const res = await post({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        {
          fullUrl: 'urn:uuid:7d3c0a3e-0000-4000-8000-000000000001',
          resource: { resourceType: 'Patient', gender: 'male' },
          request: { method: 'POST', url: 'Patient' },
        },
        {
          resource: { ...observation('tx-o1', 'x'), subject: { reference: 'urn:uuid:7d3c0a3e-0000-4000-8000-000000000001' } },
          request: { method: 'PUT', url: 'Observation/tx-o1' },
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('transaction-response');
    const patientId = /^Patient\/([^/]+)\/_history\/1$/.exec(res.body.entry[0].response.location)![1];
    const row = await stored('Observation', 'tx-o1');
    expect(row?.patient_id).toBe(patientId);
    expect((row?.resource.subject as { reference: string }).reference).toBe(`Patient/${patientId}`);
  });
});

describe('a transaction stores everything or nothing', () => {
  it('one invalid resource refuses the whole Bundle with every problem named, and nothing is stored', async () => {
    const before = await counts(t, ['fhir_resources']);
    const res = await post({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        { resource: { resourceType: 'Patient', id: 'tx-p2' }, request: { method: 'PUT', url: 'Patient/tx-p2' } },
        {
          resource: observation('tx-o2', 'tx-p2', { valueQuantity: { value: 'seven' } }),
          request: { method: 'PUT', url: 'Observation/tx-o2' },
        },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'invalid_fhir_resource' });
    expect(res.body.details[0].field).toMatch(/^entry\[1\]\.resource/);
    expect(await counts(t, ['fhir_resources'])).toEqual(before);
  });

  it('the same resource twice in a transaction is refused', async () => {
    const p = { resourceType: 'Patient', id: 'tx-p3' };
    const res = await post({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        { resource: p, request: { method: 'PUT', url: 'Patient/tx-p3' } },
        { resource: p, request: { method: 'PUT', url: 'Patient/tx-p3' } },
      ],
    });
    expect(res.status).toBe(400);
    expect(await stored('Patient', 'tx-p3')).toBeUndefined();
  });
});

describe('bad requests', () => {
  it.each([
    ['not a Bundle', { resourceType: 'Patient', id: 'x' }, 'resourceType'],
    ['a searchset', { resourceType: 'Bundle', type: 'searchset', entry: [] }, 'type'],
    ['entry not a list', { resourceType: 'Bundle', type: 'batch', entry: {} }, 'entry'],
    ['more than 5,000 entries', { resourceType: 'Bundle', type: 'batch', entry: Array.from({ length: 5001 }, () => ({})) }, 'entry'],
  ])('%s is 400 validation_failed naming the field', async (_name, body, field) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details).toEqual([expect.objectContaining({ field })]);
  });

  it('a record larger than other bodies (300 kB) is accepted', async () => {
    const entry = Array.from({ length: 600 }, (_, i) => ({
      resource: observation(`big-${i}`, 'big-p', { note: [{ text: 'x'.repeat(300) }] }),
      request: { method: 'PUT', url: `Observation/big-${i}` },
    }));
    const body = { resourceType: 'Bundle', type: 'batch', entry };
    expect(JSON.stringify(body).length).toBeGreaterThan(300_000);
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.body.entry.every((e: { response: { status: string } }) => e.response.status === '201 Created')).toBe(true);
  });

  it('only administrators store records', async () => {
    const body = { resourceType: 'Bundle', type: 'batch', entry: [] };
    expect((await t.http().post('/api/fhir').set(cast.pcp.auth).send(body)).status).toBe(403);
    expect((await t.http().post('/api/fhir').send(body)).status).toBe(401);
  });
});

describe('value sets for criteria', () => {
  it("the decks' value sets load as records, and each URL reads back its expansion's codes", async () => {
    const valueSets = conformanceValueSets();
    const res = await post({ resourceType: 'Bundle', type: 'collection', entry: valueSets.map((resource) => ({ resource })) });
    expect(res.status).toBe(200);
    expect(res.body.entry.every((e: { response: { status: string } }) => /^20[01] /.test(e.response.status))).toBe(true);
    const diabetes = valueSets.find((v) => v.url === 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.103.12.1001')!;
    const codes = await t.runtime.app
      .get(RecordsRepository)
      .valueSetCodes([String(diabetes.url), 'http://example.org/ValueSet/not-loaded']);
    const expected = (diabetes.expansion as { contains: { system: string; code: string }[] }).contains.map((c) => `${c.system}|${c.code}`);
    expect(new Set(codes.get(String(diabetes.url)))).toEqual(new Set(expected));
    expect(codes.has('http://example.org/ValueSet/not-loaded')).toBe(false);
  });
});

describe("a population pass reads patients' records by slices", () => {
  const row = (patient: string, n: number) => ({
    resource_type: 'Observation',
    id: `${patient}-obs-${n}`,
    patient_id: patient,
    resource: observation(`${patient}-obs-${n}`, patient),
  });

  it("a slice holds exactly its patients' records, whatever the order and spelling of their ids", async () => {
    const repo = t.runtime.app.get(RecordsRepository);
    const ids = ['slice-b', 'Slice-A', 'slice-a-1', 'slice-bb', 'slice-c', 'slice-Z', 'slice-z'];
    await repo.upsert(ids.flatMap((id) => [row(id, 1), row(id, 2)]));
    const asked = ['slice-c', 'Slice-A', 'slice-a-1', 'slice-z', 'slice-never-stored'];
    const records = await repo.recordsOf(asked);
    expect([...records.keys()]).toEqual(asked);
    for (const id of asked.filter((id) => id !== 'slice-never-stored'))
      expect(
        records
          .get(id)!
          .map((r) => r.id)
          .sort(),
      ).toEqual([`${id}-obs-1`, `${id}-obs-2`]);
    // Patients whose ids sort between the asked ones are not read.
    expect(records.get('slice-never-stored')).toEqual([]);
    expect([...records.values()].flat().some((r) => /slice-(b|bb|Z)-/.test(String(r.id)))).toBe(false);
  });

  it('a slice is read through the patient index even before the table has statistics (right after a bulk import)', async () => {
    const repo = t.runtime.app.get(RecordsRepository);
    const patients = Array.from({ length: 2_000 }, (_, i) => `bulk-${i}`);
    for (let i = 0; i < patients.length; i += 500)
      await repo.upsert(patients.slice(i, i + 500).flatMap((id) => Array.from({ length: 10 }, (_, n) => row(id, n))));
    // What autovacuum has not yet analysed: no column statistics, so the planner guesses how many rows each id has.
    await t.db.query(`DELETE FROM pg_statistic WHERE starelid = 'fhir_resources'::regclass`);
    const slice = patients.slice(700, 1_200);
    const { result, statements } = await statementsOf(() => repo.recordsOf(slice));
    expect([...result.values()].every((r) => r.length === 10)).toBe(true);
    const read = statements.find((s) => /FROM fhir_resources/.test(s))!;
    const [
      {
        'QUERY PLAN': [{ Plan: plan }],
      },
    ] = await t.db.query(`EXPLAIN (FORMAT JSON) ${read}`, [slice]);
    type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };
    const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
    const scans = nodes(plan as PlanNode)
      .filter((n) => n['Relation Name'] === 'fhir_resources')
      .map((n) => n['Node Type']);
    // A sequential scan here reads the whole table once per slice: a population pass grows with the square of the panel.
    expect(scans.length).toBeGreaterThan(0);
    expect(scans).not.toContain('Seq Scan');
  });
});
