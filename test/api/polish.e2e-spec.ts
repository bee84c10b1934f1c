import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { POLISH_QUEUE } from '../../backend/src/modules/polish/polish.constants';
import { polishInputHash } from '../../backend/src/modules/polish/polish-input';
import { PolishService } from '../../backend/src/modules/polish/polish.service';
import type { TestApp } from '../support/app';
import { createCast, setRole, type TestUser } from '../support/factories';
import { waitFor } from '../support/polling';
import { startPolishApp, type PolishSetup } from '../support/polish-setup';

/**
 * Question polishing end to end: the endpoint, jobs queued by parameter saves and on demand,
 * the stored question, the admin override, the status and the dashboard. Runs on whichever
 * setup the environment names: in-process runner (no REDIS_URL), BullMQ with the API
 * consuming (embedded database), or BullMQ with a separate worker process (CI).
 */
const REDIS_URL = process.env.REDIS_URL;

let setup: PolishSetup;
let t: TestApp;
let cast: Record<'super_admin' | 'admin' | 'pcp' | 'none', TestUser>;

beforeAll(async () => {
  setup = await startPolishApp();
  t = setup.t;
  cast = await createCast(t);
}, 120_000);

afterAll(async () => {
  await setup?.close();
});

let seq = 0;
async function createParameter(overrides: Record<string, unknown> = {}) {
  seq += 1;
  const res = await t
    .http()
    .post('/api/parameters')
    .set(cast.admin.auth)
    .send({
      name: `hba1c_${seq}`,
      display_name: 'HbA1c',
      data_type: 'number',
      category: 'labs',
      units: '%',
      ...overrides,
    });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; display_name: string };
}

async function getParameter(id: string) {
  const res = await t.http().get(`/api/parameters/${id}`).set(cast.admin.auth);
  expect(res.status).toBe(200);
  return res.body as Record<string, any>;
}

async function polishedFor(id: string, check: (p: Record<string, any>) => boolean = (p) => Boolean(p.polished_question)) {
  let last: Record<string, any> = {};
  await waitFor(async () => check((last = await getParameter(id))), { what: `polished question of ${id}` });
  return last;
}

const polish = (user: TestUser | undefined, body: unknown) => {
  const req = t.http().post('/api/polish-question');
  return (user ? req.set(user.auth) : req).send(body as object);
};

