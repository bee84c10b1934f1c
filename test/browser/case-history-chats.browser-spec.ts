import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, signIn, type Browser } from '../support/browser';
import { startTestApp, type TestApp } from '../support/app';
import { createCast } from '../support/factories';
import { action, cond, createParameter, createPublishedRuleSet, expectStatus } from '../support/clinical-factories';

let t: TestApp;
let browser: Browser;
let cast: Awaited<ReturnType<typeof createCast>>;
let chatId: string;

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  browser = await launchBrowser();
  const a1c = await createParameter(t, cast.admin, { name: 'a1c_hist', display_name: 'HbA1c', data_type: 'lab_range', units: '%' });
  const sbp = await createParameter(t, cast.admin, { name: 'sbp_hist', display_name: 'Systolic BP', data_type: 'vitals', units: 'mm[Hg]' });
  await createPublishedRuleSet(
    t,
    cast.admin,
    [
      {
        name: 'Diabetes by A1C',
        priority: 80,
        conditions: [cond(a1c, '>=', 6.5)],
        actions: [action('Diagnose diabetes', { severity: 'high' })],
      },
      {
        name: 'Hypertensive crisis',
        priority: 100,
        conditions: [cond(sbp, '>=', 180)],
        actions: [action('Same-day evaluation', { severity: 'critical' })],
      },
    ],
    { name: 'History' },
  );
  // A PCP's conversation: both rules match and the clinician follows the diabetes one.
  const values: Record<string, number> = { [a1c.id]: 7.1, [sbp.id]: 185 };
  let s = expectStatus(await t.http().post('/api/chat-sessions').set(cast.pcp.auth), 201, 'start').body;
  while (s.pending?.kind === 'question') {
    const res = await t
      .http()
      .post(`/api/chat-sessions/${s.id}/answers`)
      .set(cast.pcp.auth)
      .send({ parameter_id: s.pending.parameter_id, value: values[s.pending.parameter_id] });
    s = expectStatus(res, 200, 'answer').body;
  }
  const diabetes = s.pending.options.find((o: { label: string }) => o.label === 'Diabetes by A1C');
  s = expectStatus(
    await t.http().post(`/api/chat-sessions/${s.id}/choice`).set(cast.pcp.auth).send({ rule_id: diabetes.value }),
    200,
    'choose',
  ).body;
  chatId = s.id;
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function open(path: string, width: number): Promise<Page> {
  const page = await browser.newPage();
  await signIn(page, t.url, cast.pcp.email, cast.pcp.password);
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${t.url}${path}`);
  await page.waitForLoadState('networkidle');
  return page;
}

const scrollWidth = (page: Page) =>
  page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth);

describe('the case history shows Diagnostic Assistant chats (issue 10 item 17)', () => {
  it.each([1366, 390])('at %i px the chat is listed with its kind, result and most severe finding, and opens its detail', async (width) => {
    const page = await open('/pcp/cases', width);
    const row = page.getByRole('table', { name: 'Chat sessions' }).getByRole('row').nth(1);
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain('Diagnostic Assistant chat');
    expect(text).toContain('Diabetes by A1C (+1 more)');
    expect(text).toContain('Critical severity');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(0);
    await screenshot(page, `case-history-chats-${width}`);

    await row.getByRole('link').click();
    await page.waitForURL(`**/pcp/chats/${chatId}`);
    await page.getByRole('heading', { name: 'Chat session details' }).waitFor();
    await page.getByTestId('finding-card').first().waitFor();
    expect(await page.getByTestId('finding-card').count()).toBe(2);
    expect(await page.getByTestId('answer-row').count()).toBe(2);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(0);
    await screenshot(page, `chat-case-detail-${width}`);
    await page.close();
  });
});
