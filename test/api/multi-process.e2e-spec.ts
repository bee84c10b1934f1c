import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import type { MeasureDraftRuleJson, PanelJson } from '@cds/contracts';
import request from 'supertest';
import { spawnApi, type ApiProcess } from '../support/api-process';
import { createTestDatabase, type TestApp } from '../support/app';
import { callPatientView, expectCardsResponse, observationBundle, registerCdsClient, startCdsClient } from '../support/cds-hooks';
import {
  action,
  cond,
  createFromTemplate,
  createParameter,
  createPublishedRuleSet,
  expectStatus,
  seedTemplates,
  uniqueName,
  type ParameterJson,
} from '../support/clinical-factories';
import { createCast, createUser, PASSWORD, uniqueEmail, type TestUser } from '../support/factories';
import { panelPatientBundle } from '../support/panel-records';
import { LlmServer } from '../support/llm-server';
import { deferred, waitFor } from '../support/polling';
import { dropQueuePrefix, uniqueQueuePrefix } from '../support/queue';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy';
import { spawnWorker, type WorkerProcess } from '../support/worker-process';

/**
 * Issue 13, part 1: two API processes and two workers as real processes on one PostgreSQL
 * database and one Redis, behind a round-robin proxy. Whatever one process decides (a rate
 * limit, a sign-out, a role, a claimed invitation or job) holds on the other at once, and
 * concurrent work spread over both loses nothing.
 */
const SCALE_OUT = Boolean(process.env.REDIS_URL && process.env.DATABASE_URL);
const PER_EMAIL = 4;
const SESSIONS = 200;
const ANSWERS = 10;
const USERS = 8;
const WORKER_CONCURRENCY = 2;
const JWT_SECRET = randomBytes(32).toString('hex');
jest.setTimeout(120_000);