describe('POST /api/polish-question', () => {
  it('answers any signed-in user with clinical wording, even for an unknown parameter', async () => {
    const res = await polish(cast.none, { displayName: 'HbA1c', parameterName: 'not_in_catalogue' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ polishedQuestion: "What is the patient's HbA1c?" });
  });

  it('needs a signed-in user', async () => {
    const res = await polish(undefined, { displayName: 'HbA1c', parameterName: 'hba1c' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });

  it("borrows a known parameter's category, data type and units", async () => {
    const p = await createParameter({ name: 'fasting_glucose', display_name: 'Fasting Glucose', units: 'mg/dL' });
    const res = await polish(cast.pcp, { displayName: 'Fasting Plasma Glucose', parameterName: 'FASTING_GLUCOSE' });
    expect(res.status).toBe(200);
    expect(res.body.polishedQuestion).toBe("What was the patient's most recent fasting plasma glucose result (mg/dL)?");
    await polishedFor(p.id);
  });

  it.each([
    [{}, ['displayName', 'parameterName']],
    [{ displayName: 5, parameterName: 'x' }, ['displayName']],
    [{ displayName: '   ', parameterName: 'x' }, ['displayName']],
    [{ displayName: 'x'.repeat(201), parameterName: 'x' }, ['displayName']],
    [{ displayName: 'HbA1c', parameterName: null }, ['parameterName']],
    [{ displayName: 'HbA1c', parameterName: 'hba1c', patient: 'Jane' }, ['patient']],
  ])('refuses the invalid body %j with the docs/api.md error shape', async (body, fields) => {
    const res = await polish(cast.pcp, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'validation_failed', message: expect.any(String) });
    expect([...new Set((res.body.details as Array<{ field: string }>).map((d) => d.field))].sort()).toEqual(fields);
  });
});

describe('polishing jobs', () => {
  it('stores a polished question on a new parameter, and the chat text and the endpoint use it', async () => {
    const p = await createParameter();
    const stored = await polishedFor(p.id);
    expect(stored).toMatchObject({
      polished_question: "What was the patient's most recent HbA1c result (%)?",
      polished_provider: 'built-in',
      polished_input_hash: polishInputHash({ name: p.name, display_name: 'HbA1c', category: 'labs', data_type: 'number', units: '%' }),
      question_override: null,
      question_text: "What was the patient's most recent HbA1c result (%)?",
    });
    expect(Date.parse(stored.polished_at)).not.toBeNaN();
    const res = await polish(cast.pcp, { displayName: 'HbA1c', parameterName: p.name });
    expect(res.body.polishedQuestion).toBe(stored.polished_question);
  });

  it('polishes again when the display name changes', async () => {
    const p = await createParameter();
    const first = await polishedFor(p.id);
    const res = await t.http().put(`/api/parameters/${p.id}`).set(cast.admin.auth).send({ display_name: 'Glycated Haemoglobin' });
    expect(res.status).toBe(200);
    const second = await polishedFor(p.id, (x) => x.polished_input_hash !== first.polished_input_hash);
    expect(second.polished_question).toBe("What was the patient's most recent glycated haemoglobin result (%)?");
    expect(second.question_text).toBe(second.polished_question);
  });

  it("never replaces an admin's override", async () => {
    const p = await createParameter();
    const first = await polishedFor(p.id);
    const override = 'What was the most recent A1c, in percent?';
    expect((await t.http().put(`/api/parameters/${p.id}`).set(cast.admin.auth).send({ question_override: override })).status).toBe(200);

    // A new input: the worker polishes it but leaves the override alone.
    await t.http().put(`/api/parameters/${p.id}`).set(cast.admin.auth).send({ display_name: 'Hemoglobin A1c' }).expect(200);
    const renamed = await polishedFor(p.id, (x) => x.polished_input_hash !== first.polished_input_hash);
    expect(renamed).toMatchObject({ question_override: override, question_text: override });
    expect(renamed.polished_question).toBe("What was the patient's most recent hemoglobin A1c result (%)?");

    // On demand, same input: runs again, still leaves the override alone.
    const queued = await t.http().post(`/api/parameters/${p.id}/polish`).set(cast.admin.auth).send();
    expect(queued.status).toBe(202);
    const again = await polishedFor(p.id, (x) => Date.parse(x.polished_at) > Date.parse(renamed.polished_at));
    expect(again).toMatchObject({ question_override: override, question_text: override });
    const res = await polish(cast.pcp, { displayName: 'Hemoglobin A1c', parameterName: p.name });
    expect(res.body.polishedQuestion).toBe(override);
  });

  it('queues on demand: 202 with the job id made of the parameter id and input hash', async () => {
    const p = await createParameter();
    const stored = await polishedFor(p.id);
    const res = await t.http().post(`/api/parameters/${p.id}/polish`).set(cast.super_admin.auth).send();
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      job_id: `polish-${p.id}-${stored.polished_input_hash}`,
      parameter_id: p.id,
      status: expect.stringMatching(/^(queued|already_queued)$/),
    });
    const missing = await t.http().post(`/api/parameters/${randomUUID()}/polish`).set(cast.admin.auth).send();
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ statusCode: 404, code: 'not_found' });
  });

  it('catches up at start-up on parameters saved without a job (sweep)', async () => {
    const [row] = await t.db.query(
      `INSERT INTO parameters (name, display_name, data_type, category, units) VALUES ('bp_sys_sweep', 'Systolic BP', 'number', 'vitals', 'mmHg') RETURNING id`,
    );
    expect(await t.runtime.app.get(PolishService).sweep()).toBeGreaterThanOrEqual(1);
    const stored = await polishedFor(row.id);
    expect(stored.polished_question).toBe("What is the patient's current systolic BP (mmHg)?");
  });

  it('skips a job whose parameter was deleted or changed since, and refuses a malformed payload for good', async () => {
    const service = t.runtime.app.get(PolishService);
    const p = await createParameter();
    await polishedFor(p.id);
    expect(await service.polishStoredParameter({ parameterId: randomUUID(), inputHash: 'a'.repeat(64) })).toEqual({
      status: 'skipped',
      reason: 'deleted',
    });
    expect(await service.polishStoredParameter({ parameterId: p.id, inputHash: 'b'.repeat(64) })).toEqual({
      status: 'skipped',
      reason: 'stale',
    });
    await expect(service.polishStoredParameter({ parameterId: 'nope', inputHash: 'c' } as never)).rejects.toMatchObject({
      name: 'UnrecoverableError',
    });
  });

  (REDIS_URL ? it : it.skip)('puts only the parameter id and the input hash in the Redis payload', async () => {
    const p = await createParameter({ description: 'Patient-facing text must not travel' });
    const stored = await polishedFor(p.id);
    const connection = new IORedis(REDIS_URL!, { maxRetriesPerRequest: 1 });
    const queue = new Queue(POLISH_QUEUE, { connection, prefix: setup.prefix });
    try {
      const job = await queue.getJob(`polish-${p.id}-${stored.polished_input_hash}`);
      expect(job?.data).toEqual({ parameterId: p.id, inputHash: stored.polished_input_hash });
      expect(job?.opts).toMatchObject({ attempts: 3, backoff: { type: 'exponential' } });
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });
});

