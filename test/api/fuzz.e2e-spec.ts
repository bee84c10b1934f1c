import { startTestApp, type TestApp } from '../support/app';
import { callPatientView, observationBundle, registerCdsClient, startCdsClient, type CdsClientKeys } from '../support/cds-hooks';
import { action, cond, createFromTemplate, createPublishedRuleSet, seedTemplates } from '../support/clinical-factories';
import { createCast } from '../support/factories';

// Issues 10 and 24: hostile bodies on every write route of the OpenAPI document, as anonymous, pcp and
// admin users, and on the CDS Hooks routes as a registered EHR with a valid client JWT. No response
// may be >= 500, and a batch whose requests were all refused must leave every table's row count as
// it was (nothing half-written).
jest.setTimeout(240_000);

const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const CONCURRENCY = 16;
const BATCH = 16;

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  nullable?: boolean;
  format?: string;
  examples?: unknown[];
  example?: unknown;
};
interface Operation {
  parameters?: { name: string; in: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
interface Route {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query: Record<string, string>;
  schema?: Schema;
  contentType: string;
}
type Role = 'anonymous' | 'pcp' | 'admin' | 'ehr';
interface Attempt {
  route: Route;
  role: Role;
  url: string;
  body: string;
  kind: string;
}

// Deterministic: a failure reproduces with the same seed.
let seed = Number(process.env.FUZZ_SEED ?? 20261123);
const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let ehr: CdsClientKeys;
let components: Record<string, Schema> = {};
/** Values that exist, by field name (the cards a hook call returned), so a mutation gets past the look-up. */
const realValues = new Map<string, string[]>();

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  // A published rule set and a registered EHR, so the mutations also reach hook evaluation, the
  // questionnaire and the impact preview behind their look-ups.
  const templates = await seedTemplates(t, cast.admin);
  const a1c = await createFromTemplate(t, cast.admin, templates.hba1c, { name: 'hba1c_fuzz' });
  await createPublishedRuleSet(t, cast.admin, [
    { name: 'Diabetes by HbA1c', priority: 1, conditions: [cond(a1c, '>=', 6.5)], actions: [action('Confirm the diagnosis')] },
  ]);
  ehr = await startCdsClient('https://ehr.fuzz.example.org');
  await registerCdsClient(t, cast.admin, ehr);
  const cards: string[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await callPatientView(t, ehr, `p${i}`, {
      [`obs-${a1c.loinc_code}`]: observationBundle(`p${i}`, a1c.loinc_code!, 7.2, '%', new Date().toISOString()),
    });
    cards.push(...(res.body.cards ?? []).map((c: { uuid: string }) => c.uuid));
  }
  expect(cards.length).toBeGreaterThanOrEqual(10);
  realValues.set('card', cards);
});
afterAll(async () => {
  await ehr?.close();
  await t?.close();
});

function resolveSchema(s: Schema | undefined, depth = 0): Schema | undefined {
  if (!s || depth > 8) return s;
  if (s.$ref) return resolveSchema(components[s.$ref.split('/').pop()!], depth + 1);
  if (s.allOf?.length) return resolveSchema(s.allOf[0], depth + 1);
  return s;
}

/** A plausible value for a schema: the base that the mutations then spoil. */
function sample(s: Schema | undefined, depth = 0): unknown {
  const r = resolveSchema(s);
  if (!r || depth > 5) return 'x';
  if (r.enum?.length) return pick(r.enum);
  if (r.examples?.length || r.example !== undefined) return structuredClone(r.examples?.[0] ?? r.example);
  switch (Array.isArray(r.type) ? r.type.find((x) => x !== 'null') : r.type) {
    case 'string':
      return r.format === 'uuid'
        ? '00000000-0000-4000-8000-000000000000'
        : r.format === 'email'
          ? `fuzz${Math.floor(rand() * 1e9)}@clinic.test`
          : 'Fuzz value';
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [sample(r.items, depth + 1)];
    default: {
      // Optional fields half the time: a hostile value in one must not hide the others behind a 400.
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(r.properties ?? {}))
        if (r.required?.includes(k) || rand() < 0.5) out[k] = realValues.has(k) ? pick(realValues.get(k)!) : sample(v, depth + 1);
      return out;
    }
  }
}

