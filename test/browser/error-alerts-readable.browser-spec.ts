import type { Locator, Page } from 'playwright-core';
import { screenshot, signIn, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';
import { WIDTHS } from '../support/phone';

let t: TestApp;
let browser: Browser;
let cast: BrowserSuite['cast'];
browserSuite((s) => ({ t, browser, cast } = s));

interface Reading {
  /** Lowest contrast of any text in the alert against the alert's own background. */
  lowestContrast: number;
  /** The message text is red (an error reads as one), not grey. */
  redText: boolean;
  /** The alert's background is a tint, not the white of the card around it. */
  tinted: boolean;
}

/**
 * How an error alert reads: every piece of text in it (title, message, Retry) against the alert's
 * background, by the WCAG formula. Issue 23: MUI's standard alert on the theme's pale tints gave
 * grey text on near-white, an error that did not look like one.
 */
async function reading(alert: Locator): Promise<Reading> {
  return alert.evaluate((root) => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const ratio = (a: number[], b: number[]) => {
      const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    };
    const background = rgb(getComputedStyle(root).backgroundColor);
    let lowest = Infinity;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent?.trim()) continue;
      lowest = Math.min(lowest, ratio(rgb(getComputedStyle(n.parentElement!).color), background));
    }
    const message = rgb(getComputedStyle(root.querySelector('.MuiAlert-message')!).color);
    return {
      lowestContrast: Math.round(lowest * 100) / 100,
      redText: message[0] - Math.max(message[1], message[2]) >= 60,
      tinted: background.length >= 3 && background.slice(0, 3).some((v) => v < 250),
    };
  });
}

async function expectReadable(alerts: Locator) {
  expect(await alerts.count()).toBeGreaterThan(0);
  for (const alert of await alerts.all()) {
    const r = await reading(alert);
    expect({ ...r, lowestContrast: r.lowestContrast >= 4.5 ? 'at least 4.5:1' : r.lowestContrast }).toEqual({
      lowestContrast: 'at least 4.5:1',
      redText: true,
      tinted: true,
    });
  }
}

async function pageAt(width: number, height: number, who: 'admin' | 'pcp', down: RegExp): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewportSize({ width, height });
  await signIn(page, t.url, cast[who].email, cast[who].password);
  await page.route(down, (route) => route.abort('internetdisconnected'));
  return page;
}

describe('error alerts read as errors, with text at 4.5:1 or better', () => {
  for (const { width, height } of WIDTHS) {
    it(`at ${width} px: User Management with the users and invitations unreachable`, async () => {
      const page = await pageAt(width, height, 'admin', /\/api\/(users|invitations)(\?|$)/);
      await page.goto(`${t.url}/admin/users`);
      await page.getByRole('alert').filter({ hasText: 'The invitations could not be loaded.' }).waitFor();
      await page.getByRole('alert').filter({ hasText: 'The users could not be loaded.' }).waitFor();
      await expectReadable(page.getByRole('alert').filter({ hasText: 'could not be loaded' }));
      await screenshot(page, `error-alert-users-${width}`);
      await page.close();
    });

    it(`at ${width} px: the PCP dashboard and Case History with the cases unreachable`, async () => {
      const page = await pageAt(width, height, 'pcp', /\/api\/assessments(\?|$)/);
      await page.goto(`${t.url}/pcp`);
      const dashboard = page.getByRole('alert').filter({ hasText: 'Could not load your cases.' });
      await dashboard.waitFor();
      await expectReadable(dashboard);
      await screenshot(page, `error-alert-pcp-dashboard-${width}`);
      await page.goto(`${t.url}/pcp/cases`);
      const history = page.getByRole('alert').filter({ hasText: 'Could not load your cases.' });
      await history.waitFor();
      await expectReadable(history);
      await page.close();
    });
  }
});
