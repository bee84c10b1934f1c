import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  dialogShot,
  launchBrowser,
  screenshot,
  screenshotDir,
  seriousA11yViolations,
  sideways,
  signIn as signInAt,
  type Browser,
} from '../support/browser';
import { startTestApp, type TestApp } from '../support/app';
import { action, cond, createFromTemplate, createPublishedRuleSet, expectStatus, seedTemplates } from '../support/clinical-factories';
import { createCast, PASSWORD } from '../support/factories';
import { panelPatientBundle } from '../support/panel-records';

/**
 * Issue 21 as a PCP meets it: the Panel shows each measure's score over the clinic's records, the
 * gap list narrows to one patient, the patient's evidence shows the result that made the gap, and
 * "Start assessment" opens the clinical form with that result offered. Issue 20: the finished
 * assessment's case detail names the patient and plots the HbA1c history it was started from.
 */
let t: TestApp;
/** The case detail of the assessment started from the Panel (set by the first test). */
let caseUrl = '';
let browser: Browser;
let cast: Awaited<ReturnType<typeof createCast>>;

const signIn = (page: Page) => signInAt(page, t.url, cast.pcp.email, PASSWORD);

/** The 15th of the month `n` months before this one, at noon (well inside that month). */
const monthsAgo = (n: number) => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 15, 12)).toISOString();
};

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  const templates = await seedTemplates(t, cast.admin);
  const a1c = await createFromTemplate(t, cast.admin, templates.hba1c, { name: 'hba1c_panel' });
  await createPublishedRuleSet(
    t,
    cast.admin,
    [
      {
        name: 'HbA1c above 9 %',
        priority: 10,
        conditions: [cond(a1c, '>=', 9)],
        actions: [action('Intensify glucose-lowering therapy and review adherence', { severity: 'high' })],
      },
    ],
    { name: 'Glycaemic control' },
  );
  for (const p of [
    panelPatientBundle({
      id: 'ada-hightower',
      given: 'Ada',
      family: 'Hightower',
      birthDate: '1960-04-02',
      hba1c: { value: 10.2, unit: '%' },
      earlierHba1c: [
        { value: 7.9, unit: '%', at: `${new Date().getUTCFullYear() - 2}-11-02T09:00:00Z` },
        { value: 8.6, unit: '%', at: `${new Date().getUTCFullYear() - 1}-06-12T09:00:00Z` },
      ],
    }),
    // Above 9 % at a visit five months ago, 6.8 % today: CMS122's trend falls this month.
    panelPatientBundle({
      id: 'carl-moss',
      given: 'Carl',
      family: 'Moss',
      birthDate: '1971-07-15',
      gender: 'male',
      diabetesSince: `${new Date().getUTCFullYear() - 3}-01-01T00:00:00.000Z`,
      earlierVisits: [monthsAgo(5)],
      earlierHba1c: [{ value: 9.6, unit: '%', at: monthsAgo(5) }],
      hba1c: { value: 6.8, unit: '%' },
    }),
    panelPatientBundle({ id: 'una-reed', given: 'Una', family: 'Reed', birthDate: '1958-09-30', hba1c: { value: 8, unit: 'kg' } }),
  ])
    expectStatus(await t.http().post('/api/fhir').set(cast.admin.auth).send(p), 200, 'POST /api/fhir');
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

