import type { Page } from 'playwright-core';
import { launchBrowser, screenshot as save, seriousA11yViolations, signIn, type Browser } from '../support/browser';
import { startTestApp, type TestApp } from '../support/app';
import { runAssessment } from '../support/clinical-factories';
import { createCast, PASSWORD } from '../support/factories';

/**
 * Issue 20: on a fresh install an administrator installs the shipped ADA Standards of Care 2026
 * pack from Rule Designer → Templates, previews its impact and publishes it; a PCP's assessment
 * then uses it.
 */
let t: TestApp;
let browser: Browser;
let cast: Awaited<ReturnType<typeof createCast>>;
let admin: Page;

const PACK = 'ADA Standards of Care 2026 — diabetes, kidney and blood pressure';

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

describe('the shipped ADA 2026 pack from the Templates tab', () => {
  it('Use Template installs it as a draft, the impact preview opens Publish, and a PCP assessment uses it', async () => {
    await admin.goto(`${t.url}/admin/rules`);
    await admin.getByRole('tab', { name: 'Templates' }).click();
    const card = admin.getByRole('article', { name: PACK });
    await card.getByText(/\d+ rules, 23 parameters, \d+ vignettes/).waitFor();
    await save(admin, 'admin-content-pack-template');
    expect(await seriousA11yViolations(admin)).toEqual([]);

    await card.getByRole('button', { name: `Use Template ${PACK}` }).click();
    const dialog = admin.getByRole('dialog', { name: 'Use Template' });
    await dialog.getByText(/parameters are created from the parameter templates/).waitFor();
    await dialog.getByRole('button', { name: 'Create Rule Set' }).click();
    await admin.getByText(`Rule set "${PACK}" was created from the template.`).waitFor();

    // The new draft is selected on the Rule Sets tab with its rules.
    const rules = admin.getByRole('list', { name: `Rules of ${PACK}` });
    await rules.getByText('Hypertensive crisis', { exact: true }).waitFor();
    await admin.getByRole('button', { name: 'Publish', exact: true }).click();
    const publish = admin.getByRole('dialog', { name: `Publish ${PACK}` });
    await publish.getByRole('region', { name: 'Impact preview' }).waitFor();
    // The pack's own analysis and vignettes pass: nothing blocks and no reason is asked for.
    expect(await publish.getByRole('region', { name: 'Blocking errors' }).count()).toBe(0);
    expect(await publish.getByRole('region', { name: 'Warnings' }).count()).toBe(0);
    await save(admin, 'admin-content-pack-publish');
    await publish.getByRole('button', { name: 'Publish', exact: true }).click();
    await publish.waitFor({ state: 'hidden' });

    const sets = (await t.http().get('/api/rule-sets').query({ search: PACK, template: 'false' }).set(cast.admin.auth)).body;
    expect(sets).toHaveLength(1);
    expect(sets[0]).toMatchObject({ is_published: true, is_active: true, version: 1 });

    // A PCP's assessment now reads it: SBP 181 is a hypertensive crisis.
    const params = (
      await t
        .http()
        .get('/api/parameters')
        .query({ filter: JSON.stringify({ is_template: false }), range: '[0,99]' })
        .set(cast.admin.auth)
    ).body as { id: string; name: string }[];
    const id = (name: string) => params.find((p) => p.name === name)!.id;
    const { result } = await runAssessment(t, cast.pcp, { [id('blood_pressure_systolic')]: 181, [id('blood_pressure_diastolic')]: 100 });
    expect(result.recommendation).toMatchObject({ rule_name: 'Hypertensive crisis', severity: 'critical' });
  });

  it('in the Clinical Assessment, a history input is asked as a count with its bands, in words', async () => {
    const pcp = await browser.newPage();
    await signIn(pcp, t.url, cast.pcp.email, PASSWORD);
    await pcp.goto(`${t.url}/clinical-form`);
    await pcp.getByRole('button', { name: 'Start Assessment' }).click();
    const question = pcp.getByTestId('question-card');
    const history = question.getByText(/^On how many different days in the last 12 months was an A1C ≥ 6\.5 %/);
    // Every other question is answered Not available until the history question comes (the pack reads 23 inputs).
    for (let i = 0; i < 30 && !(await history.count()); i++) {
      const step = await question.getByText(/^Question \d+$/).textContent();
      await question.getByRole('button', { name: 'Not available' }).click();
      await pcp.waitForFunction((s) => !document.body.innerText.includes(s as string), step);
      await pcp.locator('[data-testid="question-card"], [data-testid="result-card"]').first().waitFor();
      if (await pcp.getByTestId('result-card').count()) throw new Error('The history question was never asked');
    }
    await history.waitFor();
    expect(await question.getByRole('group', { name: 'Or choose a range' }).getByRole('button').allTextContents()).toEqual([
      'Days with A1C ≥ 6.5 % (12 months) = 0',
      'Days with A1C ≥ 6.5 % (12 months) = 1',
      'Days with A1C ≥ 6.5 % (12 months) ≥ 2',
      'Not available',
    ]);
    for (const width of [1366, 390]) {
      await pcp.setViewportSize({ width, height: 900 });
      await save(pcp, `admin-content-pack-history-question-${width}`);
    }
    expect(await seriousA11yViolations(pcp)).toEqual([]);
    await pcp.close();
  });
});
