import { screenshot, seriousA11yViolations, signIn } from '../support/browser';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';
import { conformanceCases } from '../support/conformance';
import { PASSWORD } from '../support/factories';

/**
 * Issue 21: an administrator checks the shipped measures against the official CMS test decks (each case's
 * expected and computed populations), and follows the measure runs beside the record imports.
 */
let s: BrowserSuite;
browserSuite((suite) => (s = suite));

it("an administrator reads every official case's expected and computed populations, at a desk and on a phone", async () => {
  const { t, cast, browser } = s;
  const cases = conformanceCases();
  const page = await browser.newPage();
  try {
    await signIn(page, t.url, cast.admin.email, PASSWORD);
    await page.goto(`${t.url}/admin/settings`);
    await page.getByRole('link', { name: 'Measure conformance' }).click();
    await page.getByRole('heading', { name: 'Measure conformance' }).waitFor();
    await page
      .getByText(`${cases.length} of ${cases.length} official cases agree with the expected populations.`)
      .waitFor({ timeout: 60_000 });
    // Every deck agrees, so each is folded: open CMS165's and read one of its cases.
    await page.getByRole('button', { name: /CMS165/ }).click();
    const table = page.getByRole('table', { name: 'CMS165 cases' });
    await table.waitFor();
    const cms165 = cases.filter((c) => c.measure.startsWith('CMS165'));
    expect(await table.getByRole('row').count()).toBe(cms165.length + 1);
    const first = table.getByRole('row').nth(1);
    expect(await first.textContent()).toContain('Agrees');
    await screenshot(page, 'measure-conformance-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A phone gets one block per case, its four populations readable, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 900 });
    const list = page.getByRole('list', { name: 'CMS165 cases' });
    await list.waitFor();
    const last = list.getByRole('listitem').last();
    await last.scrollIntoViewIfNeeded();
    expect(await last.isVisible()).toBe(true);
    expect(await last.textContent()).toMatch(/Initial population(Yes|No) \/ (Yes|No)/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'measure-conformance-390');
    expect(await seriousA11yViolations(page)).toEqual([]);
  } catch (e) {
    await screenshot(page, 'measure-conformance-failure');
    throw e;
  } finally {
    await page.close();
  }
}, 120_000);

it('an administrator sees the measure runs beside the record imports, with their progress in patients', async () => {
  const { t, cast, browser } = s;
  // The rows as runs leave them (with Redis and PostgreSQL no worker runs in this suite): one completed, one under way.
  await t.db.query(
    `INSERT INTO measure_runs (status, measure_ids, period_start, period_end, trend, requested_by, total, done, evaluated, started_at, finished_at, created_at)
     VALUES ('completed', '{A,B,C}', '2026-01-01', '2026-12-31', true, $1, 2400, 2400, 37, now() - interval '1 hour', now() - interval '1 hour', now() - interval '1 hour')`,
    [cast.admin.id],
  );
  await t.db.query(
    `INSERT INTO measure_runs (status, measure_ids, period_start, period_end, total, done, evaluated, started_at, created_at)
     VALUES ('running', '{A,B,C}', '2026-01-01', '2026-12-31', 2400, 600, 600, now(), now())`,
  );
  const page = await browser.newPage();
  try {
    await signIn(page, t.url, cast.admin.email, PASSWORD);
    await page.goto(`${t.url}/admin/settings`);
    await page.getByRole('link', { name: 'Measure runs' }).click();
    const runs = page.getByRole('region', { name: 'Measure runs' });
    await runs.waitFor();
    const running = runs.getByRole('listitem', { name: /Running/ });
    await running.waitFor();
    expect(await running.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    expect(await runs.getByRole('listitem', { name: /Completed/ }).textContent()).toContain(
      '37 patients evaluated; 2,363 unchanged since their stored result',
    );
    await runs.scrollIntoViewIfNeeded();
    await screenshot(page, 'measure-runs-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 900 });
    const button = runs.getByRole('button', { name: /Run the measures/ });
    await button.scrollIntoViewIfNeeded();
    expect(await button.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'measure-runs-390');
  } catch (e) {
    await screenshot(page, 'measure-runs-failure');
    throw e;
  } finally {
    await page.close();
  }
});
