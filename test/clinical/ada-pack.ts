import type { TestApp } from '../support/app';
import type { TestUser } from '../support/factories';
import { expectStatus, previewImpact, type ParameterJson, type RuleSetJson } from '../support/clinical-factories';

/**
 * The shipped ADA Standards of Care 2026 pack, installed and published through the API as an
 * administrator does it from Rule Designer → Templates: Use Template, impact preview, publish.
 */

export const PACK_NAME = 'ADA Standards of Care 2026 — diabetes, kidney and blood pressure';

/** Finding names: each card's summary (rule name) starts with one. */
export const F = {
  confirmed: 'Diabetes (confirmed)',
  a1c: 'Diabetes (needs confirmation) — A1C ≥ 6.5 %',
  fpg: 'Diabetes (needs confirmation) — fasting glucose ≥ 126 mg/dL',
  ogtt: 'Diabetes (needs confirmation) — 2-h OGTT ≥ 200 mg/dL',
  random: 'Diabetes (needs confirmation) — random glucose ≥ 200 mg/dL without symptoms',
  prediabetes: 'Prediabetes',
  discordant: 'Discordant glycemic results',
  discordantOverTime: 'Discordant glycemic results over time',
  unreliable: 'A1C may be unreliable',
  hypo1: 'Hypoglycemia level 1',
  hypo2: 'Hypoglycemia level 2',
  g3a: 'CKD stage G3a',
  g3b: 'CKD stage G3b',
  g4: 'CKD stage G4',
  g5: 'CKD stage G5',
  egfrUnconfirmed: 'Reduced eGFR, persistence not yet shown',
  a2: 'Albuminuria A2',
  a3: 'Albuminuria A3',
  riskVeryHigh: 'CKD risk very high (KDIGO)',
  riskHigh: 'CKD risk high (KDIGO)',
  riskModerate: 'CKD risk moderately increased (KDIGO)',
  riskLow: 'CKD risk low (KDIGO)',
  referral: 'Nephrology referral indicated (KDIGO 2024)',
  crisis: 'Hypertensive crisis',
  stage2: 'Hypertension stage 2',
  stage1: 'Hypertension stage 1',
  bpTarget: 'BP above target',
  obesity: 'Obesity',
  overweight: 'Overweight',
  screen: 'Screen for diabetes',
} as const;

export interface InstalledPack {
  ruleSet: RuleSetJson;
  /** The clinic's parameters, by template name. */
  p: Record<string, ParameterJson>;
}

export async function installAndPublishPack(t: TestApp, admin: TestUser): Promise<InstalledPack> {
  const templates: RuleSetJson[] = expectStatus(await t.http().get('/api/rule-sets/templates').set(admin.auth), 200, 'templates').body;
  const template = templates.find((s) => s.name === PACK_NAME);
  if (!template) throw new Error('The ADA 2026 pack is not listed');
  const ruleSet: RuleSetJson = expectStatus(
    await t.http().post('/api/rule-sets/from-template').set(admin.auth).send({ template_id: template.id }),
    201,
    'install the pack',
  ).body;
  const preview = await previewImpact(t, admin, ruleSet);
  expectStatus(
    await t.http().post(`/api/rule-sets/${ruleSet.id}/publish`).set(admin.auth).send({ impact_preview_id: preview.id }),
    201,
    'publish the pack',
  );
  const params: ParameterJson[] = expectStatus(
    await t
      .http()
      .get('/api/parameters')
      .query({ filter: JSON.stringify({ is_template: false }), range: '[0,99]' })
      .set(admin.auth),
    200,
    'parameters',
  ).body;
  return { ruleSet, p: Object.fromEntries(params.map((x) => [x.name, x])) };
}
