import type { Locator, Page } from 'playwright-core';
import { screenshot, seriousA11yViolations, signIn, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';
import {
  action,
  cond,
  createParameter,
  createRule,
  createRuleSet,
  publish,
  runAssessment,
  uniqueName,
  updateRule,
} from '../support/clinical-factories';

/**
 * Issue 23, what an admin reads where the product stores codes: a blood-pressure parameter stored
 * in UCUM ("mm[Hg]") reads "mmHg" in the sandbox, the conditions and the flow preview; its change
 * history names the category and the data type and says its limits in a sentence; the publish
 * dialog names a severity; a never-published set is a draft, not "v1"; a Publish with nothing to
 * publish says why on the page; the impact preview draws the patients moving between findings and
 * the analytics draw the monthly trend. Each at 1366 px and at 390 px, where the content must be
 * reachable, not only the page narrow.
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

/** At this width, the element can be brought into view and lies within the viewport's width. */
async function reachable(page: Page, target: Locator, width: number) {
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

let admin: Page;
let sbpId: string;

describe('a blood pressure rule set, as an admin reads it', () => {
  beforeAll(async () => {
    admin = await browser.newPage();
    await signIn(admin, t.url, cast.admin.email, cast.admin.password);
  });

  it('the change history names the category, the data type and the unit, and says the limits in a sentence', async () => {
    const sbp = await createParameter(t, cast.admin, {
      name: uniqueName('sbp'),
      display_name: 'Systolic blood pressure',
      data_type: 'lab_range',
      category: 'labs',
      units: 'mm[Hg]',
      validation_rules: { min: 60, max: 260, decimals: 0 },
    });
    sbpId = sbp.id;
    const put = await t
      .http()
      .put(`/api/parameters/${sbp.id}`)
      .set(cast.admin.auth)
      .send({ category: 'vitals', data_type: 'number', validation_rules: { min: 50, max: 300, decimals: 0 }, change_reason: 'Vital sign' });
    expect(put.status).toBe(200);

    await admin.goto(`${t.url}/admin/parameters`);
    await admin.getByRole('tab', { name: 'Change History' }).click();
    const entry = admin
      .getByRole('list', { name: 'Parameter changes' })
      .getByRole('listitem')
      .filter({ hasText: 'Reason: Vital sign' })
      .filter({ hasText: sbp.name });
    await entry.waitFor();
    const text = (await entry.textContent()) ?? '';
    expect(text).toContain('Laboratory → Vital Signs');
    expect(text).toContain('Lab Range → Number');
    // An update records only the fields that changed: the unit, unchanged, is not guessed.
    expect(text).toContain('Accepts values 60 to 260, 0 decimal places. → Accepts values 50 to 300, 0 decimal places.');
    for (const code of ['labs', 'lab_range', 'vitals', '{', 'mm[Hg]']) expect(text).not.toContain(code);
    const created = admin
      .getByRole('list', { name: 'Parameter changes' })
      .getByRole('listitem')
      .filter({ hasText: 'created' })
      .filter({ hasText: sbp.name });
    const first = (await created.textContent()) ?? '';
    expect(first).toContain('mmHg');
    expect(first).toContain('Accepts values 60 to 260 mmHg, 0 decimal places.');
    expect(first).not.toContain('mm[Hg]');
    await atEachWidth(admin, 'admin-change-history-readable', (width) => reachable(admin, entry.getByText('Vital Signs'), width));
  });

  let setId: string;
  let ruleId: string;

  it('a draft set says Draft, the conditions and the flow preview read mmHg, and the sandbox asks in mmHg', async () => {
    const set = await createRuleSet(t, cast.admin, { name: uniqueName('Blood pressure') });
    setId = set.id;
    const rule = await createRule(t, cast.admin, set, {
      name: 'Hypertensive crisis',
      priority: 50,
      conditions: [cond(sbpId, '>=', 180)],
      actions: [action('Assess for end-organ damage now', { severity: 'critical' })],
    });
    ruleId = rule.id;
    await admin.goto(`${t.url}/admin/rules?rule_set_id=${set.id}`);
    const item = admin.getByTestId('rule-set-item').filter({ hasText: set.name });
    await item.getByText('Draft · not published').waitFor();
    expect(await item.textContent()).not.toMatch(/\bv1\b/);
    await atEachWidth(admin, 'admin-rule-set-draft', (width) => reachable(admin, item.getByText('Draft · not published'), width));

    await admin.goto(`${t.url}/admin/rules/${rule.id}`);
    await admin.getByRole('tab', { name: /^Conditions/ }).click();
    const helper = admin.getByText('Units: mmHg');
    await helper.waitFor();
    await admin.getByText('Systolic blood pressure ≥ 180 mmHg').first().waitFor();
    expect(await admin.getByText('mm[Hg]').count()).toBe(0);
    await atEachWidth(admin, 'admin-rule-conditions-units', (width) => reachable(admin, helper, width));

    await admin
      .getByRole('button', { name: /Test Rule/ })
      .first()
      .click();
    const dialog = admin.getByRole('dialog', { name: 'Test Rule: Hypertensive crisis' });
    const field = dialog.getByLabel('Systolic blood pressure (mmHg)');
    await field.fill('192');
    await dialog.getByRole('button', { name: 'Run Test' }).click();
    const trace = dialog.getByRole('table', { name: 'Trace' });
    await trace.getByText('Systolic blood pressure ≥ 180 mmHg').waitFor();
    expect(await trace.getByRole('cell', { name: '192 mmHg' }).count()).toBe(1);
    await dialog.getByText('Critical severity: Assess for end-organ damage now', { exact: false }).waitFor();
    expect(await dialog.getByText('mm[Hg]', { exact: false }).count()).toBe(0);
    await atEachWidth(admin, 'admin-sandbox-units', (width) => reachable(admin, field, width));
    expect(await seriousA11yViolations(admin)).toEqual([]);
  });

  it('the publish dialog names the severity and draws the patients moving between findings; afterwards Publish says why it is off', async () => {
    await publish(t, cast.admin, setId);
    await updateRule(t, cast.admin, ruleId, {
      conditions: [cond(sbpId, '>=', 170)],
      actions: [action('Assess for end-organ damage now', { severity: 'high' })],
    });
    await admin.goto(`${t.url}/admin/rules?rule_set_id=${setId}`);
    await admin.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = admin.getByRole('dialog', { name: /^Publish / });
    const impact = dialog.getByRole('region', { name: 'Impact preview' });
    await impact.waitFor();
    const changed = dialog.getByRole('region', { name: 'Rules changed' });
    const details = await changed.getByRole('list', { name: 'What changed' }).getByRole('listitem').allTextContents();
    expect(details).toContain('Severity: Critical → High');
    expect(details.join(' ')).not.toMatch(/\b(critical|high|medium|low)\b/);
    const generated = impact.getByRole('region', { name: '10,000 patients generated around the cut-points' });
    await generated.getByRole('row').filter({ hasText: 'No finding → Hypertensive crisis' }).first().waitFor();
    const chart = generated.getByTestId('transitions-chart');
    await chart.waitFor();
    await chart.locator('.recharts-bar-rectangle').first().waitFor();
    expect(await chart.textContent()).toContain('No finding → Hypertensive crisis');
    await atEachWidth(admin, 'admin-impact-transitions-chart', (width) => reachable(admin, chart, width));
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    const reason = admin.getByText(/^Nothing to publish: the rules are as published in version 2\./);
    await reason.waitFor();
    expect(await admin.getByRole('button', { name: 'Publish', exact: true }).getAttribute('aria-describedby')).toBe('publish-unavailable');
    await atEachWidth(admin, 'admin-publish-unavailable-reason', (width) => reachable(admin, reason, width));
  });

  it('the analytics draw the assessments by month above the table that keeps every figure', async () => {
    await runAssessment(t, cast.pcp, { [sbpId]: 192 });
    await runAssessment(t, cast.pcp, { [sbpId]: 120 });
    await admin.goto(`${t.url}/admin/rules?rule_set_id=${setId}`);
    await admin.getByRole('tab', { name: 'Analytics' }).click();
    const panel = admin.locator('#panel-analytics');
    const chart = panel.getByTestId('period-trend-chart');
    await chart.locator('.recharts-bar-rectangle').first().waitFor();
    expect(await chart.getAttribute('aria-label')).toContain('by month');
    const table = panel.getByRole('table', { name: 'By month' });
    await table.waitFor();
    // The chart comes first, the table after it.
    const [c, tb] = [await chart.boundingBox(), await table.boundingBox()];
    expect(c!.y).toBeLessThan(tb!.y);
    await atEachWidth(admin, 'admin-analytics-trend-chart', (width) => reachable(admin, chart, width));
  });
});
