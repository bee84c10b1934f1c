import type { Locator, Page } from 'playwright-core';
import { launchBrowser, screenshot, seriousA11yViolations, signIn as signInAt, type Browser } from '../support/browser';
import { startTestApp, type TestApp } from '../support/app';
import { action, cond, createParameter, createPublishedRuleSet, type ParameterJson } from '../support/clinical-factories';
import { createCast, PASSWORD } from '../support/factories';

/**
 * Issue 9 as a clinician meets it: the patient's measured values typed in their units, bands and
 * "Not available" as shortcuts, every finding shown (most urgent first), and a healthy patient
 * answered through the chat ending with no diagnosis. The knowledge is set up through the API.
 */

let t: TestApp;
let browser: Browser;
let cast: Awaited<ReturnType<typeof createCast>>;
let hba1c: ParameterJson;
let sbp: ParameterJson;

const signIn = (page: Page, email: string) => signInAt(page, t.url, email, PASSWORD);
/** Text as read: figures are tied to their units with no-break spaces, which read as spaces. */
const textOf = async (l: Locator) => (await l.textContent())?.replace(/\u00a0/g, ' ');

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  hba1c = await createParameter(t, cast.admin, {
    name: 'hba1c',
    display_name: 'HbA1c',
    units: '%',
    category: 'labs',
    data_type: 'lab_range',
    // HbA1c may also be typed in mmol/mol (IFCC): % = mmol/mol × 0.09148 + 2.152.
    validation_rules: { min: 3, max: 20, decimals: 1, units_accepted: [{ code: 'mmol/mol', factor: 0.09148, offset: 2.152 }] },
  });
  sbp = await createParameter(t, cast.admin, {
    name: 'systolic_bp',
    display_name: 'Systolic blood pressure',
    units: 'mm[Hg]',
    category: 'vitals',
    data_type: 'vitals',
    validation_rules: { min: 50, max: 300, decimals: 0 },
  });
  // ADA 2026 §2: A1C ≥ 6.5 % is diabetes, 5.7 to < 6.5 % prediabetes (half-open ranges).
  await createPublishedRuleSet(
    t,
    cast.admin,
    [
      {
        name: 'Diabetes by HbA1c',
        description: 'HbA1c in the diabetes range: confirm with a repeat test unless symptomatic',
        priority: 50,
        conditions: [cond(hba1c, 'greater_equal', 6.5)],
        actions: [action('Repeat HbA1c to confirm the diagnosis of diabetes', { type: 'recommendation', severity: 'high' })],
      },
      {
        name: 'Prediabetes by HbA1c',
        description: 'HbA1c in the prediabetes range',
        priority: 40,
        conditions: [cond(hba1c, 'greater_equal', 5.7), cond(hba1c, 'less_than', 6.5)],
        actions: [action('Refer to a diabetes prevention programme', { type: 'lifestyle', severity: 'medium' })],
      },
    ],
    { name: 'Diabetes diagnosis' },
  );
  await createPublishedRuleSet(
    t,
    cast.admin,
    [
      {
        name: 'Hypertensive emergency',
        description: 'Systolic blood pressure in the emergency range: assess for target-organ damage now',
        priority: 100,
        conditions: [cond(sbp, 'greater_equal', 180)],
        actions: [action('Send to the emergency department now', { type: 'referral', severity: 'critical' })],
      },
    ],
    { name: 'Blood pressure' },
  );
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const HBA1C_FIELD = 'HbA1c (%)';
const SBP_FIELD = 'Systolic blood pressure (mmHg)';

type Reply = { typed: string } | { band: string } | 'not available';

/**
 * Answers whichever question the server asks next, until the result shows. A caller may have just
 * recorded an answer, so the card on screen can still be the one answered, or can be replaced while
 * it is read: such a card is waited out, never taken for a question without a reply.
 */
