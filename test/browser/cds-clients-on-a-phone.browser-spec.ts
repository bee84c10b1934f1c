import { randomUUID } from 'node:crypto';
import { screenshot, signIn, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';
import { expectStatus } from '../support/clinical-factories';
import { expectReachable, settle, WIDTHS } from '../support/phone';

let t: TestApp;
let browser: Browser;
let cast: BrowserSuite['cast'];
browserSuite((s) => ({ t, browser, cast } = s));

/** EHRs with the long issuers and JWKS URLs real ones have. */
async function register(name: string) {
  const host = `${name.toLowerCase().replace(/\W+/g, '-')}-${randomUUID().slice(0, 8)}.health-system.example.org`;
  const res = await t
    .http()
    .post('/api/cds-clients')
    .set(cast.admin.auth)
    .send({
      name,
      issuer: `https://${host}/oauth2/default`,
      jwks_url: `https://${host}/oauth2/default/v1/keys`,
      allowed_services: ['patient-view'],
      allowed_fhir_servers: [`https://${host}/fhir/r4`],
    });
  expectStatus(res, 201, 'register CDS client');
}

describe('CDS clients: every client’s Edit and Delete are reachable', () => {
  beforeAll(async () => {
    await register('Northside Family Practice EHR');
    await register('Riverside Community Clinic');
  });

  for (const { width, height } of WIDTHS) {
    it(`at ${width} px: the last client's Delete button is on screen, and its issuer is readable in full`, async () => {
      const page = await browser.newPage();
      await page.setViewportSize({ width, height });
      await signIn(page, t.url, cast.admin.email, cast.admin.password);
      await page.goto(`${t.url}/admin/settings`);
      await page.getByRole('link', { name: 'Manage CDS clients' }).click();
      await page.getByRole('heading', { name: 'CDS Clients' }).waitFor();
      await page.getByText('Riverside Community Clinic').waitFor();
      await settle(page);
      const deletes = page.getByRole('button', { name: /Delete/ });
      expect(await deletes.count()).toBe(2);
      await expectReachable(page, deletes.last());
      await expectReachable(page, page.getByText(/^https:\/\/riverside-community-clinic-.*\/oauth2\/default$/));
      await screenshot(page, `cds-clients-list-${width}`);
      // Delete asks first; cancelling keeps the client.
      await deletes.last().click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await dialog.getByRole('button', { name: /Cancel/ }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.getByRole('button', { name: /Delete/ }).count()).toBe(2);
      await page.close();
    });
  }
});
