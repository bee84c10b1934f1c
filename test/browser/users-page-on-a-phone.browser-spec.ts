import type { Page } from 'playwright-core';
import { screenshot, signIn, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';
import { createUser } from '../support/factories';
import { expectReachable, settle, WIDTHS, wordsBrokenInside } from '../support/phone';

let t: TestApp;
let browser: Browser;
let cast: BrowserSuite['cast'];
browserSuite((s) => ({ t, browser, cast } = s));

/** A long e-mail and name, as a clinic's real ones are. */
const LONG = { first_name: 'Oluwaseun', last_name: 'Adebayo-Whitfield' };

async function usersPage(width: number, height: number): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewportSize({ width, height });
  await signIn(page, t.url, cast.super_admin.email, cast.super_admin.password);
  await page.goto(`${t.url}/admin/users`);
  await page.getByRole('heading', { name: 'User Management' }).waitFor();
  await page
    .getByRole('combobox', { name: /^Change role of / })
    .first()
    .waitFor();
  await settle(page);
  return page;
}

describe('User Management: every user’s role control is reachable', () => {
  beforeAll(async () => {
    await createUser(t, 'pcp', { ...LONG, email: `oluwaseun.adebayo-whitfield.${Date.now()}@northside-family-practice.example` });
  });

  for (const { width, height } of WIDTHS) {
    it(`at ${width} px: the last user's role control is on screen and opens; no header or e-mail is broken inside a word`, async () => {
      const page = await usersPage(width, height);
      const controls = page.getByRole('combobox', { name: /^Change role of / });
      expect(await controls.count()).toBeGreaterThanOrEqual(4);
      const last = controls.last();
      await expectReachable(page, last);
      await screenshot(page, `users-page-${width}`);
      await last.click();
      await page.getByRole('option').first().waitFor();
      await page.keyboard.press('Escape');

      // Headers and e-mails wrap only between words (on a phone the header row is hidden; each value has its caption).
      const table = page.locator('table').first();
      expect(await wordsBrokenInside(table, width > 600 ? 'th, td' : 'td')).toEqual([]);
      await page.close();
    });
  }
});

describe('User Management with the API down', () => {
  for (const { width, height } of WIDTHS) {
    it(`at ${width} px: the users and the invitations each say they could not be loaded and offer Retry, which loads them`, async () => {
      const page = await browser.newPage();
      await page.setViewportSize({ width, height });
      await signIn(page, t.url, cast.admin.email, cast.admin.password);
      // The console loads (the session and role are read); the lists' reads fail.
      const down = /\/api\/(users|invitations)(\?|$)/;
      await page.route(down, (route) => route.abort('internetdisconnected'));
      await page.goto(`${t.url}/admin/users`);
      await page.getByRole('heading', { name: 'User Management' }).waitFor();

      const usersError = page.getByRole('alert').filter({ hasText: 'The users could not be loaded.' });
      const invitationsError = page.getByRole('alert').filter({ hasText: 'The invitations could not be loaded.' });
      await usersError.waitFor();
      await invitationsError.waitFor();
      expect(await page.getByText('Loading...').count()).toBe(0);
      await expectReachable(page, invitationsError.getByRole('button', { name: 'Retry' }));
      await screenshot(page, `users-page-api-down-${width}`);

      await page.unroute(down);
      await usersError.getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('combobox', { name: `Change role of ${cast.pcp.email}` }).waitFor();
      await invitationsError.getByRole('button', { name: 'Retry' }).click();
      await page.getByText('No pending invitations.').waitFor();
      expect(await page.getByText(/could not be loaded/).count()).toBe(0);
      await page.close();
    });
  }
});
