import type { ConformanceJson } from '@cds/contracts';
import { startTestApp, type TestApp } from '../support/app';
import { createCast } from '../support/factories';

// Issue 21: an instance installed without the official decks (no ECQM_DIR) says so on the conformance report, and runs nothing.
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await startTestApp({ ECQM_DIR: '/nonexistent/ecqm-2024' });
  cast = await createCast(t);
});
afterAll(async () => {
  await t?.close();
});

it('the conformance report says the decks are not installed, naming where it looked', async () => {
  const res = await t.http().get('/api/measures/conformance').set(cast.admin.auth);
  expect(res.status).toBe(200);
  expect(res.body as ConformanceJson).toEqual({ available: false, directory: '/nonexistent/ecqm-2024', agreed: 0, total: 0, measures: [] });
});
