import type { Page } from 'playwright-core';
import { seriousA11yViolations, signIn, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';

// Issue 24: scripts only from our own origin (no 'unsafe-inline'), and no page of the product trips it.
let t: TestApp;
let browser: Browser;
let cast: BrowserSuite['cast'];
browserSuite((s) => ({ t, browser, cast } = s));

interface Violation {
  page: string;
  directive: string;
  blocked: string;
  sample?: string;
}

/**
 * A page that records every CSP violation: the DOM's securitypolicyviolation events (the listener is
 * added before any of the page's own code runs) and Chromium's console reports of them.
 */
async function watchedPage(as?: { email: string; password: string }): Promise<{ page: Page; reported: Violation[] }> {
  const page = await browser.newPage();
  await page.addInitScript(() => {
    const seen: unknown[] = [];
    (window as unknown as { __csp: unknown[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push({ page: location.pathname, directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample }),
    );
  });
  const reported: Violation[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text()))
      reported.push({ page: new URL(page.url()).pathname, directive: 'console', blocked: m.text().slice(0, 300) });
  });
  if (as) await signIn(page, t.url, as.email, as.password);
  return { page, reported };
}

const domViolations = (page: Page) => page.evaluate(() => (window as unknown as { __csp: Violation[] }).__csp);
/** Something rendered in the app's root: the page's code ran. */
const rendered = (page: Page) => () => page.locator('#root *').first().waitFor();

async function visit(page: Page, path: string, ready: () => Promise<unknown>): Promise<Violation[]> {
  await page.goto(`${t.url}${path}`, { waitUntil: 'networkidle' });
  await ready();
  return domViolations(page);
}

it('the CSP allows scripts from this origin only: no unsafe-inline, no nonce or hash to steal', async () => {
  const res = await t.http().get('/');
  const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(res.headers['content-security-policy'])![1].trim();
  expect(scriptSrc).toBe("'self'");
  expect(res.headers['content-security-policy']).toMatch(/script-src-attr 'none'/);
  expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
});

it('an injected inline script is blocked and reported: the watch below can see a violation', async () => {
  const { page } = await watchedPage();
  await page.goto(t.url, { waitUntil: 'networkidle' });
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__injected = true';
    document.body.appendChild(s);
  });
  await page.waitForFunction(() => (window as unknown as { __csp: unknown[] }).__csp.length > 0);
  expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
  expect((await domViolations(page))[0]).toMatchObject({ directive: 'script-src-elem', blocked: 'inline' });
  await page.close();
});

it('the public pages, the no-role dashboard, the admin console and the PCP pages run with no CSP violation', async () => {
  const found: Violation[] = [];

  const anonymous = await watchedPage();
  found.push(...(await visit(anonymous.page, '/', () => anonymous.page.getByRole('link', { name: 'Get Started' }).first().waitFor())));
  found.push(...(await visit(anonymous.page, '/auth', () => anonymous.page.getByRole('tab', { name: 'Sign In' }).waitFor())));
  found.push(...(await visit(anonymous.page, '/no/such/page', () => anonymous.page.getByText('Oops! Page not found').waitFor())));
  for (const path of ['/unauthorized', '/invite/not-a-real-invitation'])
    found.push(...(await visit(anonymous.page, path, rendered(anonymous.page))));
  found.push(...(await visit(anonymous.page, '/api/docs', () => anonymous.page.locator('.swagger-ui .info').first().waitFor())));
  // The accessibility checks other suites run must work under this CSP too.
  await anonymous.page.goto(t.url, { waitUntil: 'networkidle' });
  expect(Array.isArray(await seriousA11yViolations(anonymous.page))).toBe(true);
  found.push(...(await domViolations(anonymous.page)), ...anonymous.reported);
  await anonymous.page.close();

  const none = await watchedPage(cast.none);
  found.push(...(await visit(none.page, '/dashboard', rendered(none.page))), ...none.reported);
  await none.page.close();

  const admin = await watchedPage(cast.admin);
  for (const path of ['/admin', '/admin/parameters', '/admin/rule-sets', '/admin/users', '/admin/cds-clients'])
    found.push(...(await visit(admin.page, path, rendered(admin.page))));
  found.push(...admin.reported);
  await admin.page.close();

  const pcp = await watchedPage(cast.pcp);
  for (const path of ['/pcp', '/pcp/diagnostics', '/pcp/cases', '/pcp/settings', '/clinical-form', '/chatbot'])
    found.push(...(await visit(pcp.page, path, rendered(pcp.page))));
  found.push(...pcp.reported);
  await pcp.page.close();

  expect(found).toEqual([]);
});