it('a PCP with a patient whose HbA1c is above 9 % sees the gap on the Panel, opens the evidence and reaches the prefilled assessment', async () => {
  const page = await browser.newPage();
  try {
    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(page);
    await page.getByRole('navigation', { name: 'PCP Console menu' }).getByRole('link', { name: 'Panel' }).click();
    await page.waitForURL(`${t.url}/pcp/panel`);

    // CMS122 is inverse: one of the two patients placed with certainty is above 9 %; the unreadable one is left out.
    const cms122 = page.getByRole('region', { name: /^CMS122/ });
    await cms122.getByTestId('score-CMS122').waitFor();
    expect(await cms122.getByTestId('score-CMS122').textContent()).toBe('50 %');
    expect(await cms122.getByTestId('fraction-CMS122').textContent()).toBe('1 of 2 eligible');
    expect(await cms122.textContent()).toContain('1 not determined from the record');
    expect(await page.getByText('(the current calendar year, so far)').count()).toBe(1);
    await screenshot(page, 'pcp-panel-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const table = page.getByRole('table', { name: 'Gap list' });
    await page.getByRole('combobox', { name: 'Measure', exact: true }).click();
    await page.getByRole('option', { name: /^CMS122/ }).click();
    expect(await table.getByRole('row').count()).toBe(3); // header, Ada (gap), Una (not determined)
    expect(await table.getByRole('row', { name: /Una Reed/ }).textContent()).toContain('Not determined');
    await page.getByRole('textbox', { name: 'Search name or reason' }).fill('above 9');
    expect(await table.getByRole('row').count()).toBe(2);

    await table.getByRole('button', { name: 'Ada Hightower' }).click();
    const dialog = page.getByRole('dialog', { name: /Ada Hightower/ });
    const evidence = dialog.getByRole('list', { name: 'Evidence for Most recent HbA1c or GMI (lowest that day)' }).first();
    await evidence.waitFor();
    expect(await evidence.textContent()).toContain('Hemoglobin A1c/Hemoglobin.total in Blood · 10.2 %');
    expect(await dialog.textContent()).toContain('Most recent HbA1c or GMI 10.2 % (above 9 %)');
    await dialogShot(page, 'pcp-panel-evidence-1366');
    // The HbA1c history (three results over two years) is plotted under the measures, its values listed.
    const chart = dialog.getByTestId('history-chart');
    await chart.scrollIntoViewIfNeeded();
    expect(await chart.getByRole('img').getAttribute('aria-label')).toMatch(/^HbA1c: 3 results from Nov 2, \d{4} \(7\.9 %\) to /);
    await dialogShot(page, 'pcp-panel-history-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Start assessment' }).click();
    await page.waitForURL(/\/clinical-form$/);
    const summary = page.getByTestId('prefill-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toMatch(/HbA1c: 10\.2 % \(observed /);
    expect(await summary.textContent()).toContain('Values from the record');
    expect(await page.getByTestId('prefill-patient').textContent()).toBe(
      "Patient: Ada Hightower · Patient/ada-hightower in the clinic's records",
    );
    await screenshot(page, 'pcp-panel-prefilled-form-1366');

    // Confirm the offered HbA1c, finish, and open the case from the result.
    await page.getByRole('button', { name: 'Start Assessment' }).click();
    const card = page.getByTestId('question-card');
    await card.getByTestId('prefill-note').waitFor();
    expect(await card.getByTestId('prefill-note').textContent()).toMatch(/^From the record, observed /);
    await card.getByRole('button', { name: 'Record value' }).click();
    await page.getByRole('link', { name: 'View in Case History' }).click();
    await page.waitForURL(/\/pcp\/cases\/[0-9a-f-]{36}$/);
    caseUrl = page.url();
    expect(await page.getByTestId('case-patient').textContent()).toBe("Ada HightowerPatient/ada-hightower in the clinic's records");
    const caseChart = page.getByRole('region', { name: 'Results over time' }).getByTestId('history-chart');
    await caseChart.waitFor();
    expect(await caseChart.getByRole('img').getAttribute('aria-label')).toMatch(
      /^HbA1c: 3 results from Nov 2, \d{4} \(7\.9 %\) to \w{3} \d{1,2}, \d{4} \(10\.2 %\)$/,
    );
    await screenshot(page, 'case-detail-history-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);
  } finally {
    await page.close();
  }
});

it('a PCP sees at a glance how each score moved over the year and how the panel’s HbA1c spreads, with every number also in a table', async () => {
  const page = await browser.newPage();
  try {
    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(page);
    await page.goto(`${t.url}/pcp/panel`);
    const trend = page.getByRole('region', { name: 'Score by month' });
    const cms122 = trend.getByTestId('trend-CMS122');
    await cms122.waitFor();
    // Carl was above 9 % from five months ago until today's 6.8 %: the last point is Ada's alone, 1 of 2.
    expect(await cms122.getByRole('img').getAttribute('aria-label')).toMatch(
      /^CMS122 score by month, \w{3} \d{4} to \w{3} \d{4}: from 100 % in \w{3} \d{4} \(1 of 1\) to 50 % in \w{3} \d{4} \(1 of 2\)\. Lower is better: a falling line is improvement\.$/,
    );
    // At a desk a row per measure, months across; on a phone (below) a row per month.
    expect(await trend.getByRole('table', { name: 'Score by month' }).getByRole('row').count()).toBe(4);
    const distribution = page.getByRole('region', { name: 'HbA1c of the panel' });
    // CMS122's denominator: Ada 10.2 %, Carl 6.8 %, and Una's result in kg, which no band can hold.
    expect(await distribution.getByRole('img').getAttribute('aria-label')).toBe(
      "Most recent HbA1c of the 3 patients in CMS122's denominator: < 7 %: 1, 7–7.9 %: 0, 8–9 %: 0, > 9 %: 1, No result: 0, Not readable: 1",
    );
    expect(await sideways(page)).toBe(0);
    await trend.screenshot({ path: join(screenshotDir(), 'pcp-panel-trend-1366.png') });
    await distribution.screenshot({ path: join(screenshotDir(), 'pcp-panel-hba1c-1366.png') });
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await cms122.getByRole('img').waitFor();
    expect(await sideways(page)).toBe(0);
    await trend.screenshot({ path: join(screenshotDir(), 'pcp-panel-trend-390.png') });
    // On a phone the monthly values open on request, and fit the width.
    await trend.getByText('Values by month').click();
    expect(await trend.getByRole('table', { name: 'Score by month' }).getByRole('row').count()).toBe(13);
    expect(await sideways(page)).toBe(0);
    await trend.screenshot({ path: join(screenshotDir(), 'pcp-panel-trend-values-390.png') });
    await distribution.screenshot({ path: join(screenshotDir(), 'pcp-panel-hba1c-390.png') });
    expect(await seriousA11yViolations(page)).toEqual([]);
  } finally {
    await page.close();
  }
});

it('on a phone the Panel stacks the measures and the gap list, with nothing scrolling sideways', async () => {
  const page = await browser.newPage();
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    await page.goto(`${t.url}/pcp/panel`);
    const list = page.getByRole('list', { name: 'Gap list' });
    await list.waitFor();
    expect(await page.getByRole('table', { name: 'Gap list' }).count()).toBe(0);
    expect(await sideways(page)).toBe(0);
    await screenshot(page, 'pcp-panel-390');
    await list.getByRole('button', { name: /Ada Hightower.*CMS122/ }).click();
    const dialog = page.getByRole('dialog', { name: /Ada Hightower/ });
    await dialog.getByText('10.2 %').first().waitFor();
    expect(await sideways(page)).toBe(0);
    await dialogShot(page, 'pcp-panel-evidence-390');
    const chart = dialog.getByTestId('history-chart');
    await chart.scrollIntoViewIfNeeded();
    expect(await sideways(page)).toBe(0);
    await dialogShot(page, 'pcp-panel-history-390');
  } finally {
    await page.close();
  }
});

it('on a phone the case detail of an assessment started from the Panel names the patient and plots the HbA1c history, nothing scrolling sideways', async () => {
  expect(caseUrl).not.toBe('');
  const page = await browser.newPage();
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    await page.goto(caseUrl);
    const chart = page.getByRole('region', { name: 'Results over time' }).getByTestId('history-chart');
    await chart.waitFor();
    expect(await page.getByTestId('case-patient').textContent()).toContain('Ada Hightower');
    expect(await sideways(page)).toBe(0);
    await screenshot(page, 'case-detail-history-390');
  } finally {
    await page.close();
  }
});
