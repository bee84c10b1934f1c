import type { Page } from 'playwright-core';
import { screenshot, signIn, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';

let t: TestApp;
let browser: Browser;
let cast: BrowserSuite['cast'];
browserSuite((s) => ({ t, browser, cast } = s));

/** The API is unreachable (the page and its scripts still load, as from a cache or a CDN). */
async function apiDown(page: Page) {
  await page.route(/\/api\//, (route) => route.abort('internetdisconnected'));
}

describe('a full page load while the API is unreachable', () => {
  for (const [who, home, landmark] of [
    ['admin', '/admin', 'Admin Console'],
    ['pcp', '/pcp', 'PCP Console'],
  ] as const) {
    it(`a signed-in ${who} sees the connection toast and a retry, never "Access Denied"`, async () => {
      const page = await browser.newPage();
      await signIn(page, t.url, cast[who].email, cast[who].password);
      await apiDown(page);
      await page.goto(`${t.url}${home}`);
      await page.getByRole('heading', { name: "Can't reach the server" }).waitFor();
      await page.getByTestId('toast').filter({ hasText: 'Unable to reach the server' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(home);
      expect(await page.getByText('Access Denied').count()).toBe(0);
      expect(await page.getByText(/permission/i).count()).toBe(0);
      await screenshot(page, `network-down-${who}`);

      // The network comes back: Retry reads the role again and opens the console in place.
      await page.unroute(/\/api\//);
      await page.getByRole('button', { name: 'Retry' }).click();
      await page.getByText(landmark).first().waitFor();
      expect(new URL(page.url()).pathname).toBe(home);
      await page.close();
    });
  }

  it('a user without a role is still told about roles only when the server says so', async () => {
    const page = await browser.newPage();
    await signIn(page, t.url, cast.none.email, cast.none.password);
    await page.goto(`${t.url}/admin`);
    await page.waitForURL(/\/unauthorized$/);
    await page.getByText('Access Denied').waitFor();
    await page.close();
  });
});
