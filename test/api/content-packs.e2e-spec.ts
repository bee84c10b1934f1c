import { startTestApp, type TestApp } from '../support/app';
import { counts, createCast } from '../support/factories';
import {
  createParameter,
  expectStatus,
  previewImpact,
  uniqueName,
  type ParameterJson,
  type RuleSetJson,
} from '../support/clinical-factories';

/**
 * Issue 20: the ADA Standards of Care 2026 content pack ships with every install (a template rule
 * set made by migration) and `POST /api/rule-sets/from-template` installs it as a draft with the
 * parameters it reads, its rules and its vignettes, in one transaction.
 */

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
});
afterAll(async () => {
  await t?.close();
});

const TABLES = ['parameters', 'parameter_changes', 'rule_sets', 'rules', 'rule_set_test_cases'];
const PACK_PREFIX = 'ADA Standards of Care 2026 — diabetes, kidney and blood pressure';

async function packTemplate(): Promise<RuleSetJson> {
  const res = await t.http().get('/api/rule-sets/templates').set(cast.admin.auth);
  expect(res.status).toBe(200);
  const pack = (res.body as RuleSetJson[]).find((s) => s.name.startsWith(PACK_PREFIX));
  if (!pack) throw new Error('The ADA pack is not listed');
  return pack;
}

async function install(name?: string): Promise<RuleSetJson> {
  const tpl = await packTemplate();
  const res = await t
    .http()
    .post('/api/rule-sets/from-template')
    .set(cast.admin.auth)
    .send({ template_id: tpl.id, ...(name ? { name } : {}) });
  return expectStatus(res, 201, 'install the pack').body;
}

async function rulesOf(set: RuleSetJson) {
  const res = await t
    .http()
    .get('/api/rules')
    .query({ filter: JSON.stringify({ rule_set_id: set.id }), range: '[0,99]' })
    .set(cast.admin.auth);
  return expectStatus(res, 200, 'rules').body as { id: string; name: string; conditions: { parameter: string }[]; source: string | null }[];
}

const activeParameters = async (): Promise<ParameterJson[]> =>
  expectStatus(await t.http().get('/api/parameters').query({ range: '[0,99]' }).set(cast.admin.auth), 200, 'parameters').body;

