import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser as PwBrowser, type Page } from 'playwright-core';

/** Tracked screenshots (docs/screenshots) are only rewritten when asked: SCREENSHOTS=1 or `npm run screenshots`. */
export const SCREENSHOTS = resolve(__dirname, '..', '..', 'docs', 'screenshots');
/** Every other run writes them here (ignored by git), so `npm test` leaves the tree clean. */
export const SCRATCH_SCREENSHOTS = resolve(__dirname, '..', '..', 'test-results', 'screenshots');

export function screenshotDir(): string {
  return process.env.SCREENSHOTS === '1' ? SCREENSHOTS : SCRATCH_SCREENSHOTS;
}

export const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * CHROMIUM_PATH first, then a system Chromium, then the one the npm package @sparticuz/chromium
 * ships (unpacked to /tmp on first use, ~2.5 s), so a machine with only Node and npm runs the suites.
 * CDS_BROWSER_SKIP_SYSTEM=1 ignores the system paths; it exists only to prove that fallback.
 */
export async function executablePath(): Promise<{ path: string; args: string[] }> {
  const system = process.env.CDS_BROWSER_SKIP_SYSTEM === '1' ? [] : SYSTEM_CHROMIUMS;
  const found = [process.env.CHROMIUM_PATH, ...system].filter(Boolean).find((p) => existsSync(p as string));
  if (found) return { path: found, args: ARGS };
  const packaged = require('@sparticuz/chromium') as {
    default?: { executablePath(): Promise<string> };
    executablePath?(): Promise<string>;
  };
  const sparticuz = (packaged.default ?? packaged) as { executablePath(): Promise<string> };
  const path = await sparticuz.executablePath();
  // Its own args include --single-process and --disable-web-security (for serverless hosts); ours
  // keep one process per page and the browser's normal security model.
  return { path, args: [...ARGS, '--no-zygote'] };
}

export interface Browser {
  browser: PwBrowser;
  /** A page in a context of its own: no cookies or localStorage shared with other pages. */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A real headless Chromium (Debian's package; see docs/stack-notes.md). On this shared 2-core machine the
 * browser process was seen to disconnect now and then without a crash report; a new page then
 * starts a new browser instead of failing every later test.
 */
export async function launchBrowser(): Promise<Browser> {
  const launch = async () => {
    const exe = await executablePath();
    const b = await chromium.launch({ executablePath: exe.path, headless: true, args: exe.args });
    b.on('disconnected', () => process.stderr.write('[browser disconnected]\n'));
    return b;
  };
  let browser = await launch();
  return {
    get browser() {
      return browser;
    },
    async newPage() {
      if (!browser.isConnected()) browser = await launch();
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      page.on('pageerror', (e) => process.stderr.write(`[page error] ${e.message}\n`));
      page.on('crash', () => process.stderr.write(`[page crash] ${page.url()}\n`));
      page.on('close', () => void context.close().catch(() => undefined));
      return page;
    },
    async close() {
      await browser.close();
    },
  };
}

/** A dialog is fixed to the viewport: shot as the physician sees it, once its transition has ended. */
export async function dialogShot(page: Page, name: string) {
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(screenshotDir(), `${name}.png`) });
}

/** Width the page scrolls to sideways beyond the viewport (0: none). */
/**
 * How far the page scrolls sideways once its layout has settled: after a viewport change the charts re-measure their
 * width in a ResizeObserver and render again, which a loaded machine may not have done yet. Polls for up to 5 s while
 * it is above 0; a page that still scrolls sideways after that answers its overflow.
 */
export async function sideways(page: Page): Promise<number> {
  const measure = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const deadline = Date.now() + 5_000;
  let overflow = await measure();
  while (overflow > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    overflow = await measure();
  }
  return overflow;
}

export async function screenshot(page: Page, name: string) {
  const dir = screenshotDir();
  mkdirSync(dir, { recursive: true });
  // A full-page capture of a scrolled page draws the sticky app bar where the viewport was, mid-page;
  // from the top it sits where a reader sees it. The test's own scroll position is put back after.
  const y = await page.evaluate(() => {
    const at = window.scrollY;
    window.scrollTo(0, 0);
    return at;
  });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
  await page.evaluate((at) => window.scrollTo(0, at), y);
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core in the page; returns serious and critical violations only. */
export async function seriousA11yViolations(page: Page): Promise<Array<{ id: string; impact: string; help: string; targets: string[] }>> {
  // Evaluated through the DevTools protocol: an inline <script> tag would be (rightly) blocked by the CSP.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: Document,
            o: object,
          ): Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

/** Signs in through the real form and waits until the role redirect has happened. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/auth`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(/\/(pcp|admin|dashboard)/);
}
