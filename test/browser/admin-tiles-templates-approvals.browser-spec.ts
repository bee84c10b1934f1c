import type { Page } from 'playwright-core';
import { screenshot, signIn, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';
import { createUser } from '../support/factories';
import { createFromTemplate, seedTemplates, uniqueName } from '../support/clinical-factories';
import { expectReachable, settle, WIDTHS, wordsBrokenInside } from '../support/phone';

let t: TestApp;
let browser: Browser;
let cast: BrowserSuite['cast'];
browserSuite((s) => ({ t, browser, cast } = s));

async function adminPage(width: number, height: number, path: string): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewportSize({ width, height });
  await signIn(page, t.url, cast.admin.email, cast.admin.password);
  await page.goto(`${t.url}${path}`);
  await settle(page);
  return page;
}

describe('Parameter Management', () => {
  let bmiCopy: string;
  beforeAll(async () => {
    const { bmi } = await seedTemplates(t, cast.admin);
    expect(bmi.is_required).toBe(false);
    // As the Templates tab creates one: the template, a new name, nothing about Required.
    bmiCopy = (await createFromTemplate(t, cast.admin, bmi, { name: uniqueName('bmi_adult'), display_name: 'Adult BMI' })).name;
  });

  for (const { width, height } of WIDTHS) {
    it(`at ${width} px: category names are whole words ("Demographics"), and a copy of a "Required: No" template says "Required: No"`, async () => {
      const page = await adminPage(width, height, '/admin/parameters');
      const tiles = page.getByRole('region', { name: 'Categories' });
      await tiles.getByText('Demographics').waitFor();
      expect(await wordsBrokenInside(tiles, '[data-testid^="tile-"] p')).toEqual([]);
      await screenshot(page, `parameter-categories-${width}`);

      await page.getByPlaceholder('Search parameters...').fill('Adult BMI');
      const card = page.getByRole('article', { name: 'Adult BMI' });
      await card.waitFor();
      expect(await card.getByText(bmiCopy).count()).toBe(1);
      const required = card.locator('dt', { hasText: 'Required' }).locator('xpath=following-sibling::dd[1]');
      expect(await required.textContent()).toBe('No');
      await expectReachable(page, required);
      await page.close();
    });
  }
});

describe('Pending Approvals: approving is confirmed first', () => {
  for (const { width, height } of WIDTHS) {
    it(`at ${width} px: Approve asks before granting access; Cancel grants nothing, Approve grants PCP access`, async () => {
      const applicant = await createUser(t, null, { first_name: 'Nia', last_name: `Okoro${width}` });
      expect((await t.http().post('/api/me/access-requests').set(applicant.auth).send({ requested_role: 'pcp' })).status).toBe(201);
      const page = await adminPage(width, height, '/admin/approvals');
      const approve = page.getByRole('button', { name: `Approve ${applicant.email}` });
      await expectReachable(page, approve);
      await approve.click();
      const dialog = page.getByRole('dialog', { name: 'Approve access request' });
      await dialog.getByText(`Give ${applicant.email} Primary Care Provider access?`, { exact: false }).waitFor();
      await expectReachable(page, dialog.getByRole('button', { name: 'Approve' }));
      await screenshot(page, `approve-confirm-${width}`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect((await t.http().get(`/api/users/${applicant.id}`).set(cast.admin.auth)).body.role).toBeNull();

      await approve.click();
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await page
        .getByTestId('toast')
        .filter({ hasText: `${applicant.email} now has Primary Care Provider access.` })
        .waitFor();
      expect((await t.http().get(`/api/users/${applicant.id}`).set(cast.admin.auth)).body.role).toBe('pcp');
      await page.close();
    });
  }
});
