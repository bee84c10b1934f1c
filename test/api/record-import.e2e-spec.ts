import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordImportJson } from '@cds/contracts';
import { RecordImportsService } from '../../backend/src/modules/records';
import { RecordImportsRepository } from '../../backend/src/modules/records/imports/record-imports.repository';
import { RecordImportsRunner } from '../../backend/src/modules/records/imports/record-imports.runner';
import { chunkLines } from '../../backend/src/modules/records/imports/ndjson';
import { conformanceCases } from '../support/conformance';
import { createCast } from '../support/factories';
import { SEPARATE_WORKER, startPolishApp, type PolishSetup } from '../support/polish-setup';
import { waitFor } from '../support/polling';

// Issue 21, records in: POST /api/fhir/$import, a panel's NDJSON as a background job with progress (GET /api/jobs/:id).
let setup: PolishSetup;
let cast: Awaited<ReturnType<typeof createCast>>;
let allowed: Source;
let elsewhere: Source;
/** An allow-listed server that is not running (its port was free a moment ago). */
let unreachable: string;

/** A local FHIR server's NDJSON files: path → [status, body]; every request is recorded. */
interface Source {
  server: Server;
  base: string;
  files: Map<string, [number, string, Record<string, string>?]>;
  hits: string[];
}
async function startSource(): Promise<Source> {
  const files = new Map<string, [number, string, Record<string, string>?]>();
  const hits: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    hits.push(req.url ?? '');
    const [status, body, headers] = files.get(req.url ?? '') ?? [404, 'not found'];
    res.writeHead(status, { 'content-type': 'application/fhir+ndjson', ...headers });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, files, hits };
}

beforeAll(async () => {
  allowed = await startSource();
  elsewhere = await startSource();
  const gone = await startSource();
  unreachable = gone.base;
  await new Promise((r) => gone.server.close(r));
  // Two lines a chunk: every import here crosses several chunk commits. 1 MB uploads at most, to test the 413.
  setup = await startPolishApp({
    IMPORT_ALLOWED_BASES: `${allowed.base}/fhir/,${unreachable}/r4`,
    IMPORT_CHUNK_LINES: '2',
    IMPORT_BODY_LIMIT_MB: '1',
    QUEUE_STALLED_INTERVAL_MS: '1000',
  });
  cast = await createCast(setup.t);
}, 120_000);
afterAll(async () => {
  await setup?.close();
  allowed?.server.close();
  elsewhere?.server.close();
});

const t = () => setup.t;
const ndjson = (resources: readonly unknown[]) => resources.map((r) => JSON.stringify(r)).join('\n') + '\n';
const upload = (body: string, as = cast.admin) =>
  t().http().post('/api/fhir/$import').set(as.auth).set('Content-Type', 'application/fhir+ndjson').send(body);
const job = async (id: string) => (await t().http().get(`/api/jobs/${id}`).set(cast.admin.auth)).body as RecordImportJson;
async function finished(id: string, timeoutMs = 60_000): Promise<RecordImportJson> {
  let last: RecordImportJson | undefined;
  await waitFor(
    async () => {
      last = await job(id);
      return last.status === 'completed' || last.status === 'failed';
    },
    { timeoutMs, intervalMs: 100, what: `import ${id} to finish` },
  );
  return last!;
}
/** Everything in the store, as a fingerprint: a failed import must leave it exactly so. */
const storeSnapshot = async () =>
  JSON.stringify(
    await t().db.query(`SELECT resource_type, id, version_id, last_updated, resource FROM fhir_resources ORDER BY resource_type, id`),
  );
const staged = async () =>
  Number(
    (await t().db.query(`SELECT (SELECT count(*) FROM record_import_chunks) + (SELECT count(*) FROM record_import_resources) AS n`))[0].n,
  );

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
const patient = (id: string) => ({ resourceType: 'Patient', id, birthDate: '1960-04-02', gender: 'female' });