async function answerUntilResult(page: Page, replies: Record<string, Reply>): Promise<Locator> {
  const result = page.getByTestId('result-card');
  const question = page.getByTestId('question-card');
  const either = page.locator('[data-testid="result-card"], [data-testid="question-card"]').first();
  const onScreen = () =>
    question
      .getByText(/^Question \d+$/)
      .textContent({ timeout: 1000 })
      .catch(() => null);
  for (let i = 0; i < 12; i++) {
    await either.waitFor();
    if (await result.isVisible()) return result;
    const step = await onScreen();
    if (step === null) continue;
    let answered = false;
    for (const [label, reply] of Object.entries(replies)) {
      const box = question.getByRole('textbox', { name: label });
      if (!(await box.count())) continue;
      if (reply === 'not available') await question.getByRole('button', { name: 'Not available' }).click();
      else if ('band' in reply) await question.getByRole('button', { name: reply.band }).click();
      else {
        await box.fill(reply.typed);
        await question.getByRole('button', { name: 'Record value' }).click();
      }
      answered = true;
      break;
    }
    // The next question (or the result) replaces this one; a card with no reply must be replaced by itself.
    const replaced = await page
      .waitForFunction(
        (s) => !document.querySelector('[data-testid="question-card"]') || !document.body.innerText.includes(s as string),
        step,
        { timeout: answered ? 15000 : 5000 },
      )
      .then(() => true)
      .catch(() => false);
    if (!replaced) {
      const labels = await question.getByRole('textbox').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.id));
      throw new Error(`No reply for the question on screen (${step}: ${labels.join(', ')})`);
    }
  }
  await result.waitFor();
  return result;
}

async function startAssessment(page: Page) {
  await page.goto(`${t.url}/clinical-form`);
  await page.getByRole('button', { name: 'Start Assessment' }).click();
  await page.getByTestId('question-card').waitFor();
}

/** Signs in, starts, and reaches the HbA1c question (answering the blood pressure if it is asked before). */
async function hba1cQuestion(page: Page): Promise<Locator> {
  await signIn(page, cast.pcp.email);
  await startAssessment(page);
  const question = page.getByTestId('question-card');
  if (await question.getByRole('textbox', { name: SBP_FIELD }).count()) {
    await question.getByRole('textbox', { name: SBP_FIELD }).fill('124');
    await question.getByRole('button', { name: 'Record value' }).click();
  }
  return question;
}

