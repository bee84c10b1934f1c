import { screenshot, seriousA11yViolations, signIn } from '../support/browser';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';
import { conformanceCases } from '../support/conformance';
import { PASSWORD } from '../support/factories';
import { panelPatientBundle } from '../support/panel-records';

/**
 * Issue 21, deliverables 2 and 4 (admin): an administrator opens CMS122 in the designer and reads it as a rule set:
 * its numerator's rules in words, the HbA1c criterion by value set, its version and the official cases as vignettes;
 * then as a flow, where a cut-point edited in a node's panel is the draft the form edits.
 */
let s: BrowserSuite;
browserSuite((suite) => (s = suite));

it('an administrator reads CMS122 as rules, criteria, version and vignettes, at a desk and on a phone', async () => {
  const { t, cast, browser } = s;
  const cms122 = conformanceCases().filter((c) => c.measure.startsWith('CMS122-')).length;
  const page = await browser.newPage();
  try {
    await signIn(page, t.url, cast.admin.email, PASSWORD);
    await page.goto(`${t.url}/admin/settings`);
    await page.getByRole('link', { name: 'Measures in the designer' }).click();
    await page.getByRole('heading', { name: 'Quality measures' }).waitFor();
    const card = page.getByRole('listitem', { name: /^CMS122/ });
    await card.getByText(`${cms122} of ${cms122} official cases agree`).waitFor({ timeout: 60_000 });
    expect(await page.getByRole('list', { name: 'Quality measures' }).getByRole('listitem').count()).toBe(3);
    await screenshot(page, 'measure-designs-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await card.getByRole('link').click();
    const numerator = page.getByRole('region', { name: 'Numerator' });
    await numerator.waitFor();
    expect(await numerator.textContent()).toContain('Most recent HbA1c or GMI (lowest that day) > 9 %');
    expect(await page.getByRole('region', { name: 'Initial population' }).textContent()).toContain(
      'Age at the end of the measurement period ≥ 18 years',
    );
    await screenshot(page, 'measure-design-cms122-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('tab', { name: 'Record criteria' }).click();
    await page.getByRole('button', { name: /Most recent HbA1c or GMI \(lowest that day\) \(%\)/ }).click();
    await page.locator('#criterion-glycemic_status_lowest').getByText('(OID 2.16.840.1.113883.3.464.1003.198.12.1013)').waitFor();
    await screenshot(page, 'measure-design-cms122-criteria-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('tab', { name: 'Version' }).click();
    await page.getByText(/This is the shipped version/).waitFor();
    expect(await page.getByRole('table', { name: 'Value sets of this version' }).getByText('HbA1c Laboratory Test').count()).toBe(1);
    await page.getByRole('tab', { name: 'Vignettes' }).click();
    const table = page.getByRole('table', { name: 'CMS122 cases' });
    await table.waitFor();
    expect(await table.getByRole('row').count()).toBe(cms122 + 1);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A phone: the populations stack, the vignettes become blocks, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 900 });
    await page.getByRole('list', { name: 'CMS122 cases' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByRole('tab', { name: 'Version' }).click();
    await page.getByRole('list', { name: 'Value sets of this version' }).waitFor();
    await screenshot(page, 'measure-design-cms122-version-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByRole('tab', { name: 'Populations' }).click();
    await page.getByRole('region', { name: 'Numerator' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'measure-design-cms122-390');
    expect(await seriousA11yViolations(page)).toEqual([]);
  } catch (e) {
    await screenshot(page, 'measure-design-failure');
    throw e;
  } finally {
    await page.close();
  }
}, 180_000);

it('an administrator reads CMS122 as a flow, the numerator as the gap, and sets its cut-point to 8 % in the flow: the draft form has it', async () => {
  const { t, cast, browser } = s;
  const page = await browser.newPage();
  try {
    await signIn(page, t.url, cast.admin.email, PASSWORD);
    await page.goto(`${t.url}/admin/measures/DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR`);
    await page.getByRole('tab', { name: 'Flow' }).click();
    const flow = page.getByRole('figure', { name: 'Measure flow' });
    // The edges are drawn once the nodes are measured; the one into the numerator says who is left.
    await flow.getByText('of those left').waitFor();
    expect(await flow.locator('.react-flow__node').count()).toBe(5);
    expect(await flow.locator('.react-flow__edge').count()).toBe(4);
    const gap = flow.getByRole('region', { name: 'Numerator: the gap' });
    expect(await gap.textContent()).toContain('Most recent HbA1c or GMI (lowest that day) > 9 %');
    expect(await gap.textContent()).toContain('Value sets: HbA1c Laboratory Test');
    expect(await flow.getByRole('region', { name: 'Initial population' }).textContent()).toContain('Value sets: Office Visit');
    // Measured, the nodes stand one under another without overlapping.
    const boxes = await flow.locator('.react-flow__node').evaluateAll((ns) => ns.map((n) => n.getBoundingClientRect().toJSON() as DOMRect));
    for (let i = 1; i < boxes.length; i++) expect(boxes[i].top).toBeGreaterThanOrEqual(boxes[i - 1].bottom);
    await screenshot(page, 'measure-flow-cms122-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // By keyboard: the node's button, then the panel's field has the focus.
    await gap.getByRole('button', { name: 'Edit cut-points: Numerator: the gap' }).focus();
    await page.keyboard.press('Enter');
    const cut = page.getByRole('region', { name: 'Cut-points: Numerator: the gap' }).getByRole('spinbutton');
    await cut.waitFor();
    expect(await cut.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('8');
    await gap.getByText('9 % → 8 %').waitFor();
    await screenshot(page, 'measure-flow-cms122-edited-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 900 });
    const list = page.getByRole('list', { name: 'Measure flow' });
    await list.waitFor();
    expect(await list.getByRole('region', { name: 'Numerator: the gap', exact: true }).getByText('9 % → 8 %').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'measure-flow-cms122-390');
    await list.getByRole('region', { name: 'Numerator: the gap', exact: true }).scrollIntoViewIfNeeded();
    await screenshot(page, 'measure-flow-cms122-numerator-390');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Open the draft' }).click();
    expect(await page.getByRole('spinbutton', { name: /^Most recent HbA1c or GMI > 8 %:/ }).inputValue()).toBe('8');
    await page.getByRole('button', { name: 'Save draft' }).waitFor();
    expect(await page.getByRole('button', { name: 'Save draft' }).isEnabled()).toBe(true);
  } catch (e) {
    await screenshot(page, 'measure-flow-failure');
    throw e;
  } finally {
    await page.close();
  }
}, 180_000);

it('an administrator previews CMS122 with its cut-point at 10 %: the patient at 9.5 % would leave the numerator', async () => {
  const { t, cast, browser } = s;
  for (const p of [
    { id: 'draft-9-5', given: 'Nora', family: 'Ames', birthDate: '1960-04-02', hba1c: { value: 9.5, unit: '%' } },
    { id: 'draft-11-2', given: 'Omar', family: 'Bell', birthDate: '1958-07-19', hba1c: { value: 11.2, unit: '%' } },
  ])
    expect((await t.http().post('/api/fhir').set(cast.admin.auth).send(panelPatientBundle(p))).status).toBe(200);
  const page = await browser.newPage();
  try {
    await signIn(page, t.url, cast.admin.email, PASSWORD);
    await page.goto(`${t.url}/admin/measures/DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR`);
    await page.getByRole('tab', { name: 'Draft and impact' }).click();
    const cut = page.getByRole('spinbutton', { name: /^Most recent HbA1c or GMI > 9 %:/ });
    await cut.fill('10');
    // The page asks for the streamed preview, whose progress lines move the bar while a large panel is compared.
    const answered = page.waitForResponse((r) => r.url().endsWith('/impact') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Preview impact' }).click();
    const response = await answered;
    expect(response.request().headers()['accept']).toContain('application/x-ndjson');
    expect(response.headers()['content-type']).toMatch(/^application\/x-ndjson/);
    const impact = page.getByRole('region', { name: 'Impact of the draft' });
    await impact.waitFor({ timeout: 60_000 });
    // Nothing stored for this period yet: the measure as it is was evaluated for every patient.
    expect(await impact.textContent()).toMatch(/Now: all \d+ patients evaluated now/);
    expect(await impact.textContent()).toMatch(/1 of \d+ stored patients would change population/);
    expect(await impact.getByRole('list', { name: 'Patients who would change population' }).textContent()).toBe(
      'Nora AmesNumerator: Yes → No',
    );
    await impact.scrollIntoViewIfNeeded();
    await screenshot(page, 'measure-draft-impact-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 900 });
    await impact.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'measure-draft-impact-390');
    expect(await seriousA11yViolations(page)).toEqual([]);
  } catch (e) {
    await screenshot(page, 'measure-draft-failure');
    throw e;
  } finally {
    await page.close();
  }
}, 180_000);

it('an administrator saves CMS122 at 8 % as a draft, publishes it with a change note, and reads it in the versions list', async () => {
  const { t, cast, browser } = s;
  expect(
    (
      await t
        .http()
        .post('/api/fhir')
        .set(cast.admin.auth)
        .send(
          panelPatientBundle({
            id: 'draft-8-4',
            given: 'Rosa',
            family: 'Eklund',
            birthDate: '1962-02-11',
            hba1c: { value: 8.4, unit: '%' },
          }),
        )
    ).status,
  ).toBe(200);
  const note = 'Clinic goal: HbA1c above 8 % is poor control';
  const page = await browser.newPage();
  try {
    await signIn(page, t.url, cast.admin.email, PASSWORD);
    await page.goto(`${t.url}/admin/measures/DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByText('Save the draft before publishing it.').waitFor();
    await page.getByRole('spinbutton', { name: /^Most recent HbA1c or GMI > 9 %:/ }).fill('8');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('tab', { name: 'Draft (version 2 (local))' }).waitFor({ timeout: 60_000 });
    await page.getByText('Nothing to save: the draft is as saved.').waitFor();
    await screenshot(page, 'measure-draft-saved-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Publish...' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish version 2 (local) of CMS122' });
    await dialog.getByText(/stored patients change population/).waitFor({ timeout: 60_000 });
    await dialog.getByRole('textbox', { name: /Change note/ }).fill(note);
    await screenshot(page, 'measure-publish-dialog-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText(/Version 2 \(local\) of CMS122 is now used by the Panel/).waitFor();
    await page.getByText('Published: version 2 (local)').waitFor();

    // The toasts said their part: closed, so the screenshots show the history under them.
    while (await page.getByRole('button', { name: 'Close notification' }).count())
      await page.getByRole('button', { name: 'Close notification' }).first().click();
    await page.getByRole('tab', { name: 'History', exact: true }).click();
    const versions = page.getByRole('table', { name: 'Versions', exact: true });
    await versions.waitFor();
    const rows = versions.getByRole('row');
    expect(await rows.nth(1).textContent()).toContain(note);
    expect(await rows.nth(1).textContent()).toContain('Published');
    expect(await rows.nth(2).textContent()).toContain('1 (CMS as shipped)Retired');
    await screenshot(page, 'measure-versions-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 900 });
    await page.getByRole('list', { name: 'Versions', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'measure-versions-390');
    expect(await seriousA11yViolations(page)).toEqual([]);
  } catch (e) {
    await screenshot(page, 'measure-versions-failure');
    throw e;
  } finally {
    await page.close();
  }
}, 180_000);