describe("a panel's NDJSON upload", () => {
  it('runs as a job with progress, and the measures then see every patient as the official decks expect', async () => {
    const cases = conformanceCases()
      .filter((c) => c.measure.startsWith('CMS122'))
      .slice(0, 6);
    const resources = cases.flatMap((c) => c.bundle.entry.map((e) => e.resource));
    const res = await upload(ndjson(resources));
    expect(res.status).toBe(202);
    expect(res.headers['content-location']).toBe(`/api/jobs/${res.body.id}`);
    expect(res.body).toMatchObject({ kind: 'fhir-import', status: 'queued', progress: { done: 0, total: resources.length }, stored: 0 });

    const done = await finished(res.body.id);
    expect(done).toMatchObject({
      status: 'completed',
      progress: { done: resources.length, total: resources.length },
      invalid: 0,
      errors: [],
      failure: null,
      requested_by: cast.admin.id,
    });
    expect(done.stored).toBe(new Set(resources.map((r) => `${String(r.resourceType)}/${String(r.id)}`)).size);
    expect(done.finished_at).toBeTruthy();
    expect(await staged()).toBe(0);

    for (const c of cases) {
      const id = String(c.bundle.entry.find((e) => e.resource.resourceType === 'Patient')!.resource.id);
      const report = await t()
        .http()
        .get('/api/fhir/Measure/DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR/$evaluate-measure')
        .query({ periodStart: c.measurement_period.start, periodEnd: c.measurement_period.end, subject: `Patient/${id}` })
        .set(cast.pcp.auth);
      expect(report.status).toBe(200);
      const got = Object.fromEntries(
        (report.body.group[0].population as { code: { coding: { code: string }[] }; count: number }[]).map((p) => [
          p.code.coding[0].code,
          p.count,
        ]),
      );
      expect({ file: c.file, numerator: got.numerator, denominator: got.denominator }).toEqual({
        file: c.file,
        numerator: c.expected.numerator,
        denominator: c.expected.denominator,
      });
    }

    const list = await t().http().get('/api/jobs').set(cast.admin.auth);
    expect(list.status).toBe(200);
    expect(list.headers['content-range']).toMatch(/^jobs 0-\d+\/\d+$/);
    expect((list.body as RecordImportJson[]).map((j) => j.id)).toContain(res.body.id);
  });

  it('skips a line that is not JSON, one that is not valid R4 and one without an id, naming each line; the rest is stored', async () => {
    const lines = [
      JSON.stringify(patient('imp-a')),
      '{"resourceType": "Observation", "id": ',
      JSON.stringify(observation('imp-a-1', 'imp-a', { status: 'not-a-status' })),
      '',
      JSON.stringify({ resourceType: 'Observation', status: 'final', code: { text: 'x' } }),
      JSON.stringify(observation('imp-a-2', 'imp-a')),
    ];
    const res = await upload(lines.join('\n'));
    expect(res.status).toBe(202);
    const done = await finished(res.body.id);
    expect(done.status).toBe('completed');
    expect(done.stored).toBe(2);
    expect(done.invalid).toBe(3);
    expect(done.errors.map((e) => e.line)).toEqual([2, 3, 5]);
    expect(done.errors[0].diagnostics).toMatch(/not JSON/);
    expect(done.errors[1].diagnostics).toMatch(/not valid FHIR R4.*status/);
    expect(done.errors[2].diagnostics).toMatch(/no id/);
    const rows = await t().db.query(
      `SELECT resource_type, id, patient_id, version_id FROM fhir_resources WHERE patient_id = 'imp-a' ORDER BY id`,
    );
    expect(rows).toEqual([
      { resource_type: 'Patient', id: 'imp-a', patient_id: 'imp-a', version_id: 1 },
      { resource_type: 'Observation', id: 'imp-a-2', patient_id: 'imp-a', version_id: 1 },
    ]);
  });

  it('replaces resources already stored and moves their version on, as POST /api/fhir does', async () => {
    const res = await upload(
      ndjson([
        patient('imp-a'),
        observation('imp-a-2', 'imp-a', { valueQuantity: { value: 9.9, unit: '%', system: 'http://unitsofmeasure.org', code: '%' } }),
      ]),
    );
    expect((await finished(res.body.id)).status).toBe('completed');
    const [row] = await t().db.query(
      `SELECT version_id, resource FROM fhir_resources WHERE resource_type = 'Observation' AND id = 'imp-a-2'`,
    );
    expect(row.version_id).toBe(2);
    expect(row.resource.valueQuantity.value).toBe(9.9);
  });

  it('refuses an empty upload, another media type, and an upload over the limit (413, the usual error body)', async () => {
    expect((await upload('\n\n')).status).toBe(400);
    const plain = await t().http().post('/api/fhir/$import').set(cast.admin.auth).set('Content-Type', 'text/plain').send('x');
    expect(plain.status).toBe(415);
    expect(plain.body.code).toBe('unsupported_media_type');
    const big = await upload(ndjson([patient('x'.repeat(10))]).repeat(1) + 'x'.repeat(1_100_000));
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ statusCode: 413, code: 'payload_too_large', message: 'Request body is too large' });
  });
});

