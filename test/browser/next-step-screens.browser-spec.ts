import type { Locator, Page } from 'playwright-core';
import { screenshot, seriousA11yViolations, signIn, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';

/**
 * Issue 23: a PCP finds one Diagnostic Assistant, described as what it is (published rules, no AI
 * model), and the spec's /pcp/diagnostics still leads there; an admin who meets an empty list is
 * told the next step: no rule templates → how a template comes to exist and the way to Rule Sets
 * (in the Templates tab and in Import Template alike); no parameters → the Templates tab. Each at
 * 1366 px and at 390 px, where the next step must be reachable.
 */
let t: TestApp;
let browser: Browser;
let cast: BrowserSuite['cast'];
browserSuite((s) => ({ t, browser, cast } = s));

const WIDTHS = [1366, 390] as const;

async function settle(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

async function reachable(target: Locator, width: number) {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(Math.round(box!.x + box!.width)).toBeLessThanOrEqual(width);
}

async function atEachWidth(page: Page, name: string, check: (width: number) => Promise<void>) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await settle(page);
    await check(width);
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

describe('a PCP looking for the assistant', () => {
  it('finds one Diagnostic Assistant entry, the chat, and a dashboard that promises no AI analysis', async () => {
    const page = await browser.newPage();
    await signIn(page, t.url, cast.pcp.email, cast.pcp.password);
    await page.goto(`${t.url}/pcp`);
    const how = page.getByRole('region', { name: 'How It Works' });
    await how.getByText('Rule evaluation').waitFor();
    expect(await how.textContent()).not.toContain('AI analysis');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await settle(page);
      if (width === 390) await page.getByRole('button', { name: 'Open menu' }).click();
      const nav = page.getByRole('navigation', { name: 'PCP Console menu' });
      const entry = nav.getByRole('link', { name: 'Diagnostic Assistant' });
      await entry.waitFor();
      expect(await nav.getByRole('link', { name: /Assistant/ }).count()).toBe(1);
      expect(await entry.getAttribute('href')).toBe('/chatbot');
      await reachable(entry, width);
      await page.waitForTimeout(400); // the phone drawer's slide-in, for the picture
      await screenshot(page, `pcp-one-assistant-entry-${width}`);
      if (width === 390) await page.keyboard.press('Escape');
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${t.url}/pcp/diagnostics`);
    await page.waitForURL(`${t.url}/chatbot`);
    const start = page.getByRole('button', { name: 'Start Conversation' });
    await atEachWidth(page, 'pcp-diagnostic-assistant', async (width) => {
      await page.getByText('The recommendation comes from the rules alone').waitFor();
      await reachable(start, width);
    });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  });
});

describe('an admin facing an empty list', () => {
  let admin: Page;
  beforeAll(async () => {
    admin = await browser.newPage();
    await signIn(admin, t.url, cast.admin.email, cast.admin.password);
  });

  it('with no rule templates, the Templates tab and Import Template both say how to make one and lead to Rule Sets', async () => {
    // The shipped content packs are templates: unmark them, as an admin may.
    const templates = (await t.http().get('/api/rule-sets/templates').set(cast.admin.auth)).body as Array<{ id: string }>;
    for (const tpl of templates) {
      const res = await t.http().put(`/api/rule-sets/${tpl.id}`).set(cast.admin.auth).send({ is_template: false });
      expect(res.status).toBe(200);
    }
    await admin.goto(`${t.url}/admin/rules`);
    await admin.getByRole('tab', { name: 'Templates' }).click();
    const empty = admin.locator('#panel-rule-templates').getByTestId('no-templates');
    await empty.getByText('No rule templates available').waitFor();
    await empty.getByText(/choose "Mark as template"/).waitFor();
    const go = empty.getByRole('button', { name: 'Go to Rule Sets' });
    await atEachWidth(admin, 'admin-rule-templates-empty', (width) => reachable(go, width));
    await go.click();
    await admin.getByRole('tab', { name: 'Rule Sets', selected: true }).waitFor();

    await admin.getByRole('button', { name: 'Import Template' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Import Template' });
    const inDialog = dialog.getByRole('button', { name: 'Go to Rule Sets' });
    await atEachWidth(admin, 'admin-import-template-empty', (width) => reachable(inDialog, width));
    await inDialog.click();
    await dialog.waitFor({ state: 'hidden' });
    await admin.getByRole('tab', { name: 'Rule Sets', selected: true }).waitFor();
  });

  it('with no parameters, the Parameters tab points to the Templates tab; a search that finds none offers to clear it', async () => {
    await admin.goto(`${t.url}/admin/parameters`);
    const empty = admin.getByTestId('no-parameters');
    await empty.getByText('No parameters found').waitFor();
    const browse = empty.getByRole('button', { name: 'Browse Templates' });
    await atEachWidth(admin, 'admin-parameters-empty', (width) => reachable(browse, width));
    await browse.click();
    await admin.getByRole('tab', { name: 'Templates', selected: true }).waitFor();
    await admin.getByRole('button', { name: 'Create Diabetes Templates' }).waitFor();
    expect(await seriousA11yViolations(admin)).toEqual([]);
  });
});
