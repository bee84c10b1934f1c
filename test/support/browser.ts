import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser as PwBrowser, type Page } from 'playwright-core';

export const SCREENSHOTS = resolve(__dirname, '..', '..', 'docs', 'screenshots');

function executablePath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error('No Chromium found: apt-get install chromium, or set CHROMIUM_PATH');
  return found;
}

export interface Browser {
  browser: PwBrowser;
  /** A page in a context of its own: no cookies or localStorage shared with other pages. */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * A real headless Chromium (Debian's package; see stack-notes). On this shared 2-core machine the
 * browser process was seen to disconnect now and then without a crash report; a new page then
 * starts a new browser instead of failing every later test.
 */
export async function launchBrowser(): Promise<Browser> {
  const launch = async () => {
    const b = await chromium.launch({ executablePath: executablePath(), headless: true, args: ARGS });
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

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core in the page; returns serious and critical violations only. */
export async function seriousA11yViolations(page: Page): Promise<Array<{ id: string; impact: string; help: string; targets: string[] }>> {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
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
