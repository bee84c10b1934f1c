import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, signIn as signInAt, type Browser } from '../support/browser';
import { startTestApp, type TestApp } from '../support/app';
import { action, cond, createParameter, createPublishedRuleSet } from '../support/clinical-factories';
import { createCast, createUser, PASSWORD } from '../support/factories';

let t: TestApp;
let browser: Browser;
let cast: Awaited<ReturnType<typeof createCast>>;
let caseId: string;

const signIn = (page: Page, email: string) => signInAt(page, t.url, email, PASSWORD);

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  const hba1c = await createParameter(t, cast.admin, { name: 'hba1c', display_name: 'HbA1c', units: '%', category: 'labs' });
  await createPublishedRuleSet(
    t,
    cast.admin,
    [
      {
        name: 'Diabetes range',
        description: 'HbA1c in the diabetes range',
        priority: 10,
        conditions: [cond(hba1c, 'greater_equal', 6.5)],
        actions: [action('Start metformin and lifestyle counselling', { severity: 'high' })],
      },
    ],
    { name: 'Glycaemic control' },
  );
  // A finished case through the API, so the console has history to show.
  const started = await t.http().post('/api/assessments').set(cast.pcp.auth).send({ mode: 'clinical' });
  const option = started.body.current_question.options.find((o: { label: string }) => o.label.includes('≥'));
  const done = await t
    .http()
    .post(`/api/assessments/${started.body.id}/answers`)
    .set(cast.pcp.auth)
    .send({ parameter_id: started.body.current_question.parameter_id, value: option.value });
  expect(done.body.recommendation.rule_name).toBe('Diabetes range');
  caseId = done.body.id;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('PCP console pages', () => {
  it('dashboard shows real figures and the recent case; every page is accessible', async () => {
    const page = await browser.newPage();
    await signIn(page, cast.pcp.email);
    await page.getByText('Diabetes range').first().waitFor();
    await screenshot(page, 'pcp-dashboard-with-cases');
    for (const [path, name, text] of [
      ['/pcp/cases', 'pcp-cases', 'Diabetes range'],
      [`/pcp/cases/${caseId}`, 'pcp-case-detail', 'Start metformin and lifestyle counselling'],
      // The spec's /pcp/diagnostics is the Diagnostic Assistant, the chat (issue 23: one assistant entry).
      ['/pcp/diagnostics', 'pcp-diagnostics', 'Welcome to the Diagnostic Assistant'],
      ['/pcp/settings', 'pcp-settings', 'Change password'],
    ] as const) {
      await page.goto(`${t.url}${path}`);
      await page.getByText(text).first().waitFor();
      await screenshot(page, name);
      expect({ path, violations: await seriousA11yViolations(page) }).toEqual({ path, violations: [] });
    }
    await page.close();
  });

  it('the case detail shows the answers and the basis of the recommendation', async () => {
    const page = await browser.newPage();
    await signIn(page, cast.pcp.email);
    await page.goto(`${t.url}/pcp/cases/${caseId}`);
    await page.getByText('HbA1c').first().waitFor();
    await page.getByText('Glycaemic control').first().waitFor();
    await page.close();
  });

  it("another user's case is not shown to a different PCP", async () => {
    const other = await createUser(t, 'pcp');
    const page = await browser.newPage();
    await signIn(page, other.email);
    await page.goto(`${t.url}/pcp/cases/${caseId}`);
    await page
      .getByText(/not found/i)
      .first()
      .waitFor();
    expect(await page.getByText('Start metformin and lifestyle counselling').count()).toBe(0);
    await page.close();
  });

  it('settings change the password; the old one stops working', async () => {
    const u = await createUser(t, 'pcp');
    const page = await browser.newPage();
    await signIn(page, u.email);
    await page.goto(`${t.url}/pcp/settings`);
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill(PASSWORD);
    await form.getByLabel(/^New password/).fill('a fresh clinic passphrase');
    await form.getByLabel('Confirm new password').fill('a fresh clinic passphrase');
    await form.getByRole('button').click();
    await page
      .getByText(/password/i)
      .filter({ hasText: /changed|updated/i })
      .first()
      .waitFor();
    expect((await t.http().post('/api/auth/token?grant_type=password').send({ email: u.email, password: PASSWORD })).status).toBe(400);
    expect(
      (await t.http().post('/api/auth/token?grant_type=password').send({ email: u.email, password: 'a fresh clinic passphrase' })).status,
    ).toBe(200);
    await page.close();
  });
});

describe('failures show the spec messages, never a blank page', () => {
  it('the chat shows the start-failure toast when the network fails', async () => {
    const page = await browser.newPage();
    await signIn(page, cast.pcp.email);
    await page.goto(`${t.url}/chatbot`);
    await page.getByRole('heading', { name: 'Diagnostic Assistant' }).first().waitFor();
    await screenshot(page, 'chat-welcome');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // The network drops between the page and the server.
    await page.route('**/api/chat-sessions', (route) => route.abort('connectionreset'));
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    await page.getByText('Failed to start new session. Please try again.').first().waitFor();
    await page.getByRole('button', { name: 'Start Conversation' }).waitFor();
    await page.close();
  });

  it('a failed profile save keeps what was typed', async () => {
    const u = await createUser(t);
    const page = await browser.newPage();
    await signIn(page, u.email);
    await page.getByRole('button', { name: /edit/i }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/first name/i).fill('Amara');
    await page.route('**/api/me/profile', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, code: 'internal_error', message: 'Internal server error' }),
      }),
    );
    await dialog.getByRole('button', { name: /save/i }).click();
    await page
      .getByText(/Internal server error|Failed to update profile/)
      .first()
      .waitFor();
    expect(await dialog.getByLabel(/first name/i).inputValue()).toBe('Amara');
    await screenshot(page, 'dashboard-profile-save-failed');
    await page.close();
  });
});
