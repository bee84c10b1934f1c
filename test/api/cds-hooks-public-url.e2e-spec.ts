import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/app';
import { createCast } from '../support/factories';
import { action, cond, createFromTemplate, createPublishedRuleSet, expectStatus, seedTemplates } from '../support/clinical-factories';
import {
  callPatientView,
  expectCardsResponse,
  observationBundle,
  registerCdsClient,
  startCdsClient,
  type CdsClientKeys,
} from '../support/cds-hooks';

/**
 * Behind a proxy the EHR calls the public address (PUBLIC_URL), not the one the app listens on:
 * the client JWT's aud must name the public service URL, and card links point at the public app.
 */
const PUBLIC_URL = 'https://cds.example.org';
let t: TestApp;
let ehr: CdsClientKeys;

const call = (aud: string) =>
  callPatientView(t, ehr, 'p1', { 'obs-4548-4': observationBundle('p1', '4548-4', 7.4, '%', new Date().toISOString()) }, aud);

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_URL: `${PUBLIC_URL}/` });
  const { admin } = await createCast(t);
  const templates = await seedTemplates(t, admin);
  const a1c = await createFromTemplate(t, admin, templates.hba1c, { name: `hba1c_${randomUUID().slice(0, 6)}` });
  await createPublishedRuleSet(t, admin, [
    { name: 'Diabetes by HbA1c', priority: 1, conditions: [cond(a1c, '>=', 6.5)], actions: [action('Confirm the diagnosis')] },
  ]);
  ehr = await startCdsClient(`https://ehr.example.org/${randomUUID()}`);
  await registerCdsClient(t, admin, ehr);
}, 60_000);

afterAll(async () => {
  await ehr?.close();
  await t?.close();
});

it('the JWT aud must be the public service URL; the address the app listens on is refused', async () => {
  const local = await call(`${t.url}/api/cds-services/patient-view`);
  expect({ status: local.status, code: local.body.code }).toEqual({ status: 401, code: 'invalid_client_jwt' });
  expect(local.body.message).toContain('aud');
  const res = expectStatus(await call(`${PUBLIC_URL}/api/cds-services/patient-view`), 200, 'public aud');
  const cards = expectCardsResponse(res.body);
  expect(cards[0].summary).toBe('Diabetes by HbA1c: Confirm the diagnosis');
  expect(cards[0].links![0].url).toMatch(/^https:\/\/cds\.example\.org\/clinical-form\?prefill=[A-Za-z0-9_-]{32}$/);
});
