import IORedis from 'ioredis';
import { Queue } from 'bullmq';
import { POLISH_QUEUE } from '../../backend/src/modules/polish/polish.constants';
import { createCast, type TestUser } from '../support/factories';
import { LlmServer } from '../support/llm-server';
import { SEPARATE_WORKER, startPolishApp, type PolishSetup } from '../support/polish-setup';
import { deferred, waitFor } from '../support/polling';
import { spawnWorker } from '../support/worker-process';

/** `npm run worker` as a real process: its start-up rules, graceful SIGTERM, and SIGKILL mid-job. */
describe('worker start-up', () => {
  it('refuses to start without Redis: the in-process runner lives inside npm start', async () => {
    const w = spawnWorker({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' });
    expect(await w.exited).toBe(1);
    expect(w.output()).toContain('The worker needs REDIS_URL');
  });

  it('refuses to start with the embedded database, which no other process can reach', async () => {
    const w = spawnWorker({ REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(await w.exited).toBe(1);
    expect(w.output()).toContain('The worker needs DATABASE_URL');
  });
});

(SEPARATE_WORKER ? describe : describe.skip)('worker process on BullMQ (needs REDIS_URL and DATABASE_URL)', () => {
  let llm: LlmServer;
  let setup: PolishSetup;
  let admin: TestUser;

  beforeAll(async () => {
    llm = await new LlmServer().start();
    // A long LLM timeout keeps a job "in the middle" for as long as the test holds the answer;
    // a short stalled interval lets a new worker retake a dead worker's job quickly.
    setup = await startPolishApp(
      { POLISH_LLM_URL: llm.url, POLISH_LLM_MODEL: 'test-model', POLISH_LLM_TIMEOUT_MS: '60000', QUEUE_STALLED_INTERVAL_MS: '1000' },
      { worker: false },
    );
    admin = (await createCast(setup.t)).admin;
  }, 120_000);

  afterAll(async () => {
    await setup?.close();
    await llm?.close();
  });

  async function createParameter(displayName: string) {
    const res = await setup.t
      .http()
      .post('/api/parameters')
      .set(admin.auth)
      .send({ name: displayName.toLowerCase().replace(/\W+/g, '_'), display_name: displayName, data_type: 'number', category: 'labs' });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function parameter(id: string) {
    return (await setup.t.http().get(`/api/parameters/${id}`).set(admin.auth)).body as Record<string, unknown>;
  }

  async function jobState(jobIdPrefix: string) {
    const connection = new IORedis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 });
    const queue = new Queue(POLISH_QUEUE, { connection, prefix: setup.prefix });
    try {
      const jobs = await queue.getJobs(['active', 'waiting', 'completed', 'failed', 'delayed']);
      const job = jobs.find((j) => j.id?.startsWith(jobIdPrefix));
      return job ? { state: await job.getState(), attemptsMade: job.attemptsMade } : null;
    } finally {
      await queue.close();
      connection.disconnect();
    }
  }

  it('finishes the active job on SIGTERM before exiting', async () => {
    const worker = setup.startWorker();
    await worker.ready;
    const answer = deferred<string>();
    llm.when('Graceful Marker', { kind: 'hold', release: answer.promise });
    const id = await createParameter('Graceful Marker');
    await waitFor(() => llm.requestsFor('Graceful Marker').length === 1, { what: 'the job to reach the LLM' });

    worker.child.kill('SIGTERM');
    await waitFor(() => worker.output().includes('SIGTERM received'), { what: 'the worker to start shutting down' });
    answer.resolve('What is the graceful marker?');
    expect(await worker.exited).toBe(0);
    // Stored before the process exited, not by anyone else: no worker runs now.
    expect(await parameter(id)).toMatchObject({ polished_question: 'What is the graceful marker?', polished_provider: 'llm' });
  });

  it('completes a job whose worker was killed mid-job once a new worker starts (stalled-job recovery)', async () => {
    const first = setup.startWorker();
    await first.ready;
    llm.when('Crash Marker', { kind: 'hold', release: new Promise<string>(() => undefined) });
    const id = await createParameter('Crash Marker');
    await waitFor(() => llm.requestsFor('Crash Marker').length === 1, { what: 'the job to reach the LLM' });

    first.child.kill('SIGKILL');
    await first.exited;
    expect(await jobState(`polish-${id}-`)).toMatchObject({ state: 'active' });
    expect((await parameter(id)).polished_question).toBeNull();

    const second = setup.startWorker();
    await second.ready;
    await waitFor(async () => Boolean((await parameter(id)).polished_question), { timeoutMs: 60_000, what: 'the retaken job to finish' });
    expect(await parameter(id)).toMatchObject({ polished_question: "LLM: what is the patient's Crash Marker?", polished_provider: 'llm' });
    expect(llm.requestsFor('Crash Marker')).toHaveLength(2);
    expect(await jobState(`polish-${id}-`)).toMatchObject({ state: 'completed' });
  }, 90_000);
});