const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { a: nested(depth - 1) });
const HOSTILE_VALUES: [string, () => unknown][] = [
  ['huge string', () => 'A'.repeat(60_000)],
  ['NUL', () => 'a\u0000b'],
  ['lone high surrogate', () => 'x\ud800'],
  ['lone low surrogate', () => '\udfffx'],
  ['number as string', () => '42'],
  ['NaN-like', () => pick(['NaN', 'Infinity', '-Infinity', '1e400', '0x1F', '--1', ''])],
  ['huge number', () => pick([1e308, -1e308, 2 ** 53 + 1, -0, 0.1 + 0.2, 1e-320])],
  ['array for value', () => [1, 'two', { three: 3 }]],
  ['object for value', () => ({ nested: { deeper: [null] } })],
  ['null', () => null],
  ['boolean', () => pick([true, false])],
  ['deep nesting', () => nested(30)],
  ['SQL-ish', () => pick(["'; DROP TABLE users; --", '%_\\', '$1', '\\x00'])],
  ['unicode', () => pick(['𝒜😀', '\u202Etxt', 'e\u0301', '\uFEFF'])],
  ['blank', () => pick([' ', '\t\n', '\u00a0'])],
  // Dates JavaScript parses and PostgreSQL refuses (or that decide "within N days" for every rule).
  ['extreme date', () => pick(['+275760-09-13T00:00:00Z', '-271821-04-20T00:00:00Z', '0000-01-01T00:00:00Z', '9999-12-31', '1'])],
];

/** `value` with a hostile value somewhere inside it (or instead of it); `path` gets where. */
function spoil(value: unknown, make: () => unknown, path: string[]): unknown {
  if (Array.isArray(value) && value.length && rand() < 0.8) {
    const i = Math.floor(rand() * value.length);
    path.push(String(i));
    return value.map((v, j) => (j === i ? spoil(v, make, path) : v));
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length && rand() < 0.8) {
    const key = pick(Object.keys(value));
    path.push(key);
    return { ...value, [key]: spoil((value as Record<string, unknown>)[key], make, path) };
  }
  return make();
}

/** One hostile body for a route. Returns raw JSON text (some bodies are not valid JSON at all). */
function hostileBody(route: Route): { kind: string; body: string } {
  const base = sample(route.schema);
  const obj = base && typeof base === 'object' && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
  const keys = Object.keys(obj);
  const roll = rand();
  if (roll < 0.05) {
    return pick([
      { kind: 'raw deep nesting', body: '{"a":'.repeat(3000) + '1' + '}'.repeat(3000) },
      { kind: 'raw truncated', body: JSON.stringify(obj).slice(0, -1) },
      { kind: 'raw array', body: '[' + JSON.stringify(obj) + ']' },
      { kind: 'raw scalar', body: pick(['"text"', '12', 'null', 'true']) },
      { kind: 'raw empty object', body: '{}' },
    ]);
  }
  if (roll < 0.1) {
    const key = pick(['__proto__', 'constructor', 'prototype']);
    return {
      kind: `proto key ${key}`,
      body: JSON.stringify(obj).replace(/^\{/, `{"${key}":{"role":"super_admin"}${keys.length ? ',' : ''}`),
    };
  }
  if (roll < 0.17) return { kind: 'extra field', body: JSON.stringify({ ...obj, [pick(['role', 'id', 'is_admin', 'x'])]: 'super_admin' }) };
  if (roll < 0.27 && keys.length) {
    const drop = pick(keys);
    const { [drop]: _dropped, ...rest } = obj;
    return { kind: `missing ${drop}`, body: JSON.stringify(rest) };
  }
  // Swap one or more fields, or a field nested in objects and lists (feedback[0].outcomeTimestamp), for hostile values.
  const mutated = structuredClone(obj);
  const targets = keys.length ? keys : ['value'];
  const n = 1 + Math.floor(rand() * Math.min(3, targets.length));
  const kinds: string[] = [];
  for (let i = 0; i < n; i++) {
    const key = pick(targets);
    const [kind, make] = pick(HOSTILE_VALUES);
    const path: string[] = [key];
    mutated[key] = spoil(mutated[key], make, path);
    kinds.push(`${path.join('.')}:${kind}`);
  }
  return { kind: kinds.join(','), body: JSON.stringify(mutated) };
}

let countAll = '';
async function tableCounts(): Promise<string> {
  if (!countAll) {
    let tables: { table_name: string }[] = await t.db.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    );
    // A hook call refused after its client JWT was verified still spends the jti, by design (a replay
    // stays a replay whatever the body): that row is no half-written call.
    tables = tables.filter((x) => x.table_name !== 'cds_seen_jtis');
    countAll = tables.map((x) => `SELECT '${x.table_name}' AS t, count(*)::int AS n FROM "${x.table_name}"`).join(' UNION ALL ');
  }
  const rows: { t: string; n: number }[] = await t.db.query(countAll);
  return rows.map((r) => `${r.t}=${r.n}`).join(' ');
}

