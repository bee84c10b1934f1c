import type { Locator, Page } from 'playwright-core';
import { launchBrowser, screenshot as save, seriousA11yViolations, signIn, type Browser } from '../support/browser';
import { startTestApp, type TestApp } from '../support/app';
import { createCast, PASSWORD } from '../support/factories';

/**
 * Issue 20, "The designer edits these": an administrator binds a new parameter to the patient's
 * record in the Create dialog (a count of A1C results by LOINC code; a diagnosis by value set); the
 * card says the reading in words and the API stores what was entered.
 */
let t: TestApp;
let browser: Browser;
let cast: Awaited<ReturnType<typeof createCast>>;
let admin: Page;

const NAME = 'Days with A1C ≥ 6.5 % (12 months)';

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  browser = await launchBrowser();
  admin = await browser.newPage();
  await signIn(admin, t.url, cast.admin.email, PASSWORD);
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function settle(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** The dialog with the editor in view, at a desk and on a phone: its top, then the sentence at its foot. */
async function screenshots(page: Page, editor: Locator, name = 'admin-parameter-criterion') {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await settle(page);
    await editor.getByRole('heading', { name: 'Read from the record' }).scrollIntoViewIfNeeded();
    await save(page, `${name}-${width}`);
    await editor.getByRole('status', { name: 'Reading in words' }).scrollIntoViewIfNeeded();
    await save(page, `${name}-words-${width}`);
    // Nothing in the dialog is wider than the screen (no sideways scroll without a cue).
    expect(
      await page
        .getByRole('dialog')
        .locator('.MuiDialogContent-root')
        .evaluate((e) => e.scrollWidth - e.clientWidth),
    ).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

async function choose(dialog: Locator, select: string | RegExp, option: string | RegExp) {
  await dialog.getByRole('combobox', { name: select }).click();
  await admin.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

describe('an administrator binds a parameter to the record', () => {
  it('creates "days with A1C ≥ 6.5 %" read from the record; the card says how, the API stores it as entered', async () => {
    await admin.goto(`${t.url}/admin/parameters`);
    await admin.getByRole('heading', { name: 'Parameter Management' }).waitFor();
    await admin.getByRole('button', { name: 'Create Parameter', exact: true }).first().click();
    const dialog = admin.getByRole('dialog', { name: 'Create Parameter' });
    await dialog.getByRole('tab', { name: 'Custom Parameter' }).click();
    await dialog.getByLabel(/Parameter Name/).fill('a1c_abnormal_days_12m');
    await dialog.getByLabel(/Display Name/).fill(NAME);
    await choose(dialog, /Data Type/, 'Number');
    await choose(dialog, /Category/, 'Medical History');

    const editor = dialog.getByRole('region', { name: 'Read from the record' });
    await editor.getByRole('switch', { name: "Read from the patient's record" }).check();
    await editor.getByLabel(/LOINC codes/).fill('4548-4, 59261-8');
    await choose(editor, 'What is taken', 'Number of different days');
    await editor.getByLabel('Window, days back from now').fill('365');
    await choose(editor, 'Only values', '≥');
    await editor.getByLabel('Value', { exact: true }).fill('6.5');
    await editor.getByLabel('Unit of the values (UCUM)').fill('%');
    const words = 'Days with a result (LOINC 4548-4, 59261-8) ≥ 6.5 % in the last 365 days';
    await editor.getByRole('status', { name: 'Reading in words' }).getByText(words).waitFor();
    await screenshots(admin, editor);
    expect(await seriousA11yViolations(admin)).toEqual([]);

    await dialog.getByRole('button', { name: 'Create Parameter' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const card = admin.getByTestId('parameter-card').filter({ has: admin.getByRole('heading', { name: NAME }) });
    await card.getByText('From the record').waitFor();
    await card.getByText(words).waitFor();
    await save(admin, 'admin-parameter-criterion-card');

    const found = await t
      .http()
      .get('/api/parameters')
      .query({ filter: JSON.stringify({ q: 'a1c_abnormal_days_12m', is_template: false }) })
      .set(cast.admin.auth);
    expect(found.body).toHaveLength(1);
    const reloaded = await t.http().get(`/api/parameters/${found.body[0].id}`).set(cast.admin.auth);
    expect(reloaded.body.validation_rules).toEqual({
      criterion: {
        resource_type: 'Observation',
        codes: ['http://loinc.org|4548-4', 'http://loinc.org|59261-8'],
        take: 'distinct_days',
        window: { anchor: 'now', days: 365 },
        where: { operator: '>=', value: 6.5 },
        unit: '%',
      },
    });
  });

  it('binds "diagnosed diabetes" to the problem list by the shipped Diabetes value set, chosen by title; the API stores it as entered', async () => {
    const name = 'Diabetes on the problem list';
    await admin.goto(`${t.url}/admin/parameters`);
    await admin.getByRole('heading', { name: 'Parameter Management' }).waitFor();
    await admin.getByRole('button', { name: 'Create Parameter', exact: true }).first().click();
    const dialog = admin.getByRole('dialog', { name: 'Create Parameter' });
    await dialog.getByRole('tab', { name: 'Custom Parameter' }).click();
    await dialog.getByLabel(/Parameter Name/).fill('diabetes_problem_list');
    await dialog.getByLabel(/Display Name/).fill(name);
    await choose(dialog, /Data Type/, 'Yes/No');
    await choose(dialog, /Category/, 'Medical History');

    const editor = dialog.getByRole('region', { name: 'Read from the record' });
    await editor.getByRole('switch', { name: "Read from the patient's record" }).check();
    await choose(editor, 'Kind of record', /^Diagnosis or problem/);
    await editor.getByRole('combobox', { name: 'Value sets' }).fill('Diabetes');
    await admin.getByRole('option', { name: /^Diabetes \d+ codes/ }).click();
    for (const s of ['Inactive', 'Remission', 'Resolved']) await editor.getByRole('checkbox', { name: s }).uncheck();
    await choose(editor, 'A record counts when it', 'Overlaps (ongoing counts)');
    const words = 'Any diagnosis (value set “Diabetes”) with status active, recurrence or relapse';
    await editor.getByRole('status', { name: 'Reading in words' }).getByText(words).waitFor();
    await screenshots(admin, editor, 'admin-parameter-criterion-condition');
    expect(await seriousA11yViolations(admin)).toEqual([]);

    await dialog.getByRole('button', { name: 'Create Parameter' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const found = await t
      .http()
      .get('/api/parameters')
      .query({ filter: JSON.stringify({ q: 'diabetes_problem_list', is_template: false }) })
      .set(cast.admin.auth);
    expect(found.body).toHaveLength(1);
    expect(found.body[0].validation_rules).toEqual({
      criterion: {
        resource_type: 'Condition',
        value_sets: ['http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.103.12.1001'],
        statuses: ['active', 'recurrence', 'relapse'],
        window: { anchor: 'now', relation: 'overlaps' },
        take: 'exists',
      },
    });
  });
});
