import { screenshot, seriousA11yViolations, signIn } from '../support/browser';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';
import { PASSWORD } from '../support/factories';

/** Issue 21: an administrator follows the record imports ($import jobs) in the admin console. */
let s: BrowserSuite;
browserSuite((suite) => (s = suite));

it('an administrator sees each import with its status, progress and what was skipped, from Settings', async () => {
  const { t, cast, browser } = s;
  // The rows as imports leave them (with Redis and PostgreSQL no worker runs in this suite): one completed
  // with a skipped line, one failed, one under way.
  await t.db.query(
    `INSERT INTO record_imports (status, requested_by, total_lines, chunks_total, chunks_done, done_lines, stored, invalid, errors,
                                 started_at, finished_at, created_at)
     VALUES ('completed', $1, 3, 1, 1, 3, 2, 1, '[{"line": 2, "diagnostics": "the line is not JSON"}]', now(), now(), now())`,
    [cast.admin.id],
  );
  await t.db.query(
    `INSERT INTO record_imports (status, inputs, total_lines, chunks_total, failure, started_at, finished_at, created_at)
     VALUES ('failed', '[{"type":"Patient","url":"https://fhir.clinic.example.org/r4/Patient.ndjson"}]', NULL, NULL,
             'https://fhir.clinic.example.org/r4/Patient.ndjson answered 503', now() - interval '1 hour', now() - interval '1 hour', now() - interval '1 hour')`,
  );
  await t.db.query(
    `INSERT INTO record_imports (status, total_lines, chunks_total, chunks_done, done_lines, started_at, created_at)
     VALUES ('running', 12000, 12, 5, 5000, now(), now() + interval '1 second')`,
  );

  const page = await browser.newPage();
  try {
    await signIn(page, t.url, cast.admin.email, PASSWORD);
    await page.goto(`${t.url}/admin/settings`);
    await page.getByRole('link', { name: 'Record imports' }).click();
    await page.getByRole('heading', { name: 'Record imports' }).waitFor();
    const running = page.getByRole('row', { name: /Running/ });
    await running.waitFor();
    expect(await running.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('42');
    expect(await page.getByRole('row', { name: /Completed/ }).textContent()).toContain(
      '2 resources stored; 1 line skipped (line 2: the line is not JSON)',
    );
    expect(await page.getByRole('row', { name: /Failed/ }).textContent()).toContain('answered 503: nothing was stored');
    await screenshot(page, 'record-imports-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // A phone gets one block per import, no wider than the screen.
    await page.setViewportSize({ width: 390, height: 900 });
    await page.getByRole('listitem', { name: /Running/ }).waitFor();
    expect(await page.getByRole('listitem', { name: /Failed/ }).textContent()).toContain('No file was read');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'record-imports-390');
    expect(await seriousA11yViolations(page)).toEqual([]);
  } catch (e) {
    await screenshot(page, 'record-imports-failure');
    throw e;
  } finally {
    await page.close();
  }
});
