import type { Locator, Page } from 'playwright-core';
import { screenshot, signIn, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';
import { overlaps } from '../support/phone';

let t: TestApp;
let browser: Browser;
let cast: BrowserSuite['cast'];
browserSuite((s) => ({ t, browser, cast } = s));

/** The toast stack (sign-in leaves "Welcome back!" on screen for 5 s) must not overlap any of `targets`. */
async function expectUncovered(page: Page, targets: Locator[]) {
  const toast = page.getByTestId('toast').first();
  await toast.waitFor();
  const t = (await toast.boundingBox())!;
  for (const target of targets) {
    await target.waitFor();
    const b = (await target.boundingBox())!;
    expect({ target: await target.textContent(), overlaps: overlaps(t, b) }).toEqual({
      target: await target.textContent(),
      overlaps: false,
    });
  }
}

async function signedIn(email: string, password: string, width: number) {
  const page = await browser.newPage();
  await page.setViewportSize({ width, height: width > 600 ? 768 : 844 });
  await signIn(page, t.url, email, password);
  return page;
}

describe('toasts cover nothing', () => {
  for (const width of [1366, 390]) {
    it(`at ${width} px: not the dashboard's System Access card or header actions`, async () => {
      const page = await signedIn(cast.none.email, cast.none.password, width);
      await page.waitForURL(/\/dashboard$/);
      await expectUncovered(page, [
        page.getByRole('button', { name: 'Edit Profile' }),
        page.getByRole('button', { name: 'Sign Out' }),
        page.getByRole('region', { name: 'System Access' }).or(page.locator('section[aria-labelledby="access-card-title"]')).first(),
      ]);
      await screenshot(page, `toast-dashboard-${width}`);
      await page.close();
    });
  }

  it('at 390 px the page can be scrolled so its end clears the toast stack (issue 10)', async () => {
    const page = await signedIn(cast.none.email, cast.none.password, 390);
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('toast').first().waitFor();
    // Content or a toast that grows after the scroll (data arriving, fonts loading) moves the page's
    // end again; a user scrolls again, and so does this test, until the toast's 5 s are nearly up.
    const about = page.getByRole('region', { name: 'About' }).or(page.locator('section[aria-labelledby="about-card-title"]')).first();
    const toast = page.getByTestId('toast').first();
    let clear = false;
    for (let i = 0; i < 12 && !clear; i++) {
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      clear = !overlaps((await toast.boundingBox())!, (await about.boundingBox())!);
      if (!clear) await page.waitForTimeout(250);
    }
    await expectUncovered(page, [about]);
    await page.close();
  });

  it('at 1366 px: not Create Parameter, Import Template or Invite User, nor a dialog’s buttons', async () => {
    const page = await signedIn(cast.admin.email, cast.admin.password, 1366);
    await page.getByRole('link', { name: 'Parameter Management' }).click();
    await expectUncovered(page, [page.getByRole('button', { name: 'Create Parameter' }).first()]);
    await page.getByRole('button', { name: 'Create Parameter' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.waitForTimeout(300); // the toast stack moves away from the dialog's corner
    await expectUncovered(page, [dialog.getByRole('button', { name: 'Cancel' }), dialog.getByRole('button').last()]);
    await screenshot(page, 'toast-dialog-1366');
    await page.close();

    const rules = await signedIn(cast.admin.email, cast.admin.password, 1366);
    await rules.getByRole('link', { name: 'Rule Designer' }).click();
    await expectUncovered(rules, [rules.getByRole('button', { name: 'Import Template' }).first()]);
    await rules.close();

    const users = await signedIn(cast.admin.email, cast.admin.password, 1366);
    await users.getByRole('link', { name: 'User Management' }).click();
    await expectUncovered(users, [users.getByRole('button', { name: 'Invite User' }).first()]);
    await screenshot(users, 'toast-users-1366');
    await users.close();
  });
});
