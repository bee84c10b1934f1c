import { UnrecoverableError } from 'bullmq';
import { BullmqJobQueue } from '../../backend/src/modules/polish/queue/bullmq-job-queue';
import { InProcessJobQueue } from '../../backend/src/modules/polish/queue/in-process-job-queue';
import type { JobQueue, JobQueueOptions, QueuedJob } from '../../backend/src/modules/polish/queue/job-queue';
import { deferred, waitFor } from '../support/polling';
import { dropQueuePrefix, uniqueQueuePrefix } from '../support/queue';

/**
 * One contract, two drivers: BullMQ on the real Redis named by REDIS_URL (CI), and the
 * in-process runner. Each test gets its own queue under a per-run prefix.
 */
type Payload = { n: number; note?: string };

const OPTS: JobQueueOptions = { attempts: 3, backoffMs: 20, concurrency: 2, keepCompleted: 100, keepFailed: 100 };
const RUN = uniqueQueuePrefix();
let seq = 0;

type Make = (opts?: Partial<JobQueueOptions>) => JobQueue<Payload>;
const makeInProcess: Make = (opts) => new InProcessJobQueue<Payload>(`contract-${++seq}`, { ...OPTS, ...opts });
const makeBullmq: Make = (opts) =>
  new BullmqJobQueue<Payload>(
    `contract-${++seq}`,
    { url: process.env.REDIS_URL!, prefix: RUN, stalledIntervalMs: 5000 },
    { ...OPTS, ...opts },
  );

afterAll(() => dropQueuePrefix(RUN));

describe.each([
  ['in-process', makeInProcess, true],
  ['bullmq', makeBullmq, Boolean(process.env.REDIS_URL)],
] as Array<[string, Make, boolean]>)('job queue contract: %s', (driver, make, runs) => {
  if (!runs) {
    it.skip('needs REDIS_URL', () => undefined);
    return;
  }
  let q: JobQueue<Payload>;
  beforeEach(() => {
    q = make();
  });
  afterEach(async () => {
    await q.close();
  });

  it('reports its driver and is healthy', async () => {
    expect(q.driver).toBe(driver);
    expect(await q.isHealthy()).toBe(true);
  });

  it('holds jobs as waiting until a processor starts, then runs each with its name, id and data', async () => {
    await q.add('square', { n: 2 }, 'job-a');
    await q.add('square', { n: 3, note: 'x' }, 'job-b');
    expect(await q.counts()).toEqual({ waiting: 2, active: 0, completed: 0, failed: 0, delayed: 0 });
    expect(await q.state('job-a')).toBe('waiting');

    const seen: QueuedJob<Payload>[] = [];
    await q.process(async (job) => {
      seen.push(job);
    });
    await waitFor(async () => (await q.counts()).completed === 2);
    expect(seen.map((j) => [j.id, j.name, j.data, j.attemptsMade]).sort()).toEqual([
      ['job-a', 'square', { n: 2 }, 0],
      ['job-b', 'square', { n: 3, note: 'x' }, 0],
    ]);
    expect(await q.state('job-a')).toBe('completed');
    expect(await q.state('never-added')).toBe('unknown');
  });

  it('does not queue a second job under an id that is still pending', async () => {
    const gate = deferred();
    let runs = 0;
    await q.process(async () => {
      runs += 1;
      await gate.promise;
    });
    const first = await q.add('square', { n: 1 }, 'same');
    await waitFor(async () => (await q.state('same')) === 'active');
    const second = await q.add('square', { n: 99 }, 'same');
    expect(first).toEqual({ id: 'same', added: true });
    expect(second).toEqual({ id: 'same', added: false });
    gate.resolve();
    await waitFor(async () => (await q.state('same')) === 'completed');
    expect(runs).toBe(1);
  });

  it('replaces a finished job with the same id, so the same input can run again', async () => {
    const data: number[] = [];
    await q.process(async (job) => {
      data.push(job.data.n);
    });
    await q.add('square', { n: 1 }, 'again');
    await waitFor(async () => (await q.state('again')) === 'completed');
    expect(await q.add('square', { n: 2 }, 'again')).toEqual({ id: 'again', added: true });
    await waitFor(async () => data.length === 2);
    expect(data).toEqual([1, 2]);
  });

  it('retries a failing job with backoff and completes it when an attempt succeeds', async () => {
    const attempts: number[] = [];
    await q.process(async (job) => {
      attempts.push(job.attemptsMade);
      if (job.attemptsMade < 2) throw new Error('transient');
    });
    await q.add('flaky', { n: 1 }, 'flaky-1');
    await waitFor(async () => (await q.state('flaky-1')) === 'completed');
    expect(attempts).toEqual([0, 1, 2]);
  });

  it('holds a failed attempt as delayed until its backoff has passed', async () => {
    await q.close();
    q = make({ backoffMs: 60_000 });
    let runs = 0;
    await q.process(async () => {
      runs += 1;
      throw new Error('transient');
    });
    await q.add('flaky', { n: 1 }, 'backoff-1');
    await waitFor(async () => (await q.state('backoff-1')) === 'delayed');
    expect(await q.counts()).toMatchObject({ delayed: 1, waiting: 0, active: 0, failed: 0 });
    expect(runs).toBe(1);
  });

  it('fails a job after the configured number of attempts', async () => {
    let runs = 0;
    await q.process(async () => {
      runs += 1;
      throw new Error('always');
    });
    await q.add('broken', { n: 1 }, 'broken-1');
    await waitFor(async () => (await q.state('broken-1')) === 'failed');
    expect(runs).toBe(3);
    expect((await q.counts()).failed).toBe(1);
  });

  it('does not retry an UnrecoverableError', async () => {
    let runs = 0;
    await q.process(async () => {
      runs += 1;
      throw new UnrecoverableError('bad payload');
    });
    await q.add('poison', { n: 1 }, 'poison-1');
    await waitFor(async () => (await q.state('poison-1')) === 'failed');
    expect(runs).toBe(1);
  });

  it('lets the active job finish when closed', async () => {
    const gate = deferred();
    let finished = false;
    await q.process(async () => {
      await gate.promise;
      finished = true;
    });
    await q.add('slow', { n: 1 }, 'slow-1');
    await waitFor(async () => (await q.state('slow-1')) === 'active');
    const closing = q.close();
    setTimeout(() => gate.resolve(), 50);
    await closing;
    expect(finished).toBe(true);
  });
});
