import { startPolishApp, type PolishSetup } from '../support/polish-setup';
import { createCast } from '../support/factories';
import { createParameter } from '../support/clinical-factories';
import { waitFor } from '../support/polling';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

// Issue 10, item 7: a parameter saved while Redis is down could not queue its polish job, and the
// catch-up only ran at worker start, so it was never polished. The worker now catches up when its
// queue reconnects and every POLISH_SWEEP_INTERVAL_MS. Redis really goes away (a proxy the test cuts).
const withRedis = process.env.REDIS_URL && process.env.DATABASE_URL ? describe : describe.skip;
jest.setTimeout(150_000);

withRedis('polish catch-up after a Redis outage', () => {
  let proxy: TcpProxy;
  let setup: PolishSetup;
  let cast: Awaited<ReturnType<typeof createCast>>;

  beforeAll(async () => {
    const redis = new URL(process.env.REDIS_URL!);
    proxy = await startTcpProxy(redis.hostname, Number(redis.port || 6379));
    const viaProxy = `redis://127.0.0.1:${proxy.port}`;
    setup = await startPolishApp({ REDIS_URL: viaProxy }, { worker: false });
    cast = await createCast(setup.t);
  });
  afterAll(async () => {
    await setup?.close();
    await proxy?.close();
  });

  const polished = async (id: string) =>
    (await setup.t.http().get(`/api/parameters/${id}`).set(cast.admin.auth)).body.polished_question as string | null;

  it('a parameter saved during the outage is polished once the queue reconnects', async () => {
    // A sweep interval far beyond the test: only the reconnect can trigger the catch-up.
    const worker = setup.startWorker({ REDIS_URL: `redis://127.0.0.1:${proxy.port}`, POLISH_SWEEP_INTERVAL_MS: '3600000' });
    await worker.ready;
    await proxy.cut();
    const saved = await createParameter(setup.t, cast.admin, { display_name: 'Outage Marker' });
    expect(saved.polished_question).toBeNull();
    await new Promise((r) => setTimeout(r, 1500));
    expect(await polished(saved.id)).toBeNull();
    await proxy.restore();
    await waitFor(async () => Boolean(await polished(saved.id)), { timeoutMs: 60_000, what: 'the outage parameter to be polished' });
    await worker.stop();
  });

  it('a parameter whose job never reached the queue is polished by the periodic sweep', async () => {
    const worker = setup.startWorker({ REDIS_URL: process.env.REDIS_URL, POLISH_SWEEP_INTERVAL_MS: '10000' });
    await worker.ready;
    await proxy.cut(); // the API's own queueing fails; the worker's Redis is not behind the proxy
    const saved = await createParameter(setup.t, cast.admin, { display_name: 'Periodic Marker' });
    await waitFor(async () => Boolean(await polished(saved.id)), { timeoutMs: 60_000, what: 'the periodic sweep to polish it' });
    await proxy.restore();
    await worker.stop();
  });
});
