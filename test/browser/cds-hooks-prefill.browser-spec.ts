import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, signIn, type Browser } from '../support/browser';
import { startTestApp, type TestApp } from '../support/app';
import {
  callPatientView,
  expectCardsResponse,
  observationBundle,
  registerCdsClient,
  startCdsClient,
  type Card,
  type CdsClientKeys,
} from '../support/cds-hooks';
import { action, cond, createFromTemplate, createPublishedRuleSet, expectStatus, seedTemplates } from '../support/clinical-factories';
import { createCast, PASSWORD } from '../support/factories';

/**
 * Issue 11 as a clinician meets it: a card in the EHR links to our clinical form; the clinician
 * signs in, finds the EHR's values filled in with their units and dates, confirms each, and gets
 * the same finding as the card. The link works once.
 */
let t: TestApp;
let browser: Browser;
let ehr: CdsClientKeys;
let cast: Awaited<ReturnType<typeof createCast>>;

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
/** The app's one date format (frontend/src/components/format.ts formatDate): "Nov 13, 2026". */
const shown = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  const templates = await seedTemplates(t, cast.admin);
  const a1c = await createFromTemplate(t, cast.admin, templates.hba1c, { name: 'hba1c_ehr' });
  const fpg = await createFromTemplate(t, cast.admin, templates.fasting_glucose, { name: 'fpg_ehr' });
  await createPublishedRuleSet(
    t,
    cast.admin,
    [
      {
        name: 'Diabetes by HbA1c and fasting glucose',
        priority: 10,
        conditions: [cond(a1c, '>=', 6.5), cond(fpg, '>=', 126)],
        actions: [action('Diabetes confirmed by two tests: start diabetes care', { severity: 'high' })],
      },
    ],
    { name: 'ADA 2026 diagnosis' },
  );
  ehr = await startCdsClient(`https://ehr.example.org/${randomUUID()}`);
  await registerCdsClient(t, cast.admin, ehr);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ehr?.close();
  await t?.close();
});

/** What the EHR does: call patient-view with the prefetched Observations and take the first card. */
async function firstCard(): Promise<Card> {
  const res = await callPatientView(t, ehr, 'pt-1', {
    patient: { resourceType: 'Patient', id: 'pt-1' },
    'obs-4548-4': observationBundle('pt-1', '4548-4', 53, 'mmol/mol', daysAgo(10)),
    'obs-1558-6': observationBundle('pt-1', '1558-6', 7.5, 'mmol/L', daysAgo(3)),
  });
  const [card] = expectCardsResponse(expectStatus(res, 200, 'patient-view').body);
  expect(card.summary).toBe('Diabetes by HbA1c and fasting glucose: Diabetes confirmed by two tests: start diabetes care');
  return card;
}

