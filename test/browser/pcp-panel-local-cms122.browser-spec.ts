import type { MeasureDraftRuleJson, MeasureVersionDetailJson } from '@cds/contracts';
import { dialogShot, screenshot, seriousA11yViolations, sideways, signIn } from '../support/browser';
import { browserSuite, type BrowserSuite } from '../support/browser-suite';
import { action, cond, createFromTemplate, createPublishedRuleSet, expectStatus, seedTemplates } from '../support/clinical-factories';
import { PASSWORD } from '../support/factories';
import { panelPatientBundle } from '../support/panel-records';

/**
 * Issue 21 as a PCP meets a clinic's own measure: the quality lead published CMS122 at 8 % as local version 2, so a
 * patient at 8.5 %, who meets the CMS goal of 9 %, is a gap on the Panel; the card and the evidence say the measure
 * is the clinic's local version, and the gap leads to an assessment with the 8.5 % offered from the record.
 */
let s: BrowserSuite;
browserSuite((suite) => (s = suite));

const CMS122 = 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR';
const NOTE = 'Clinic goal: HbA1c above 8 % is poor control (quality board, November)';

beforeAll(async () => {
  const { t, cast } = s;
  // The clinical form the gap opens needs a published rule set that reads HbA1c.
  const templates = await seedTemplates(t, cast.admin);
  const a1c = await createFromTemplate(t, cast.admin, templates.hba1c, { name: 'hba1c_local_panel' });
  await createPublishedRuleSet(
    t,
    cast.admin,
    [{ name: 'HbA1c above 8 %', priority: 10, conditions: [cond(a1c, '>', 8)], actions: [action('Review glucose-lowering therapy')] }],
    { name: 'Glycaemic control' },
  );
  for (const p of [
    panelPatientBundle({ id: 'rosa-eklund', given: 'Rosa', family: 'Eklund', birthDate: '1962-02-11', hba1c: { value: 8.5, unit: '%' } }),
    panelPatientBundle({ id: 'tove-gill', given: 'Tove', family: 'Gill', birthDate: '1970-12-01', hba1c: { value: 7.2, unit: '%' } }),
  ])
    expectStatus(await t.http().post('/api/fhir').set(cast.admin.auth).send(p), 200, 'POST /api/fhir');
  // The administrator's part (the designer's own browser suite publishes through the UI): CMS122 at 8 %, with a note.
  const shipped = (await t.http().get(`/api/measures/designs/${CMS122}/versions/1`).set(cast.admin.auth)).body
    .rules as MeasureDraftRuleJson[];
  const rules = shipped.map((r) =>
    r.id === 'cms122-num-elevated' ? { ...r, name: 'Most recent HbA1c or GMI > 8 %', conditions: [{ ...r.conditions[0], value: 8 }] } : r,
  );
  const saved = await t.http().put(`/api/measures/designs/${CMS122}/draft`).set(cast.admin.auth).send({ rules, draft_revision: null });
  expectStatus(saved, 200, 'saving the draft');
  const revision = (saved.body as MeasureVersionDetailJson).revision;
  expectStatus(
    await t
      .http()
      .post(`/api/measures/designs/${CMS122}/draft/publish`)
      .set(cast.admin.auth)
      .send({ note: NOTE, draft_revision: revision }),
    200,
    'publishing version 2',
  );
}, 120_000);

it("under the clinic's local CMS122 at 8 %, a PCP finds the patient at 8.5 % in the gap list, opens the evidence and reaches the prefilled assessment", async () => {
  const { t, cast, browser } = s;
  const page = await browser.newPage();
  try {
    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(page, t.url, cast.pcp.email, PASSWORD);
    await page.getByRole('navigation', { name: 'PCP Console menu' }).getByRole('link', { name: 'Panel' }).click();
    await page.waitForURL(`${t.url}/pcp/panel`);

    // The card says whose measure this is: local version 2, its 8 % goal and the clinic's reason.
    const card = page.getByRole('region', { name: /^CMS122/ });
    await card.getByTestId('score-CMS122').waitFor();
    expect(await card.textContent()).toContain('CMS122 · local version 2');
    expect(await card.getByTestId('local-version-CMS122').textContent()).toMatch(
      new RegExp(
        `^Local version 2 \\(local\\) of CMS122, changed from the CMS measure on \\d{4}-\\d{2}-\\d{2}: ${NOTE.replace(/[()]/g, '\\$&')}$`,
      ),
    );
    expect(await card.textContent()).toContain('Goal: Most recent HbA1c or GMI in the period at or below 8 %');
    // Rosa at 8.5 % is in the numerator now (a gap), Tove at 7.2 % is not: 1 of 2.
    expect(await card.getByTestId('fraction-CMS122').textContent()).toBe('1 of 2 eligible');
    await screenshot(page, 'pcp-panel-local-cms122-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const table = page.getByRole('table', { name: 'Gap list' });
    await page.getByRole('combobox', { name: 'Measure', exact: true }).click();
    await page.getByRole('option', { name: /^CMS122/ }).click();
    expect(await table.getByRole('row').count()).toBe(2); // header and Rosa
    expect(await table.getByRole('row', { name: /Rosa Eklund/ }).textContent()).toContain('Most recent HbA1c or GMI 8.5 % (above 8 %)');

    await table.getByRole('button', { name: 'Rosa Eklund' }).click();
    const dialog = page.getByRole('dialog', { name: /Rosa Eklund/ });
    const evidence = dialog.getByRole('list', { name: 'Evidence for Most recent HbA1c or GMI (lowest that day)' }).first();
    await evidence.waitFor();
    expect(await evidence.textContent()).toContain('Hemoglobin A1c/Hemoglobin.total in Blood · 8.5 %');
    expect(await dialog.textContent()).toContain(`Local version 2 (local) of CMS122, not the CMS measure as specified: ${NOTE}`);
    await dialogShot(page, 'pcp-panel-local-cms122-evidence-1366');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Start assessment' }).click();
    await page.waitForURL(/\/clinical-form$/);
    const summary = page.getByTestId('prefill-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toMatch(/HbA1c: 8\.5 % \(observed /);
    expect(await page.getByTestId('prefill-patient').textContent()).toBe(
      "Patient: Rosa Eklund · Patient/rosa-eklund in the clinic's records",
    );
    await screenshot(page, 'pcp-panel-local-cms122-prefilled-form-1366');

    // On a phone: the same card and gap, nothing scrolling sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${t.url}/pcp/panel`);
    await page.getByTestId('local-version-CMS122').waitFor();
    expect(await sideways(page)).toBe(0);
    await screenshot(page, 'pcp-panel-local-cms122-390');
    await page
      .getByRole('list', { name: 'Gap list' })
      .getByRole('button', { name: /Rosa Eklund.*CMS122/ })
      .click();
    const phoneDialog = page.getByRole('dialog', { name: /Rosa Eklund/ });
    await phoneDialog.getByText('8.5 %').first().waitFor();
    expect(await sideways(page)).toBe(0);
    await dialogShot(page, 'pcp-panel-local-cms122-evidence-390');
    expect(await seriousA11yViolations(page)).toEqual([]);
  } catch (e) {
    await screenshot(page, 'pcp-panel-local-cms122-failure');
    throw e;
  } finally {
    await page.close();
  }
}, 180_000);
