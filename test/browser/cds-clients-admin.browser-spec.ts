import { randomUUID } from 'node:crypto';
import { launchBrowser, screenshot, seriousA11yViolations, signIn, type Browser } from '../support/browser';
import { startTestApp, type TestApp } from '../support/app';
import { callPatientView, expectCardsResponse, observationBundle, startCdsClient, type CdsClientKeys } from '../support/cds-hooks';
import { expectStatus } from '../support/clinical-factories';
import { createCast, PASSWORD } from '../support/factories';

/**
 * Issue 11: an administrator registers an EHR as a CDS client in the admin console; that EHR's
 * signed calls are then accepted, and after the client is removed they are refused.
 */
let t: TestApp;
let browser: Browser;
let ehr: CdsClientKeys;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  ehr = await startCdsClient(`https://ehr.example.org/${randomUUID()}`);
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await ehr?.close();
  await t?.close();
});

const callHook = () =>
  callPatientView(t, ehr, 'p1', { 'obs-4548-4': observationBundle('p1', '4548-4', 7.1, '%', new Date().toISOString()) });

it('an administrator registers, sees and removes a CDS client; the EHR is accepted only while registered', async () => {
  expect((await callHook()).status).toBe(401);
  const page = await browser.newPage();
  try {
    await signIn(page, t.url, cast.admin.email, PASSWORD);
    await page.goto(`${t.url}/admin/settings`);
    await page.getByRole('link', { name: 'Manage CDS clients' }).click();
    await page.getByRole('heading', { name: 'CDS Clients' }).waitFor();
    await page.getByRole('link', { name: 'Register CDS client' }).click();

    await page.getByLabel('Name').fill('Example EHR');
    await page.getByLabel('Issuer (iss)').fill(ehr.issuer);
    await page.getByLabel('JWKS URL').fill(ehr.jwksUrl);
    await page.getByRole('heading', { level: 1, name: 'Register CDS client' }).waitFor();
    // A new client may call patient-view unless unticked: one able to call nothing is not saved.
    expect(await page.getByLabel('patient-view').isChecked()).toBe(true);
    await page.getByLabel('Allowed FHIR servers').fill('https://fhir.example.org/r4');
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `cds-clients-create-${width}`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save' }).click();

    const row = page.getByRole('row', { name: /Example EHR/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('https://fhir.example.org/r4');
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `cds-clients-list-${width}`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    expectCardsResponse(expectStatus(await callHook(), 200, 'registered EHR').body);

    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await callHook()).status).toBe(401);
  } finally {
    await page.close();
  }
});