describe('the Clinical Assessment with measured values', () => {
  it('a typed 6.5 % gives diabetes; out-of-range values are refused with the limit, keeping what was typed', async () => {
    const page = await browser.newPage();
    const question = await hba1cQuestion(page);
    const value = question.getByRole('textbox', { name: HBA1C_FIELD });
    await value.waitFor();
    // The bands partition the line at every cut-point the rules use, labelled with the display name and unit.
    const bands = question.getByRole('group', { name: 'Or choose a range' });
    expect(await bands.getByRole('button').allTextContents()).toEqual([
      'HbA1c < 5.7 %',
      'HbA1c 5.7 to < 6.5 %',
      'HbA1c ≥ 6.5 %',
      'Not available',
    ]);

    await value.fill('25');
    await question.getByRole('button', { name: 'Record value' }).click();
    await question.getByText('HbA1c must be at most 20 %.').waitFor();

    // 250 mmol/mol is 25 % after conversion: the server refuses it and says why.
    await question.getByRole('combobox', { name: 'Unit' }).selectOption('mmol/mol');
    const mmol = question.getByRole('textbox', { name: 'HbA1c (mmol/mol)' });
    await mmol.fill('250');
    await question.getByRole('button', { name: 'Record value' }).click();
    const refusal = question.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/20/);
    expect(await mmol.inputValue()).toBe('250');
    // The refusal and the typed value are on screen together (for the screenshot at the refused state).
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `clinical-truth-question-refused-${width}`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });

    await question.getByRole('combobox', { name: 'Unit' }).selectOption('%');
    await value.fill('6.5');
    await question.getByLabel('Observed on (optional)').fill('2026-11-20');
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `clinical-truth-question-${width}`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(await seriousA11yViolations(page)).toEqual([]);
    await question.getByRole('button', { name: 'Record value' }).click();

    const result = await answerUntilResult(page, { [SBP_FIELD]: { typed: '124' } });
    const cards = result.getByTestId('finding-card');
    expect(await cards.count()).toBe(1);
    expect(await cards.first().getAttribute('data-severity')).toBe('high');
    expect(await cards.first().getByRole('heading', { level: 3 }).textContent()).toBe('Diabetes by HbA1c');
    await cards.first().getByText('Primary recommendation').waitFor();
    await cards.first().getByText('High severity').waitFor();
    expect(await textOf(cards.first().getByTestId('basis-item'))).toBe(
      'HbA1c ≥ 6.5 % — answer: 6.5 % (typed value, observed Nov 20, 2026)',
    );
    expect(await cards.first().getByTestId('rule-provenance').textContent()).toMatch(
      /^Rule: Diabetes by HbA1c · version \d+ · Rule set: Diabetes diagnosis/,
    );
    // Focus moves to the result.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('result-title');
    await page.close();
  });

  it('a value typed in mmol/mol shows its % at one place finer than HbA1c is recorded at, marked ≈', async () => {
    const page = await browser.newPage();
    const question = await hba1cQuestion(page);
    await question.getByRole('textbox', { name: HBA1C_FIELD }).waitFor();
    await question.getByRole('combobox', { name: 'Unit' }).selectOption('mmol/mol');
    await question.getByRole('textbox', { name: 'HbA1c (mmol/mol)' }).fill('58');
    await question.getByRole('button', { name: 'Record value' }).click();
    const result = await answerUntilResult(page, { [SBP_FIELD]: { typed: '124' } });
    // 58 mmol/mol is 7.45784 %: shown as 7.46, one place beyond HbA1c's one decimal.
    expect(await textOf(result.getByTestId('finding-card').first().getByTestId('basis-item'))).toBe(
      'HbA1c ≥ 6.5 % — answer: 58 mmol/mol (≈ 7.46 %) (typed value)',
    );
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `clinical-truth-converted-${width}`);
    }
    await page.close();
  });

  it('a hypertensive emergency is shown above a diabetes finding, both as cards', async () => {
    const page = await browser.newPage();
    await signIn(page, cast.pcp.email);
    await startAssessment(page);
    const result = await answerUntilResult(page, { [HBA1C_FIELD]: { typed: '7.1' }, [SBP_FIELD]: { typed: '200' } });
    const cards = result.getByTestId('finding-card');
    expect(await cards.count()).toBe(2);
    expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-severity')))).toEqual(['critical', 'high']);
    expect(await cards.nth(0).getByRole('heading', { level: 3 }).textContent()).toBe('Hypertensive emergency');
    await cards.nth(0).getByText('Primary recommendation').waitFor();
    await cards.nth(0).getByText('Critical severity').waitFor();
    await cards.nth(0).getByText('Send to the emergency department now').waitFor();
    expect(await textOf(cards.nth(0).getByTestId('basis-item'))).toBe(
      'Systolic blood pressure ≥ 180 mmHg — answer: 200 mmHg (typed value)',
    );
    expect(await cards.nth(1).getByRole('heading', { level: 3 }).textContent()).toBe('Diabetes by HbA1c');
    expect(await cards.nth(1).getByText('Primary recommendation').count()).toBe(0);
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `clinical-truth-result-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The case detail shows the same cards and the answers as entered, with display names and units.
    await page.setViewportSize({ width: 1366, height: 900 });
    await result.getByRole('link', { name: 'View in Case History' }).click();
    const answers = page.getByRole('list', { name: 'Answers given' });
    await answers.waitFor();
    const rows = (await answers.getByTestId('answer-row').allTextContents()).map((r) => r.replace(/\u00a0/g, ' '));
    expect(rows.some((r) => r.includes('HbA1c') && r.includes('7.1 % (typed value)'))).toBe(true);
    expect(rows.some((r) => r.includes('Systolic blood pressure') && r.includes('200 mmHg (typed value)'))).toBe(true);
    expect(await page.getByTestId('finding-card').count()).toBe(2);
    await page.close();
  });

  it('Not available leads to "Could not be evaluated" with the missing input', async () => {
    const page = await browser.newPage();
    await signIn(page, cast.pcp.email);
    await startAssessment(page);
    const result = await answerUntilResult(page, { [HBA1C_FIELD]: 'not available', [SBP_FIELD]: { typed: '118' } });
    await result.getByRole('heading', { name: 'No Recommendation Available' }).waitFor();
    const undetermined = result.getByTestId('undetermined-rules');
    await undetermined.getByRole('heading', { name: 'Could not be evaluated' }).waitFor();
    const text = await undetermined.textContent();
    expect(text).toContain('Diabetes by HbA1c');
    expect(text).toContain('missing: HbA1c');
    expect(await result.getByTestId('finding-card').count()).toBe(0);
    // Issue 20: what the answers did rule out is listed, in display units.
    expect(await result.getByRole('list', { name: 'Ruled out' }).getByRole('listitem').allTextContents()).toEqual([
      'Systolic blood pressure 118 mmHg is below 180 mmHg',
    ]);
    await page.close();
  });
});

describe('the Diagnostic Assistant chat', () => {
  it('a healthy patient answered through the chat ends with no diagnosis', async () => {
    const page = await browser.newPage();
    await signIn(page, cast.pcp.email);
    await page.goto(`${t.url}/chatbot`);
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    const healthy = ['HbA1c < 5.7 %', 'Systolic blood pressure < 180 mmHg'];
    for (let i = 0; i < 4; i++) {
      const done = page.getByText('Session completed. Would you like to start over?');
      const options = page.getByRole('group', { name: 'Please select an option:' });
      await Promise.race([done.waitFor(), options.waitFor()]);
      if (await done.isVisible()) break;
      const labels = await options.getByRole('button').allTextContents();
      // Every question offers Not available; no stand-in numbers in the labels.
      expect(labels).toContain('Not available');
      const pick = labels.find((l) => healthy.includes(l));
      if (!pick) throw new Error(`No healthy option among ${labels.join(' | ')}`);
      const before = await page.locator('[data-message-type]').count();
      await options.getByRole('button', { name: pick }).click();
      await page.waitForFunction((n) => document.querySelectorAll('[data-message-type]').length > (n as number), before);
    }
    await page.getByText('Session completed. Would you like to start over?').waitFor();
    expect(await page.getByTestId('finding-card').count()).toBe(0);
    const log = (await page.getByRole('log', { name: 'Conversation messages' }).textContent()) ?? '';
    expect(log).not.toMatch(/Diabetes by HbA1c|Prediabetes|Hypertensive emergency/);
    // Issue 20: the end says what was checked and ruled out, never "consult with your healthcare provider".
    expect(log).toContain('No rule fired: Systolic blood pressure < 180 mmHg is below 180 mmHg; HbA1c < 5.7 % is below 5.7 %.');
    expect(log).not.toMatch(/consult|healthcare provider/i);
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      // The final message is scrolled into the list's view again after the resize.
      await page.waitForFunction(() => {
        const log = document.querySelector('[role="log"]')!.getBoundingClientRect();
        const final = document.querySelector('[data-final]')!.getBoundingClientRect();
        return final.top >= log.top && final.top < log.bottom - 40;
      });
      await screenshot(page, `clinical-truth-chat-end-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  });

  it('a patient with an emergency and diabetes: the choice and the final message show severity, actions and basis', async () => {
    const page = await browser.newPage();
    await signIn(page, cast.pcp.email);
    await page.goto(`${t.url}/chatbot`);
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    const picks = ['HbA1c ≥ 6.5 %', 'Systolic blood pressure ≥ 180 mmHg'];
    const choice = page.getByText('Multiple recommendations are available. Which would you like to follow?');
    const done = page.getByText('Session completed. Would you like to start over?');
    for (let i = 0; i < 4; i++) {
      const options = page.getByRole('group', { name: 'Please select an option:' });
      await Promise.race([done.waitFor(), options.waitFor()]);
      if ((await done.isVisible()) || (await choice.count())) break;
      const labels = await options.getByRole('button').allTextContents();
      const pick = labels.find((l) => picks.includes(l));
      if (!pick) throw new Error(`No option among ${labels.join(' | ')}`);
      const before = await page.locator('[data-message-type]').count();
      await options.getByRole('button', { name: pick }).click();
      await page.waitForFunction((n) => document.querySelectorAll('[data-message-type]').length > (n as number), before);
    }
    await choice.first().waitFor();
    const offered = page.getByRole('group', { name: 'Please select an option:' }).getByTestId('finding-card');
    expect(await offered.evaluateAll((els) => els.map((e) => e.getAttribute('data-severity')))).toEqual(['critical', 'high']);
    await offered.nth(0).getByText('Critical severity').waitFor();
    await offered.nth(0).getByText('Send to the emergency department now').waitFor();
    expect(await textOf(offered.nth(0).getByTestId('basis-item'))).toBe(
      'Systolic blood pressure ≥ 180 mmHg — answer: Systolic blood pressure ≥ 180 mmHg (band chosen)',
    );
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `clinical-truth-chat-choice-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
    await offered.nth(1).getByRole('button', { name: 'Diabetes by HbA1c' }).click();
    await done.waitFor();
    const final = page.locator('[data-message-type="recommendation"]').last();
    // Issue 20: every finding in rank order, the emergency first; the rule followed is marked primary where it ranks.
    expect(await final.getAttribute('data-severity')).toBe('critical');
    const cards = final.getByTestId('finding-card');
    expect(await cards.nth(0).getByRole('heading', { level: 3 }).textContent()).toBe('Hypertensive emergency');
    expect(await cards.nth(0).getByText('Primary recommendation').count()).toBe(0);
    expect(await cards.nth(1).getByRole('heading', { level: 3 }).textContent()).toBe('Diabetes by HbA1c');
    await cards.nth(1).getByText('Primary recommendation').waitFor();
    expect(await final.textContent()).toContain(
      'most urgent first: "Hypertensive emergency" (critical); "Diabetes by HbA1c" (high, chosen). You chose to follow "Diabetes by HbA1c"',
    );
    await page.close();
  });
});