describe('an import from URLs', () => {
  it('fetches every input from an allow-listed server, lines numbered across them', async () => {
    allowed.files.set('/fhir/Patient.ndjson', [200, ndjson([patient('url-a'), patient('url-b')])]);
    allowed.files.set('/fhir/Observation.ndjson', [200, ndjson([observation('url-a-1', 'url-a')]) + 'not json\n']);
    const res = await t()
      .http()
      .post('/api/fhir/$import')
      .set(cast.admin.auth)
      .send({
        inputFormat: 'application/fhir+ndjson',
        input: [
          { type: 'Patient', url: `${allowed.base}/fhir/Patient.ndjson` },
          { type: 'Observation', url: `${allowed.base}/fhir/Observation.ndjson` },
        ],
      });
    expect(res.status).toBe(202);
    expect(res.body.progress).toEqual({ done: 0, total: null });
    const done = await finished(res.body.id);
    expect(done).toMatchObject({ status: 'completed', stored: 3, invalid: 1, progress: { done: 4, total: 4 } });
    expect(done.errors).toEqual([{ line: 4, diagnostics: 'the line is not JSON' }]);
  });

  it('refuses a URL outside the allow-list (403) and never fetches it', async () => {
    elsewhere.files.set('/fhir/Patient.ndjson', [200, ndjson([patient('evil')])]);
    for (const url of [`${elsewhere.base}/fhir/Patient.ndjson`, `${allowed.base}/admin/Patient.ndjson`, `${allowed.base}/fhirish/x`]) {
      const res = await t()
        .http()
        .post('/api/fhir/$import')
        .set(cast.admin.auth)
        .send({ inputFormat: 'application/fhir+ndjson', input: [{ type: 'Patient', url }] });
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 403, code: 'import_source_not_allowed' });
    }
    expect(elsewhere.hits).toEqual([]);
    expect(allowed.hits.filter((h) => !h.startsWith('/fhir/'))).toEqual([]);
  });

  it('does not follow a redirect off the allow-list: the import fails and the other server is never asked', async () => {
    allowed.files.set('/fhir/moved.ndjson', [302, '', { location: `${elsewhere.base}/fhir/Patient.ndjson` }]);
    const before = await storeSnapshot();
    const res = await t()
      .http()
      .post('/api/fhir/$import')
      .set(cast.admin.auth)
      .send({ inputFormat: 'application/fhir+ndjson', input: [{ type: 'Patient', url: `${allowed.base}/fhir/moved.ndjson` }] });
    const done = await finished(res.body.id);
    expect(done.status).toBe('failed');
    expect(done.failure).toMatch(/not under an allow-listed FHIR server/);
    expect(elsewhere.hits).toEqual([]);
    expect(await storeSnapshot()).toBe(before);
  });

  it('refuses a malformed request (400 naming the field)', async () => {
    const res = await t()
      .http()
      .post('/api/fhir/$import')
      .set(cast.admin.auth)
      .send({ inputFormat: 'application/json', input: [{ type: 'patient', url: 'ftp://x' }] });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(['inputFormat', 'input[0].type', 'input[0].url']);
  });
});