(SCALE_OUT ? describe : describe.skip)('two API processes and two workers on one database and Redis', () => {
  let drop: () => Promise<void>;
  let pool: Pool;
  let prefix: string;
  let llm: LlmServer;
  let apis: ApiProcess[] = [];
  let workers: WorkerProcess[] = [];
  let urls: string[];
  let proxy: RoundRobinProxy;
  let t: TestApp;
  const dirs: string[] = [];
  const direct = (i: number) => request(urls[i]);

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    pool = new Pool({ connectionString: database.url, max: 4 });
    // pool.end() resolves before its connections have closed, so the forced DROP in afterAll can
    // terminate one that is still closing: that is expected, not a failure of the test.
    pool.on('error', () => undefined);
    prefix = uniqueQueuePrefix();
    llm = await new LlmServer().start();
    const env = () => {
      const dir = mkdtempSync(join(tmpdir(), 'cds-scale-'));
      dirs.push(dir);
      return {
        DATABASE_URL: database.url,
        REDIS_URL: process.env.REDIS_URL,
        QUEUE_PREFIX: prefix,
        // One secret for the deployment: a token from one process is good on the other.
        JWT_SECRET,
        DATA_DIR: dir,
        PORT: '0',
        AUTH_RATE_LIMIT_PER_IP: '100000',
        AUTH_RATE_LIMIT_PER_EMAIL: String(PER_EMAIL),
        POLISH_LLM_URL: llm.url,
        POLISH_LLM_MODEL: 'test-model',
        // Held LLM requests must outlast the concurrency check below.
        POLISH_LLM_TIMEOUT_MS: '60000',
        WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
      };
    };
    const started = Date.now();
    // Started together on an empty database: both find migrations pending, one runs them.
    apis = [spawnApi(env()), spawnApi(env())];
    urls = (await Promise.all(apis.map((a) => a.ready))).map((u) => u.replace('localhost', '127.0.0.1'));
    workers = [spawnWorker(env()), spawnWorker(env())];
    await Promise.all(workers.map((w) => w.ready));
    proxy = await startRoundRobinProxy(urls);
    process.stdout.write(`multi-process: 2 API processes and 2 workers ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    t = {
      http: () => request(proxy.url),
      db: { query: async (sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows },
    } as unknown as TestApp;
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all([...apis, ...workers].map((p) => p.stop('SIGTERM')));
    await pool?.end();
    await drop?.();
    await llm?.close();
    if (prefix) await dropQueuePrefix(prefix);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  // fetch keeps its connections alive (supertest opens one per request): the load is the API's, not the client's.
  const post = async (path: string, user: TestUser, body: object, status: number) => {
    const res = await fetch(`${proxy.url}${path}`, {
      method: 'POST',
      headers: { ...user.auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== status) throw new Error(`${path}: expected ${status}, got ${res.status} ${text}`);
    return JSON.parse(text);
  };

  /** `users` PCPs and one published rule set finding every one of `count` new 0–10 scales above 5. */
  const allHigh = async (name: string, count: number, users: number): Promise<TestUser[]> => {
    const admin = await createUser(t, 'admin');
    const pcps: TestUser[] = await Promise.all(Array.from({ length: users }, () => createUser(t, 'pcp')));
    const parameters: ParameterJson[] = [];
    for (let i = 0; i < count; i++) {
      const key = `${name.toLowerCase().replace(/\W+/g, '_')}_${i}`;
      parameters.push(await createParameter(t, admin, { name: key, display_name: `${name} ${i}` }));
    }
    await createPublishedRuleSet(t, admin, [
      { name: `${name}: all high`, conditions: parameters.map((p) => cond(p, '>', 5)), actions: [action('Review')] },
    ]);
    return pcps;
  };

  it('migrated the database once although both processes started on it together', async () => {
    const { rows } = await pool.query('SELECT name, count(*)::int AS n FROM migrations GROUP BY name HAVING count(*) > 1');
    expect(rows).toEqual([]);
    expect((await pool.query('SELECT count(*)::int AS n FROM migrations')).rows[0].n).toBeGreaterThan(0);
  });

  it('counts sign-in attempts against one e-mail across both processes', async () => {
    const email = uniqueEmail('target');
    const before = [...proxy.served];
    const statuses: number[] = [];
    for (let i = 0; i < PER_EMAIL + 2; i++)
      statuses.push(
        (
          await t
            .http()
            .post('/api/auth/token?grant_type=password')
            .send({ email, password: `guess ${i}` })
        ).status,
      );
    // Each process alone would allow PER_EMAIL attempts: 2 × PER_EMAIL before the first refusal.
    expect(statuses).toEqual([...Array(PER_EMAIL).fill(400), 429, 429]);
    expect(proxy.served.map((n, i) => n - before[i])).toEqual([(PER_EMAIL + 2) / 2, (PER_EMAIL + 2) / 2]);
    // The right password is refused too while the window lasts, on either process.
    for (const i of [0, 1])
      expect((await direct(i).post('/api/auth/token?grant_type=password').send({ email, password: PASSWORD })).status).toBe(429);
  });

  it('a sign-out on one process ends the session on the other at once', async () => {
    const user = await createUser(t, 'pcp');
    expect((await direct(1).get('/api/auth/user').set(user.auth)).status).toBe(200);
    expect((await direct(0).post('/api/auth/logout?scope=local').set(user.auth)).status).toBe(204);
    expect((await direct(1).get('/api/auth/user').set(user.auth)).status).toBe(401);
    expect((await direct(0).get('/api/auth/user').set(user.auth)).status).toBe(401);
  });

  it('a role change on one process applies on the other at the next request', async () => {
    const { super_admin, admin } = await createCast(t);
    const pcp = await createUser(t, 'pcp');
    expect((await direct(1).get('/api/assessments').set(pcp.auth)).status).toBe(200);
    expect((await direct(0).put(`/api/users/${pcp.id}/role`).set(admin.auth).send({ role: null })).status).toBe(200);
    expect((await direct(1).get('/api/assessments').set(pcp.auth)).status).toBe(403);
    expect((await direct(1).put(`/api/users/${pcp.id}/role`).set(super_admin.auth).send({ role: 'pcp' })).status).toBe(200);
    expect((await direct(0).get('/api/assessments').set(pcp.auth)).status).toBe(200);
  });

  it("a name or role change through one process shows in the other's GET /api/auth/user at once", async () => {
    const { admin } = await createCast(t);
    const pcp = await createUser(t, 'pcp', { first_name: 'Tomas', last_name: 'Berg' });
    const own = async (i: number) => (await direct(i).get('/api/auth/user').set(pcp.auth).expect(200)).body;
    // Read twice on each process: the second answer comes from its cache.
    for (const i of [0, 1, 0, 1]) expect((await own(i)).user_metadata).toEqual({ first_name: 'Tomas', last_name: 'Berg', role: 'pcp' });
    expect((await direct(0).patch('/api/me/profile').set(pcp.auth).send({ first_name: 'Tomás', last_name: 'Berg-Lund' })).status).toBe(200);
    expect((await own(1)).user_metadata).toEqual({ first_name: 'Tomás', last_name: 'Berg-Lund', role: 'pcp' });
    expect((await direct(1).put(`/api/users/${pcp.id}/role`).set(admin.auth).send({ role: null })).status).toBe(200);
    expect(await own(0)).toMatchObject({ role: null, user_metadata: { first_name: 'Tomás', last_name: 'Berg-Lund', role: null } });
  });

  it('an invitation raced on both processes is accepted exactly once', async () => {
    const { admin } = await createCast(t);
    const email = uniqueEmail('invited');
    const inv = expectStatus(await t.http().post('/api/invitations').set(admin.auth).send({ email, role: 'pcp' }), 201, 'invite');
    const token = String(inv.body.url).split('/invite/')[1];
    const statuses = await Promise.all(
      Array.from(
        { length: 10 },
        async (_, i) =>
          (
            await direct(i % 2)
              .post('/api/invitations/accept')
              .send({ token, password: PASSWORD })
          ).status,
      ),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409)).toBe(true);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM users WHERE email = $1', [email]);
    expect(rows[0].n).toBe(1);
  });

  it('each polish job runs once; each worker runs at most WORKER_CONCURRENCY jobs at a time', async () => {
    const { admin } = await createCast(t);
    const names = Array.from({ length: 6 }, (_, i) => `Scale Marker ${i} ${randomBytes(2).toString('hex')}`);
    const release = deferred<string>();
    for (const n of names) llm.when(n, { kind: 'hold', release: release.promise });
    const ids = await Promise.all(
      names.map(async (display_name) => {
        const res = await t
          .http()
          .post('/api/parameters')
          .set(admin.auth)
          .send({ name: display_name.toLowerCase().replace(/\W+/g, '_'), display_name, data_type: 'number', category: 'labs' });
        return expectStatus(res, 201, 'create parameter').body.id as string;
      }),
    );
    const inFlight = () => names.filter((n) => llm.requestsFor(n).length > 0).length;
    // Two workers × WORKER_CONCURRENCY 2: four held at once, so both workers take jobs and neither takes more.
    await waitFor(() => inFlight() === 2 * WORKER_CONCURRENCY, { timeoutMs: 60_000, what: 'both workers to fill their slots' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(inFlight()).toBe(2 * WORKER_CONCURRENCY);
    release.resolve('What is the held marker?');
    const polished = async () =>
      (await pool.query('SELECT count(*)::int AS n FROM parameters WHERE id = ANY($1) AND polished_question IS NOT NULL', [ids])).rows[0].n;
    await waitFor(async () => (await polished()) === ids.length, { timeoutMs: 60_000, what: 'every question to be polished' });
    // Late duplicates would show up within the queue's polling: wait a little before counting.
    await new Promise((r) => setTimeout(r, 1000));
    expect(names.map((n) => llm.requestsFor(n).length)).toEqual(names.map(() => 1));
    const { rows } = await pool.query('SELECT DISTINCT polished_provider FROM parameters WHERE id = ANY($1)', [ids]);
    expect(rows).toEqual([{ polished_provider: 'llm' }]);
  });

  it("a rule set or a CDS client deactivated through one process: the other's very next hook call follows", async () => {
    const { admin } = await createCast(t);
    const templates = await seedTemplates(t, admin);
    const a1c = await createFromTemplate(t, admin, templates.hba1c, { name: uniqueName('hba1c') });
    const { ruleSet } = await createPublishedRuleSet(
      t,
      admin,
      [{ name: 'Diabetes by HbA1c', priority: 20, conditions: [cond(a1c, '>=', 6.5)], actions: [action('Confirm the diagnosis')] }],
      { name: uniqueName('ADA 2026') },
    );
    const ehr = await startCdsClient(`https://ehr.example.org/${randomUUID()}`);
    try {
      const client = await registerCdsClient(t, admin, ehr);
      // What an EHR prefetches: the A1C, nothing for the other codes in use, no Patient.
      const templatesNow = (await direct(0).get('/api/cds-services')).body.services[0].prefetch as Record<string, string>;
      const prefetch: Record<string, unknown> = {};
      for (const key of Object.keys(templatesNow)) prefetch[key] = key === 'patient' ? null : { resourceType: 'Bundle', type: 'searchset' };
      prefetch['obs-4548-4'] = observationBundle('p1', '4548-4', 7.2, '%', new Date().toISOString());
      const hook = (i: number) => callPatientView({ http: () => direct(i), url: urls[i] } as unknown as TestApp, ehr, 'p1', prefetch);
      const fired = async (i: number) =>
        expectCardsResponse(expectStatus(await hook(i), 200, `hook on process ${i}`).body).some((c) =>
          c.summary.startsWith('Diabetes by HbA1c:'),
        );
      // Both processes have read their copy.
      expect([await fired(0), await fired(1)]).toEqual([true, true]);
      expectStatus(await direct(0).patch(`/api/rule-sets/${ruleSet.id}/activation`).set(admin.auth).send({ is_active: false }), 200, 'off');
      expect(await fired(1)).toBe(false);
      expectStatus(await direct(1).patch(`/api/rule-sets/${ruleSet.id}/activation`).set(admin.auth).send({ is_active: true }), 200, 'on');
      expect(await fired(0)).toBe(true);
      expectStatus(
        await direct(0)
          .put(`/api/cds-clients/${client.id}`)
          .set(admin.auth)
          .send({ issuer: ehr.issuer, name: 'Example EHR', jwks_url: ehr.jwksUrl, allowed_services: ['patient-view'], is_active: false }),
        200,
        'deactivate client',
      );
      const refused = await hook(1);
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 401, code: 'invalid_client_jwt' });
    } finally {
      await ehr.close();
      // The assessments below decide with their own rule set alone.
      await direct(0).patch(`/api/rule-sets/${ruleSet.id}/activation`).set(admin.auth).send({ is_active: false });
    }
  });

  it("CMS122 published at 8 % through one process: the other's very next Panel and Measure read it", async () => {
    const { admin, pcp } = await createCast(t);
    const CMS122 = 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR';
    expectStatus(
      await t
        .http()
        .post('/api/fhir')
        .set(admin.auth)
        .send(
          panelPatientBundle({
            id: 'mp-hba1c-8-5',
            given: 'Rosa',
            family: 'Eklund',
            birthDate: '1962-02-11',
            hba1c: { value: 8.5, unit: '%' },
          }),
        ),
      200,
      'records',
    );
    const cms122 = async (i: number) =>
      (expectStatus(await direct(i).get('/api/panel').set(pcp.auth), 200, `panel on process ${i}`).body as PanelJson).measures.find(
        (m) => m.id === CMS122,
      )!;
    // Both processes have read the shipped version (and built it).
    const before = await cms122(1);
    expect([before.local_version, (await cms122(0)).local_version]).toEqual([null, null]);
    const shipped = expectStatus(await direct(0).get(`/api/measures/designs/${CMS122}/versions/1`).set(admin.auth), 200, 'v1').body
      .rules as MeasureDraftRuleJson[];
    const rules = shipped.map((r) =>
      r.id === 'cms122-num-elevated' ? { ...r, name: 'Most recent HbA1c or GMI > 8 %', conditions: [{ ...r.conditions[0], value: 8 }] } : r,
    );
    const draft = expectStatus(
      await direct(0).put(`/api/measures/designs/${CMS122}/draft`).set(admin.auth).send({ rules, draft_revision: null }),
      200,
      'draft',
    ).body;
    expectStatus(
      await direct(0)
        .post(`/api/measures/designs/${CMS122}/draft/publish`)
        .set(admin.auth)
        .send({ note: 'Clinic goal: above 8 %', draft_revision: draft.revision }),
      200,
      'publish',
    );
    const after = await cms122(1);
    expect(after.local_version).toMatchObject({ label: '2 (local)', note: 'Clinic goal: above 8 %' });
    expect(after.counts.numerator).toBe(before.counts.numerator + 1);
    const measure = expectStatus(await direct(1).get(`/api/fhir/Measure/${CMS122}`).set(pcp.auth), 200, 'measure').body;
    expect(measure.version).toBe('2 (local)');
  });

  it(`${SESSIONS} concurrent assessments × ${ANSWERS} answers over both processes: nothing lost`, async () => {
    const users = await allHigh('Scale load', ANSWERS, USERS);
    const before = [...proxy.served];
    const started = Date.now();
    await Promise.all(
      Array.from({ length: SESSIONS }, async (_, i) => {
        const user = users[i % USERS];
        let body = await post('/api/assessments', user, { mode: 'clinical' }, 201);
        while (body.current_question) {
          body = await post(
            `/api/assessments/${body.id}/answers`,
            user,
            { parameter_id: body.current_question.parameter_id, value: 6 },
            200,
          );
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const requests = SESSIONS * (ANSWERS + 1);
    process.stdout.write(`multi-process: ${requests} requests in ${seconds.toFixed(1)} s (${(requests / seconds).toFixed(0)} req/s)\n`);
    // Spread evenly: the proxy alternates per request.
    expect(proxy.served.map((n, i) => n - before[i])).toEqual([requests / 2, requests / 2]);
    const { rows } = await pool.query(
      `SELECT count(*)::int AS rows, count(DISTINCT id)::int AS ids,
        count(*) FILTER (WHERE is_completed AND recommendation->>'rule_name' = 'Scale load: all high')::int AS recommended,
        count(*) FILTER (WHERE jsonb_array_length(completed_parameter_ids) = $1 AND jsonb_array_length(answer_details) = $1
          AND (SELECT count(*) FROM jsonb_object_keys(answers)) = $1
          AND (SELECT count(DISTINCT x) FROM jsonb_array_elements_text(completed_parameter_ids) x) = $1)::int AS complete
       FROM assessments`,
      [ANSWERS],
    );
    expect(rows[0]).toEqual({ rows: SESSIONS, ids: SESSIONS, recommended: SESSIONS, complete: SESSIONS });
  }, 240_000);
  it('Diagnostic Assistant conversations answered over both processes in turn: every answer kept, each once, in order', async () => {
    const users = await allHigh('Chat scale', 4, 4);
    // Each process answers every other question of a conversation: its own copy of the row is stale half the time.
    const ids = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const user = users[i % users.length];
        let body = await post('/api/chat-sessions', user, {}, 201);
        while (body.pending?.kind === 'question') {
          body = await post(
            `/api/chat-sessions/${body.id}/answers`,
            user,
            { parameter_id: body.pending.parameter_id, value: 6 + (i % 3) },
            200,
          );
        }
        // Both published "all high" sets match: the conversation offers a choice.
        const chose = body.pending?.kind === 'choice';
        if (chose) body = await post(`/api/chat-sessions/${body.id}/choice`, user, { rule_id: body.pending.options[0].value }, 200);
        expect(body.is_completed).toBe(true);
        return { id: body.id as string, chose };
      }),
    );
    const chose = new Map(ids.map((x) => [x.id, x.chose ? 1 : 0]));
    const { rows } = await pool.query(
      `SELECT id, current_step, jsonb_array_length(answered_parameters) AS answered,
              (SELECT count(DISTINCT x) FROM jsonb_array_elements_text(answered_parameters) x)::int AS distinct_answered,
              (SELECT count(*) FROM jsonb_array_elements(conversation_history) m WHERE m->>'type' = 'answer')::int AS answer_messages,
              (SELECT count(*) FROM jsonb_array_elements(matched_rules) m WHERE m->>'rule_name' = 'Chat scale: all high')::int AS matched
         FROM chatbot_sessions WHERE id = ANY($1) ORDER BY id`,
      [ids.map((x) => x.id)],
    );
    expect(rows).toHaveLength(20);
    // Every question of the published rules answered exactly once (this file's earlier rule sets are published too,
    // and then a choice between the matches follows: an answer message and a step of its own).
    for (const r of rows) {
      expect(r.answered).toBeGreaterThanOrEqual(4);
      expect({ distinct: r.distinct_answered, messages: r.answer_messages, step: r.current_step, matched: r.matched }).toEqual({
        distinct: r.answered,
        messages: r.answered + chose.get(r.id)!,
        step: r.answered + 1 + chose.get(r.id)!,
        matched: 1,
      });
    }
  }, 240_000);
});