async function signInHere(page: Page) {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(cast.pcp.email);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

it('a card link opens the form after sign-in with the values from the EHR; each is confirmed; the link works once', async () => {
  const link = (await firstCard()).links![0].url;
  const page = await browser.newPage();
  try {
    await page.goto(link);
    await page.waitForURL(/\/auth$/);
    await signInHere(page);
    await page.waitForURL(/\/clinical-form$/);
    const summary = page.getByTestId('prefill-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toContain(`HbA1c: 53 mmol/mol (observed ${shown(daysAgo(10))})`);
    await page.getByRole('button', { name: 'Start Assessment' }).click();

    const answers: string[] = [];
    for (let i = 0; i < 2; i++) {
      const question = page.getByTestId('question-card');
      const note = question.getByTestId('prefill-note');
      await note.waitFor();
      const text = (await note.textContent())!;
      answers.push(text);
      if (i === 0) {
        for (const width of [1366, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await screenshot(page, `cds-prefill-question-${width}`);
        }
        await page.setViewportSize({ width: 1366, height: 900 });
        expect(await seriousA11yViolations(page)).toEqual([]);
      }
      const step = await question.getByText(/^Question \d+$/).textContent();
      await question.getByRole('button', { name: 'Record value' }).click();
      await page.waitForFunction(
        (s) => !document.querySelector('[data-testid="question-card"]') || !document.body.innerText.includes(s as string),
        step,
      );
    }
    expect(answers.sort()).toEqual([
      `From EHR, observed ${shown(daysAgo(10))}. Check the value, then record it.`,
      `From EHR, observed ${shown(daysAgo(3))}. Check the value, then record it.`,
    ]);
    const result = page.getByTestId('result-card');
    await result.waitFor();
    expect(await result.textContent()).toContain('Diabetes confirmed by two tests: start diabetes care');
    // The answers are the EHR's values in their own units, with their dates.
    const [row] = await t.db.query(`SELECT answer_details FROM assessments ORDER BY created_at DESC LIMIT 1`);
    const details = row.answer_details as { unit: string; entered_value?: number; observed_at: string }[];
    expect(details.map((d) => [d.unit, d.entered_value]).sort()).toEqual([
      ['mmol/L', 7.5],
      ['mmol/mol', 53],
    ]);
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `cds-prefill-result-${width}`);
    }

    await page.goto(link);
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('expired or was already used');
  } finally {
    await page.close();
  }
});

it("the EHR's feedback on a card shows in the rule set's analytics, per rule version", async () => {
  const card = await firstCard();
  const feedback = await t
    .http()
    .post('/api/cds-services/patient-view/feedback')
    .set('Authorization', `Bearer ${await ehr.sign(`${t.url}/api/cds-services/patient-view`)}`)
    .send({
      feedback: [
        {
          card: card.uuid,
          outcome: 'overridden',
          overrideReason: { reason: { code: 'already-treated', display: 'Already treated' }, userComment: 'On metformin since 2024' },
          outcomeTimestamp: new Date().toISOString(),
        },
      ],
    });
  expectStatus(feedback, 200, 'feedback');
  const page = await browser.newPage();
  try {
    await signIn(page, t.url, cast.admin.email, PASSWORD);
    await page.goto(`${t.url}/admin/rules`);
    await page.getByRole('tab', { name: 'Analytics' }).click();
    const table = page.getByRole('table', { name: 'EHR feedback by rule version' });
    await table.waitFor();
    const row = table.getByRole('row', { name: /Diabetes by HbA1c and fasting glucose/ });
    // v1, 2 cards (this test's and the first test's), no acceptance, one override: 0% accepted, 100% overridden.
    expect((await row.getByRole('cell').allTextContents()).slice(1)).toEqual(['v1', '2', '0', '1', '0%', '100%']);
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `cds-feedback-analytics-${width}`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(await seriousA11yViolations(page)).toEqual([]);
  } finally {
    await page.close();
  }
});

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The labels of the controls in `scope` that the toast stack overlaps. */
async function coveredControls(page: Page, scope: Locator): Promise<string[]> {
  const toast = (await page.getByTestId('toast').first().boundingBox())!;
  const covered: string[] = [];
  for (const control of await scope.locator('button, input, [role="radio"], [role="button"]').all()) {
    const box = await control.boundingBox();
    if (box && overlaps(toast, box)) covered.push((await control.textContent()) || (await control.getAttribute('aria-label')) || '?');
  }
  return covered;
}

it("on a phone, the sign-in toast covers none of the prefilled question's answer controls", async () => {
  const link = (await firstCard()).links![0].url;
  const page = await browser.newPage();
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(link);
    await page.waitForURL(/\/auth$/);
    await signInHere(page);
    await page.waitForURL(/\/clinical-form$/);
    await page.getByRole('button', { name: 'Start Assessment' }).click();
    const question = page.getByTestId('question-card');
    await question.getByTestId('prefill-note').waitFor();
    await page.getByTestId('toast').first().waitFor();
    await screenshot(page, 'cds-prefill-toast-390');
    expect(await coveredControls(page, question)).toEqual([]);
  } finally {
    await page.close();
  }
});