describe('a job that fails', () => {
  it('an input that answers 500 after another was read: the import fails with the reason and the store is exactly as before', async () => {
    allowed.files.set('/fhir/good.ndjson', [200, ndjson([patient('fail-a'), observation('fail-a-1', 'fail-a'), patient('imp-a')])]);
    allowed.files.set('/fhir/broken.ndjson', [500, 'boom']);
    const before = await storeSnapshot();
    const res = await t()
      .http()
      .post('/api/fhir/$import')
      .set(cast.admin.auth)
      .send({
        inputFormat: 'application/fhir+ndjson',
        input: [
          { type: 'Patient', url: `${allowed.base}/fhir/good.ndjson` },
          { type: 'Observation', url: `${allowed.base}/fhir/broken.ndjson` },
        ],
      });
    expect(res.status).toBe(202);
    const done = await finished(res.body.id);
    expect(done.status).toBe('failed');
    expect(done.failure).toMatch(/broken\.ndjson answered 500/);
    expect(done.stored).toBe(0);
    expect(await storeSnapshot()).toBe(before);
    expect(await staged()).toBe(0);
  });

  it('an unreachable server: failed with the reason, nothing stored', async () => {
    const before = await storeSnapshot();
    const res = await t()
      .http()
      .post('/api/fhir/$import')
      .set(cast.admin.auth)
      .send({ inputFormat: 'application/fhir+ndjson', input: [{ type: 'Patient', url: `${unreachable}/r4/Patient.ndjson` }] });
    expect(res.status).toBe(202);
    const done = await finished(res.body.id);
    expect(done.status).toBe('failed');
    expect(done.failure).toMatch(/could not be fetched/);
    expect(await storeSnapshot()).toBe(before);
    expect(await staged()).toBe(0);
  });
});

describe('an import cut short', () => {
  it('resumes after a restart at its first uncommitted chunk, and stores every resource once', async () => {
    const app = setup.t.runtime.app;
    const repo = app.get(RecordImportsRepository);
    const service = app.get(RecordImportsService);
    const resources = Array.from({ length: 9 }, (_, i) =>
      i % 3 === 0 ? patient(`resume-${i}`) : observation(`resume-${i}`, `resume-${i - (i % 3)}`),
    );
    // As a process that died mid-import leaves it: running, chunk 0 committed, chunk 1 done but not committed.
    const created = await repo.create(cast.admin.id, null, chunkLines(ndjson(resources), 2));
    await repo.markRunning(created.id);
    expect(await service.processChunk(created.id, 0)).toBe(true);
    // A second run of a committed chunk (the dead process's retry racing the new one) changes nothing.
    expect(await service.processChunk(created.id, 0)).toBe(false);
    expect((await job(created.id)).progress).toEqual({ done: 2, total: 9 });
    expect(Number((await setup.t.db.query(`SELECT count(*) AS n FROM fhir_resources WHERE id LIKE 'resume-%'`))[0].n)).toBe(0);

    // What start-up does: the database says what is unfinished, and the queue takes it up again.
    expect(await app.get(RecordImportsRunner).resume('test')).toBeGreaterThanOrEqual(1);
    const done = await finished(created.id);
    expect(done).toMatchObject({ status: 'completed', stored: 9, progress: { done: 9, total: 9 }, invalid: 0 });
    const rows: { version_id: number }[] = await setup.t.db.query(`SELECT version_id FROM fhir_resources WHERE id LIKE 'resume-%'`);
    expect(rows).toHaveLength(9);
    expect(rows.every((r) => r.version_id === 1)).toBe(true);
  });

  (SEPARATE_WORKER ? it : it.skip)(
    'a worker killed mid-import: the next worker finishes it, every resource once (BullMQ)',
    async () => {
      const resources = Array.from({ length: 400 }, (_, i) =>
        i % 4 === 0 ? patient(`kill-${i}`) : observation(`kill-${i}`, `kill-${i - (i % 4)}`),
      );
      const res = await upload(ndjson(resources));
      expect(res.status).toBe(202);
      const id = res.body.id as string;
      await waitFor(async () => (await job(id)).progress.done >= 20, {
        timeoutMs: 60_000,
        intervalMs: 20,
        what: 'the import to be under way',
      });
      await Promise.all(setup.workers.map((w) => w.stop('SIGKILL')));
      const cut = await job(id);
      expect(cut.status).toBe('running');
      expect(cut.progress.done).toBeLessThan(400);
      expect(Number((await setup.t.db.query(`SELECT count(*) AS n FROM fhir_resources WHERE id LIKE 'kill-%'`))[0].n)).toBe(0);

      await setup.startWorker().ready;
      const done = await finished(id, 90_000);
      expect(done).toMatchObject({ status: 'completed', stored: 400, invalid: 0, progress: { done: 400, total: 400 } });
      const rows: { version_id: number }[] = await setup.t.db.query(`SELECT version_id FROM fhir_resources WHERE id LIKE 'kill-%'`);
      expect(rows).toHaveLength(400);
      expect(rows.every((r) => r.version_id === 1)).toBe(true);
    },
    150_000,
  );
});