it(`sends ${TOTAL} hostile bodies to every write route: no 5xx, nothing half-written`, async () => {
  const doc = (await t.http().get('/api/docs-json')).body as {
    paths: Record<string, Record<string, Operation>>;
    components?: { schemas?: Record<string, Schema> };
  };
  components = doc.components?.schemas ?? {};

  // Real ids where a list exists, so the mutations also reach the code behind the lookup.
  const realIds = new Map<string, string>();
  for (const resource of ['parameters', 'rule-sets', 'rules', 'invitations', 'approvals', 'assessments', 'chat-sessions', 'cds-clients']) {
    const res = await t.http().get(`/api/${resource}`).set(cast.admin.auth);
    if (res.status === 200 && Array.isArray(res.body) && res.body[0]?.id) realIds.set(resource, res.body[0].id);
  }
  realIds.set('users', cast.none.id); // never the fuzzing admin's own account
  realIds.set('cds-services', 'patient-view');
  // The fuzzing EHR must stay registered: the client routes edit and delete another one.
  const other = await startCdsClient('https://other-ehr.fuzz.example.org');
  await other.close();
  realIds.set('cds-clients', (await registerCdsClient(t, cast.admin, other)).id);
  realIds.set('fhir', realIds.get('rule-sets')!); // a Questionnaire's id is its rule set's

  const routes: Route[] = [];
  const writeRoutes: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const m = method.toUpperCase();
      if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(m)) continue;
      writeRoutes.push(`${m} ${path}`);
      // Signing out would end the fuzzing users' own sessions.
      if (path === '/api/auth/logout') continue;
      const query: Record<string, string> = {};
      for (const p of op.parameters ?? []) {
        if (p.in === 'query') {
          const s = resolveSchema(p.schema);
          query[p.name] = String(s?.enum?.[0] ?? (p.name === 'grant_type' ? 'password' : 'x'));
        }
      }
      const [contentType, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? ['application/json', {}];
      routes.push({ method: m as Route['method'], path, query, schema: media.schema, contentType });
    }
  }
  // Every write route of the document but sign-out, so a new route is fuzzed without anyone listing it;
  // the routes whose bodies only the service checks (CDS Hooks, FHIR) document them with @ContractBody.
  expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(writeRoutes.filter((r) => r !== 'POST /api/auth/logout'));
  expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
    expect.arrayContaining([
      'POST /api/cds-services/{id}',
      'POST /api/cds-services/{id}/feedback',
      'POST /api/cds-clients',
      'PUT /api/cds-clients/{id}',
      'POST /api/fhir/Questionnaire/{id}/$next-question',
      'POST /api/rule-sets/{id}/impact-preview',
    ]),
  );
  for (const r of routes.filter((x) => x.path.startsWith('/api/cds-services/') || x.path.includes('$next-question')))
    expect({ route: `${r.method} ${r.path}`, documented: resolveSchema(r.schema) !== undefined }).toEqual({
      route: `${r.method} ${r.path}`,
      documented: true,
    });

  const tokens = { anonymous: undefined, pcp: cast.pcp.access_token, admin: cast.admin.access_token } as const;
  // A CDS Hooks route is called by an EHR, not a user: mostly with a valid client JWT, so the body is read.
  const rolesOf = (route: Route): readonly Role[] =>
    route.path.startsWith('/api/cds-services/') ? ['anonymous', 'ehr', 'ehr'] : ['anonymous', 'pcp', 'admin'];
  const attempts: Attempt[] = [];
  while (attempts.length < TOTAL) {
    const route = routes[attempts.length % routes.length];
    const role = rolesOf(route)[Math.floor(attempts.length / routes.length) % 3];
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const resource = route.path.split('/')[2];
      const roll = rand();
      if (roll < 0.1) return pick(['not-a-uuid', '%00', '..', '00000000-0000-0000-0000-00000000000g']);
      if (roll < 0.25) return '5d1f0e6e-0000-4000-8000-000000000000';
      return realIds.get(resource) ?? '5d1f0e6e-0000-4000-8000-000000000001';
    });
    const qs = new URLSearchParams(route.query).toString();
    const { kind, body } = hostileBody(route);
    attempts.push({ route, role, url: `${t.url}${path}${qs ? `?${qs}` : ''}`, body, kind });
  }

  const failures: string[] = [];
  const halfWritten: string[] = [];
  const statuses = new Map<number, number>();
  const byRoute = new Map<string, Set<number>>();
  let verifiedRejected = 0;
  const started = Date.now();

  const send = async (a: Attempt) => {
    const headers: Record<string, string> = { 'content-type': a.route.contentType };
    // A fresh client JWT per call (a jti is used once), for the URL called.
    const token = a.role === 'ehr' ? await ehr.sign(a.url.split('?')[0]) : tokens[a.role];
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(a.url, { method: a.route.method, headers, body: a.body });
    await res.arrayBuffer();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const key = `${a.route.method} ${a.route.path}`;
    byRoute.set(key, (byRoute.get(key) ?? new Set()).add(res.status));
    if (res.status >= 500)
      failures.push(`${res.status} ${a.route.method} ${a.route.path} as ${a.role} (${a.kind}): ${a.body.slice(0, 160)}`);
    return res.status;
  };

  let before = await tableCounts();
  for (let i = 0; i < attempts.length; i += BATCH) {
    const batch = attempts.slice(i, i + BATCH);
    const results: number[] = [];
    for (let j = 0; j < batch.length; j += CONCURRENCY) results.push(...(await Promise.all(batch.slice(j, j + CONCURRENCY).map(send))));
    // Only a batch in which every request was refused can be checked: accepted writes change counts legitimately.
    const after = await tableCounts();
    if (results.every((s) => s >= 400)) {
      if (after !== before)
        halfWritten.push(
          `batch ${i / BATCH}: ${batch.map((a) => `${a.route.method} ${a.route.path} (${a.kind})`).join('; ')}\n  before ${before}\n  after  ${after}`,
        );
      else verifiedRejected += batch.length;
    }
    before = after;
  }
  const seconds = (Date.now() - started) / 1000;
  const hooks = [...byRoute].filter(([route]) => /cds-|fhir|impact-preview/.test(route));
  console.log(hooks.map(([route, seen]) => `${route}: ${[...seen].sort().join(' ')}`).join('\n'));
  console.log(
    `fuzz: ${attempts.length} hostile requests over ${routes.length} write routes x 3 roles (an EHR's client JWT on CDS Hooks) in ${seconds.toFixed(1)} s ` +
      `(${Math.round(attempts.length / seconds)} req/s); ${failures.length} responses >= 500; ` +
      `${verifiedRejected} refused requests checked for half-written rows; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
  );
  expect(failures.slice(0, 30)).toEqual([]);
  // The EHR's token got the CDS Hooks bodies read: each route answered something besides 401.
  for (const route of ['POST /api/cds-services/{id}', 'POST /api/cds-services/{id}/feedback'])
    expect({ route, beyondAuth: [...(byRoute.get(route) ?? [])].some((x) => x !== 401) }).toEqual({ route, beyondAuth: true });
  expect(halfWritten.slice(0, 5)).toEqual([]);
  expect(attempts.length).toBeGreaterThanOrEqual(10_000);
});
