import type { Page } from 'playwright-core';
import { screenshot, signIn, type Browser } from '../support/browser';
import type { TestApp } from '../support/app';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';
import { createUser, type TestUser } from '../support/factories';
import {
  action,
  cond,
  createParameter,
  createPublishedRuleSet,
  expectStatus,
  runAssessment,
  uniqueName,
} from '../support/clinical-factories';
import { expectReachable, settle, WIDTHS, wordsBrokenInside } from '../support/phone';

let t: TestApp;
let browser: Browser;
let cast: BrowserSuite['cast'];
browserSuite((s) => ({ t, browser, cast } = s));

/**
 * Dr. Grace Lin's week: one patient in hypertensive crisis (a finding), one whose answers matched no
 * rule (a completed assessment, not a failure), one assessment answered in part, and one opened and
 * left before the first answer.
 */
let grace: TestUser;

beforeAll(async () => {
  const sbp = await createParameter(t, cast.admin, { name: uniqueName('sbp'), display_name: 'Systolic Blood Pressure', units: 'mm[Hg]' });
  const a1c = await createParameter(t, cast.admin, { name: uniqueName('a1c'), display_name: 'HbA1c', units: '%' });
  await createPublishedRuleSet(
    t,
    cast.admin,
    [
      {
        name: 'Hypertensive crisis',
        priority: 50,
        conditions: [cond(sbp, '>=', 180)],
        actions: [action('Assess for end-organ damage now', { severity: 'critical' })],
      },
      { name: 'Diabetes range HbA1c', priority: 10, conditions: [cond(a1c, '>=', 6.5)], actions: [action('Confirm with a repeat HbA1c')] },
    ],
    { name: uniqueName('Phone cases') },
  );
  grace = await createUser(t, 'pcp', { first_name: 'Grace', last_name: 'Lin' });
  await runAssessment(t, grace, { [sbp.id]: 121, [a1c.id]: 5.4 }); // no finding
  await runAssessment(t, grace, { [sbp.id]: 192, [a1c.id]: 5.4 }); // a finding
  // Answered in part: the first question only.
  const started = expectStatus(await t.http().post('/api/assessments').set(grace.auth).send({ mode: 'clinical' }), 201, 'start').body;
  const first = started.current_parameter_id as string;
  const partial = expectStatus(
    await t
      .http()
      .post(`/api/assessments/${started.id}/answers`)
      .set(grace.auth)
      .send({ parameter_id: first, value: first === sbp.id ? 121 : 5.4, step: started.step }),
    200,
    'answer',
  ).body;
  expect(partial.is_completed).toBe(false);
  // Opened and left before the first answer.
  expectStatus(await t.http().post('/api/assessments').set(grace.auth).send({ mode: 'clinical' }), 201, 'start');
});

async function pcpPage(width: number, height: number, path: string): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewportSize({ width, height });
  await signIn(page, t.url, grace.email, grace.password);
  await page.goto(`${t.url}${path}`);
  await settle(page);
  return page;
}

describe('the PCP dashboard in a physician’s words', () => {
  for (const { width, height } of WIDTHS) {
    it(`at ${width} px: a completed assessment with no finding counts as completed, not failed; the never-answered one is not a case`, async () => {
      const page = await pcpPage(width, height, '/pcp');
      await page.getByRole('heading', { name: 'Welcome back, Grace' }).waitFor();
      const stat = (label: string) => page.getByTestId(`stat-${label}`);
      await stat('Total Cases').filter({ hasText: /^3$/ }).waitFor();
      expect(await stat('Completed').textContent()).toBe('2');
      expect(await stat('In Progress').textContent()).toBe('1');
      const completed = page.getByRole('region', { name: 'Completed' });
      expect(await completed.textContent()).toContain('1 with a finding, 1 with no finding');
      await page.getByText('1 assessment opened but never answered is not counted; it stays in Case History.').waitFor();
      // No figure calls a finished assessment a failure.
      expect(await page.getByText(/Success Rate|Patients Helped/).count()).toBe(0);
      // Recent Cases lists the three real cases, whole titles readable.
      const recent = page.getByRole('list', { name: 'Recent cases' });
      expect(await recent.getByRole('link').count()).toBe(3);
      expect(await recent.getByText('Opened, never answered').count()).toBe(0);
      await expectReachable(page, recent.getByText('No recommendation', { exact: true }).first());
      expect(await wordsBrokenInside(recent, 'p, span')).toEqual([]);
      await expectReachable(page, page.getByRole('region', { name: 'In Progress' }));
      await screenshot(page, `pcp-dashboard-figures-${width}`);
      // Each button's words say where it goes: the Diagnostic Assistant is the chat, an assessment the clinical form.
      await expectReachable(page, page.getByRole('link', { name: 'New Assessment' }));
      await page.getByRole('link', { name: 'Launch Diagnostic Assistant' }).click();
      await page.getByText('Welcome to the Diagnostic Assistant').waitFor();
      expect(new URL(page.url()).pathname).toBe('/chatbot');
      await page.goBack();
      await page.getByRole('link', { name: 'New Assessment' }).click();
      await page.waitForURL(/\/clinical-form$/);
      await page.close();
    });
  }
});

describe('Case History on a phone', () => {
  for (const { width, height } of WIDTHS) {
    it(`at ${width} px: every case's result is readable in full and its link reachable without sideways scrolling`, async () => {
      const page = await pcpPage(width, height, '/pcp/cases');
      // By its label: on a phone the table is laid out as blocks, which may drop its table role.
      const table = page.locator('table[aria-label="Case history"]');
      await table.getByText('Hypertensive crisis').waitFor();
      // Results and status chips are not cut ("No recommen…").
      const cut = await table.evaluate((root) =>
        [...root.querySelectorAll('td, td *')]
          .filter((el) => el.children.length === 0 && el.textContent?.trim())
          .filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible')
          .map((el) => el.textContent),
      );
      expect(cut).toEqual([]);
      expect(await wordsBrokenInside(table, 'td')).toEqual([]);
      for (const text of ['No recommendation', 'Hypertensive crisis', 'Assessment in progress', 'Opened, never answered']) {
        await expectReachable(page, table.getByText(text, { exact: true }).last());
      }
      // The oldest case (the last row) opens.
      const links = table.getByRole('link');
      expect(await links.count()).toBe(4);
      await expectReachable(page, links.last());
      await screenshot(page, `case-history-${width}`);
      await links.last().click();
      await page.waitForURL(/\/pcp\/cases\/[0-9a-f-]{36}$/);
      await page.close();
    });
  }
});
