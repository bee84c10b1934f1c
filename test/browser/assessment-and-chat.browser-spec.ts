import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, signIn as signInAt, type Browser } from '../support/browser';
import { startTestApp, type TestApp } from '../support/app';
import { action, cond, createParameter, createPublishedRuleSet } from '../support/clinical-factories';
import { createCast, PASSWORD } from '../support/factories';

let t: TestApp;
let browser: Browser;
let cast: Awaited<ReturnType<typeof createCast>>;

const signIn = (page: Page, email: string) => signInAt(page, t.url, email, PASSWORD);

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  const tsh = await createParameter(t, cast.admin, {
    name: 'TSH',
    display_name: 'TSH',
    units: 'mIU/L',
    category: 'labs',
    data_type: 'number',
  });
  // Two rules that fire on the same answer: the clinical form ranks them, the chat offers a choice.
  await createPublishedRuleSet(
    t,
    cast.admin,
    [
      {
        name: 'Thyroid follow-up A',
        description: 'Elevated TSH: repeat with free T4',
        priority: 50,
        conditions: [cond(tsh, 'greater_than', 4.5)],
        actions: [action('Order free T4 and repeat TSH in 6 weeks', { type: 'recommendation', severity: 'high' })],
      },
      {
        name: 'Thyroid follow-up B',
        description: 'Elevated TSH: endocrinology referral',
        priority: 40,
        conditions: [cond(tsh, 'greater_than', 4.5)],
        actions: [action('Refer to endocrinology', { type: 'referral', severity: 'medium' })],
      },
    ],
    { name: 'Thyroid screening' },
  );
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('a PCP runs a Clinical Assessment against a published rule set', () => {
  it('reaches the recommendation with its basis, and the case history shows it', async () => {
    const page = await browser.newPage();
    await signIn(page, cast.pcp.email);
    await page.goto(`${t.url}/clinical-form`);
    await page.getByRole('heading', { name: 'Ready to Begin?' }).waitFor();
    await screenshot(page, 'clinical-ready');
    await page.getByRole('button', { name: 'Start Assessment' }).click();
    const high = page.getByRole('button', { name: /TSH > 4\.5/ });
    await high.waitFor();
    await screenshot(page, 'clinical-question');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Answered from the keyboard: a clinician must not need a mouse.
    await high.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Thyroid follow-up A').first().waitFor();
    await page.getByText('Order free T4 and repeat TSH in 6 weeks').first().waitFor();
    // Both rules fired: both are shown, the higher priority first (issue 9).
    const cards = page.getByTestId('finding-card');
    expect(await cards.count()).toBe(2);
    expect(await cards.nth(1).getByRole('heading', { level: 3 }).textContent()).toBe('Thyroid follow-up B');
    await screenshot(page, 'clinical-result');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const list = await t.http().get('/api/assessments').set(cast.pcp.auth);
    expect(list.body[0].recommendation).toMatchObject({ rule_name: 'Thyroid follow-up A', rule_version: expect.any(Number) });
    // The band as chosen, never a stand-in value (issue 9).
    expect(list.body[0].recommendation.basis[0]).toMatchObject({
      parameter_name: 'TSH',
      value: { type: 'range', min: 4.5, min_inclusive: false, max: null },
    });

    await page.goto(`${t.url}/pcp/cases`);
    await page.getByText('Thyroid follow-up A').first().waitFor();
    await screenshot(page, 'pcp-case-history');
    await page.close();
  });
});

describe('the chat Diagnostic Assistant', () => {
  it('offers a choice when several rules match, then completes', async () => {
    const page = await browser.newPage();
    await signIn(page, cast.pcp.email);
    await page.goto(`${t.url}/chatbot`);
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    await page.getByText('Please select an option:').waitFor();
    await page
      .getByRole('button', { name: /TSH > 4\.5/ })
      .first()
      .click();
    await page.getByText('Multiple recommendations are available. Which would you like to follow?').first().waitFor();
    await screenshot(page, 'chat-choice');
    await page.getByRole('button', { name: 'Thyroid follow-up B' }).click();
    await page.getByText('Session completed. Would you like to start over?').waitFor();
    await page.getByRole('button', { name: 'Start New Session' }).waitFor();
    await screenshot(page, 'chat-completed');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  });
});