describe('a worker stopped gracefully', () => {
  (SEPARATE_WORKER ? it : it.skip)(
    'SIGTERM mid-import: the worker exits after the chunk in hand, the import stays running, and the next worker finishes it (BullMQ)',
    async () => {
      const resources = Array.from({ length: 400 }, (_, i) =>
        i % 4 === 0 ? patient(`term-${i}`) : observation(`term-${i}`, `term-${i - (i % 4)}`),
      );
      if (!setup.workers.some((w) => w.child.exitCode === null && w.child.signalCode === null)) await setup.startWorker().ready;
      const res = await upload(ndjson(resources));
      const id = res.body.id as string;
      await waitFor(async () => (await job(id)).progress.done >= 20, {
        timeoutMs: 60_000,
        intervalMs: 20,
        what: 'the import to be under way',
      });
      const codes = await Promise.all(setup.workers.map((w) => w.stop('SIGTERM')));
      expect(codes.every((c) => c === 0 || c === null)).toBe(true);
      const cut = await job(id);
      expect(cut.status).toBe('running');
      expect(cut.progress.done).toBeLessThan(400);

      await setup.startWorker().ready;
      const done = await finished(id, 90_000);
      expect(done).toMatchObject({ status: 'completed', stored: 400, progress: { done: 400, total: 400 } });
      const rows: { version_id: number }[] = await setup.t.db.query(`SELECT version_id FROM fhir_resources WHERE id LIKE 'term-%'`);
      expect(rows).toHaveLength(400);
      expect(rows.every((r) => r.version_id === 1)).toBe(true);
    },
    150_000,
  );
});

describe('who may import', () => {
  it('401 without a token, 403 for a PCP, on the import and on the jobs', async () => {
    const body = ndjson([patient('nobody')]);
    expect((await t().http().post('/api/fhir/$import').set('Content-Type', 'application/fhir+ndjson').send(body)).status).toBe(401);
    expect((await upload(body, cast.pcp)).status).toBe(403);
    expect((await t().http().get('/api/jobs')).status).toBe(401);
    expect((await t().http().get('/api/jobs').set(cast.pcp.auth)).status).toBe(403);
    const mine = await upload(body);
    expect((await t().http().get(`/api/jobs/${mine.body.id}`).set(cast.pcp.auth)).status).toBe(403);
    expect((await t().http().get(`/api/jobs/00000000-0000-4000-8000-000000000000`).set(cast.admin.auth)).status).toBe(404);
    await finished(mine.body.id);
  });
});