describe('GET /api/polish/status', () => {
  it('reports the driver, the provider and the job counts', async () => {
    const res = await t.http().get('/api/polish/status').set(cast.admin.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      driver: REDIS_URL ? 'bullmq' : 'in-process',
      provider: 'built-in',
      counts: {
        waiting: expect.any(Number),
        active: expect.any(Number),
        completed: expect.any(Number),
        failed: expect.any(Number),
        delayed: expect.any(Number),
      },
    });
    expect(res.body.counts.completed).toBeGreaterThan(0);
    expect(res.body.counts.failed).toBe(0);
  });
});

describe('queue dashboard (Bull Board)', () => {
  const mint = (user: TestUser) => t.http().post('/api/polish/dashboard-link').set(user.auth).send();

  (REDIS_URL ? it.skip : it)('does not exist without Redis', async () => {
    const res = await mint(cast.admin);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect((await t.http().get('/api/admin/queues')).status).toBe(404);
  });

  (REDIS_URL ? it : it.skip)('opens for an admin through a one-time link, then a dashboard-only cookie', async () => {
    const link = await mint(cast.admin);
    expect(link.status).toBe(201);
    expect(link.body.url).toMatch(/^\/api\/admin\/queues\?ticket=/);
    expect(Date.parse(link.body.expires_at)).toBeGreaterThan(Date.now());

    const open = await t.http().get(link.body.url).redirects(0);
    expect(open.status).toBe(303);
    expect(open.headers.location).toBe('/api/admin/queues/');
    const cookie = String(open.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api\/admin\/queues/);
    const jar = cookie.split(';')[0];

    const page = await t.http().get('/api/admin/queues/').set('Cookie', jar);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Question polishing');
    const queues = await t.http().get('/api/admin/queues/api/queues').set('Cookie', jar);
    expect(queues.status).toBe(200);
    expect(JSON.stringify(queues.body)).toContain(POLISH_QUEUE);

    // A used ticket is spent.
    const replay = await t.http().get(link.body.url).redirects(0);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('unauthorized');
  });

  (REDIS_URL ? it : it.skip)('refuses anyone without a valid link or cookie, and an admin who lost the role', async () => {
    expect((await t.http().get('/api/admin/queues/')).status).toBe(401);
    expect((await t.http().get('/api/admin/queues/api/queues').set('Cookie', 'cds_queue_dashboard=forged.value')).status).toBe(401);
    expect((await t.http().get('/api/admin/queues?ticket=forged.value').redirects(0)).status).toBe(401);

    const demoted = (await t.http().post('/api/polish/dashboard-link').set(cast.super_admin.auth).send()).body.url as string;
    const open = await t.http().get(demoted).redirects(0);
    const jar = String(open.headers['set-cookie']).split(';')[0];
    await setRole(t, cast.super_admin.id, 'pcp');
    try {
      const res = await t.http().get('/api/admin/queues/api/queues').set('Cookie', jar);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    } finally {
      await setRole(t, cast.super_admin.id, 'super_admin');
    }
  });
});
