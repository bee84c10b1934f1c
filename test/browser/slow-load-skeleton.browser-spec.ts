import type { Page, Route } from 'playwright-core';
import { screenshot, signIn, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';

let t: TestApp;
let browser: Browser;
let cast: BrowserSuite['cast'];
browserSuite((s) => ({ t, browser, cast } = s));

const VIEWPORTS = [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

/** The entry script (the app itself): held back until released, as on a slow network. */
const ENTRY_SCRIPT = /\/assets\/index-[\w-]+\.js$/;

/** Holds every request matching `url` until the returned function is called. */
async function hold(page: Page, url: RegExp): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

async function box(page: Page, selector: string) {
  return page.locator(selector).first().boundingBox();
}

describe('a full page load on a slow network shows the app shell, not a blank page', () => {
  for (const [name, viewport] of VIEWPORTS) {
    it(`at ${viewport.width} px the shell's skeleton is on screen before the app's script arrives, and the app replaces it`, async () => {
      const page = await browser.newPage();
      await page.setViewportSize(viewport);
      const releaseScript = await hold(page, ENTRY_SCRIPT);
      await page.goto(`${t.url}/`, { waitUntil: 'commit' });

      const skeleton = page.getByTestId('app-shell-skeleton');
      await skeleton.waitFor({ state: 'visible' });
      // Painted from index.html alone: React has not rendered anything yet.
      expect(await skeleton.getAttribute('data-rendered-by')).toBeNull();
      expect(await page.getByRole('progressbar', { name: 'Loading' }).isVisible()).toBe(true);
      const bar = await box(page, '.shell-skeleton__bar');
      expect(bar).toMatchObject({ x: 0, width: viewport.width });
      // The skeleton's rows fill the width a page will take, without a sideways scroll on a phone.
      const widths = await page.evaluate(() => ({
        scroll: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
        viewport: window.innerWidth,
      }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.viewport);
      expect(await page.getByText('Get Started').count()).toBe(0);
      await screenshot(page, `slow-load-skeleton-${name}`);

      releaseScript();
      await page.getByText('Get Started').first().waitFor();
      expect(await skeleton.count()).toBe(0);
      await page.close();
    });
  }

  it("a signed-in PCP's console: React's skeleton takes the static one's place without moving it, then the console replaces it", async () => {
    const page = await browser.newPage();
    await signIn(page, t.url, cast.pcp.email, cast.pcp.password);
    await page.setViewportSize({ width: 1366, height: 900 });
    const releaseScript = await hold(page, ENTRY_SCRIPT);
    const releaseRole = await hold(page, /\/api\/me$/);
    await page.goto(`${t.url}/pcp`, { waitUntil: 'commit' });

    await page.locator('[data-testid="app-shell-skeleton"]:not([data-rendered-by])').waitFor();
    const before = { bar: await box(page, '.shell-skeleton__bar'), row: await box(page, '.shell-skeleton__row') };

    releaseScript();
    // The role is still being read: the app renders the same shell, in the same place.
    await page.getByRole('progressbar', { name: 'Checking your access' }).waitFor();
    expect(await page.getByTestId('app-shell-skeleton').getAttribute('data-rendered-by')).toBe('app');
    const after = { bar: await box(page, '.shell-skeleton__bar'), row: await box(page, '.shell-skeleton__row') };
    expect(after).toEqual(before);

    releaseRole();
    await page.getByText('PCP Console').first().waitFor();
    expect(await page.getByTestId('app-shell-skeleton').count()).toBe(0);
    await page.close();
  });

  for (const [name, viewport] of VIEWPORTS) {
    it(`at ${viewport.width} px a PCP's case list shows skeleton rows while it loads, and Retry when it could not load`, async () => {
      const page = await browser.newPage();
      await signIn(page, t.url, cast.pcp.email, cast.pcp.password);
      await page.setViewportSize(viewport);
      // The first load of the list hangs, then fails as on a dropped connection.
      let fail!: () => void;
      const failed = new Promise<void>((resolve) => (fail = resolve));
      await page.route(/\/api\/assessments\?/, async (route) => {
        await failed;
        await route.abort('internetdisconnected');
      });
      await page.goto(`${t.url}/pcp/cases`);
      const loading = page.getByRole('progressbar', { name: 'Loading cases' });
      await loading.waitFor();
      expect(await page.getByRole('heading', { name: 'Case History' }).isVisible()).toBe(true);
      const rows = await loading.locator('.MuiSkeleton-root').count();
      expect(rows).toBeGreaterThanOrEqual(3);
      const list = await loading.boundingBox();
      expect(list!.x).toBeGreaterThanOrEqual(0);
      expect(list!.x + list!.width).toBeLessThanOrEqual(viewport.width);
      await screenshot(page, `case-list-loading-${name}`);

      fail();
      const alert = page.getByRole('alert').filter({ hasText: 'Could not load your cases.' });
      await alert.waitFor();
      await page.unroute(/\/api\/assessments\?/);
      const retry = alert.getByRole('button', { name: 'Retry' });
      await retry.scrollIntoViewIfNeeded();
      expect(await retry.isVisible()).toBe(true);
      await screenshot(page, `case-list-retry-${name}`);
      await retry.click();
      await page
        .getByText(/No cases yet|Case history/)
        .first()
        .waitFor();
      expect(await alert.count()).toBe(0);
      await page.close();
    });
  }
});