describe('the shipped ADA 2026 pack', () => {
  it('a fresh install lists it as an active template with what it installs', async () => {
    const pack = await packTemplate();
    expect(pack).toMatchObject({ name: PACK_PREFIX, is_template: true, is_active: true, is_published: false });
    expect(pack.content_pack).toMatchObject({ key: 'ada-2026' });
    expect(pack.content_pack!.rule_count).toBeGreaterThanOrEqual(25);
    expect(pack.content_pack!.parameter_count).toBe(23);
    expect(pack.content_pack!.vignette_count).toBeGreaterThanOrEqual(35);
  });

  it('an existing clinic parameter with the same LOINC code is reused; a clash refuses the install and writes nothing', async () => {
    // Before anything else is installed: a clinic's own A1C parameter, with the pack's code and unit.
    const own = await createParameter(t, cast.admin, {
      name: uniqueName('clinic_a1c'),
      display_name: 'Clinic A1C',
      data_type: 'lab_range',
      category: 'labs',
      units: '%',
      loinc_code: '4548-4',
    });
    // An active "egfr" recording another unit: the pack cannot read it and must not guess.
    const clash = await createParameter(t, cast.admin, { name: 'egfr', display_name: 'eGFR (old)', data_type: 'number', units: 'mL/min' });
    const before = await counts(t, TABLES);
    const tpl = await packTemplate();
    const refused = await t.http().post('/api/rule-sets/from-template').set(cast.admin.auth).send({ template_id: tpl.id });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
    expect(refused.body.message).toContain('"egfr"');
    expect(await counts(t, TABLES)).toEqual(before);

    // Recorded as another test (eGFR by the older CKD-EPI equation, 62238-1): the pack's own eGFR is created beside it.
    expectStatus(
      await t.http().put(`/api/parameters/${clash.id}`).set(cast.admin.auth).send({ loinc_code: '62238-1', units: 'mL/min/{1.73_m2}' }),
      200,
      'recode the clash',
    );
    const set = await install('Clinic ADA pack');
    expect(set).toMatchObject({ name: 'Clinic ADA pack', is_template: false, is_published: false, version: 1 });
    const rules = await rulesOf(set);
    const a1cRule = rules.find((r) => r.name.startsWith('Diabetes (needs confirmation) — A1C'))!;
    expect(a1cRule.conditions[0].parameter).toBe(own.id);
    const params = await activeParameters();
    expect(params.filter((p) => p.loinc_code === '4548-4' && !p.is_template).map((p) => p.id)).toEqual([own.id]);
    const egfr = params.find((p) => p.name === 'egfr_98979_8')!;
    expect(egfr).toMatchObject({ loinc_code: '98979-8', is_template: false });
    expect(rules.find((r) => r.name === 'CKD stage G5')!.conditions[0].parameter).toBe(egfr.id);
    expect(params.find((p) => p.id === clash.id)).toMatchObject({ name: 'egfr', loinc_code: '62238-1' });
  });

  it('installs the parameters it needs once; a second install reuses them', async () => {
    const before = await counts(t, TABLES);
    const first = await install();
    const mid = await counts(t, TABLES);
    const pack = first.content_pack ?? (await packTemplate()).content_pack!;
    expect(first.rule_count).toBe(pack.rule_count);
    expect(mid.rules - before.rules).toBe(pack.rule_count);
    expect(mid.rule_set_test_cases - before.rule_set_test_cases).toBe(pack.vignette_count);
    expect(mid.rule_sets - before.rule_sets).toBe(1);

    const second = await install();
    const after = await counts(t, TABLES);
    expect(after.parameters).toBe(mid.parameters);
    expect(after.rules - mid.rules).toBe(pack.rule_count);

    // Every condition points at an active clinic parameter (not a template), the same ones in both installs.
    const params = new Map((await activeParameters()).map((p) => [p.id, p]));
    const [a, b] = [await rulesOf(first), await rulesOf(second)];
    for (const r of [...a, ...b]) {
      expect(r.source).toMatch(/ADA Standards of Care in Diabetes—2026|KDIGO 2024|ACC\/AHA 2017/);
      for (const c of r.conditions) expect(params.get(c.parameter)?.is_template).toBe(false);
    }
    const used = (rules: typeof a) => [...new Set(rules.flatMap((r) => r.conditions.map((c) => c.parameter)))].sort();
    expect(used(b)).toEqual(used(a));
    // The parameters it created come from the templates: LOINC codes and UCUM units.
    const byName = new Map([...params.values()].map((p) => [p.name, p]));
    expect(byName.get('ogtt_2h_glucose')).toMatchObject({
      loinc_code: '20438-8',
      units: 'mg/dL',
      template_name: 'diabetes_ogtt_2h_glucose',
    });
    expect(byName.get('egfr_98979_8')).toMatchObject({ loinc_code: '98979-8', units: 'mL/min/{1.73_m2}' });
    expect(byName.get('pregnancy_status')).toMatchObject({ loinc_code: '82810-3', question_text: 'Is the patient currently pregnant?' });
    expect(byName.get('random_glucose')?.validation_rules.units_accepted).toEqual([
      {
        code: 'mmol/L',
        factor: 18,
        decimals: 1,
        equivalents: [
          [3.0, 54],
          [3.9, 70],
          [11.1, 200],
        ],
      },
    ]);
  });

  it('the installed draft has no analysis error, its vignettes pass, and it publishes and activates', async () => {
    const set = await install(uniqueName('ADA publish'));
    const analysis = expectStatus(await t.http().get(`/api/rule-sets/${set.id}/analysis`).set(cast.admin.auth), 200, 'analysis').body;
    expect(analysis.findings.filter((f: { severity: string }) => f.severity === 'error')).toEqual([]);
    expect(analysis.findings.filter((f: { severity: string }) => f.severity === 'warning')).toEqual([]);
    const vignettes = expectStatus(await t.http().get(`/api/rule-sets/${set.id}/test-cases`).set(cast.admin.auth), 200, 'vignettes').body;
    const failing = vignettes
      .filter((v: { passed: boolean }) => !v.passed)
      .map((v: { name: string; actual: unknown }) => [v.name, v.actual]);
    expect(failing).toEqual([]);
    const preview = await previewImpact(t, cast.admin, set);
    const published = await t.http().post(`/api/rule-sets/${set.id}/publish`).set(cast.admin.auth).send({ impact_preview_id: preview.id });
    expect(published.status).toBe(201);
    const active = await t.http().patch(`/api/rule-sets/${set.id}/activation`).set(cast.admin.auth).send({ is_active: true });
    expect(active.body).toMatchObject({ is_active: true, is_published: true });
  });

  it('a PCP cannot install it', async () => {
    const tpl = await packTemplate();
    const before = await counts(t, TABLES);
    const res = await t.http().post('/api/rule-sets/from-template').set(cast.pcp.auth).send({ template_id: tpl.id });
    expect(res.status).toBe(403);
    expect(await counts(t, TABLES)).toEqual(before);
  });
});
