import { startTestApp, type TestApp } from '../support/app';
import { counts, createCast } from '../support/factories';
import {
  action,
  cond,
  createParameter,
  createRule,
  createRuleSet,
  expectStatus,
  previewImpact,
  publish,
  uniqueName,
  updateRule,
  type ParameterJson,
} from '../support/clinical-factories';

/**
 * Issue 9, part 4: the publish gate. Analysis errors block, warnings need an acknowledgement
 * with a reason (recorded in the version), failing vignettes block, and all of it runs on the
 * draft together with every active published rule set. Each test uses its own parameters, so
 * the sets other tests publish do not meet it.
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

const VERSION_TABLES = ['rule_set_versions', 'rule_set_test_cases'];
const hba1c = (decimals = 1) =>
  createParameter(t, cast.admin, {
    name: uniqueName('hba1c'),
    display_name: 'HbA1c',
    data_type: 'lab_range',
    units: '%',
    validation_rules: { decimals, min: 3, max: 20 },
  });
const post = (path: string, body: object = {}) => t.http().post(path).set(cast.admin.auth).send(body);
const get = (path: string) => t.http().get(path).set(cast.admin.auth);
const ACK = { acknowledge_warnings: { reason: 'Cut-point reviewed with the diabetes lead' } };

/** Normal < 5.7, prediabetes [5.7, 6.5), diabetes ≥ 6.5 (high): a clean partition, no findings. */
async function glycaemicSet(p: ParameterJson) {
  const set = await createRuleSet(t, cast.admin, { name: uniqueName('Glycaemic') });
  const normal = await createRule(t, cast.admin, set, {
    name: 'Normal HbA1c',
    conditions: [cond(p, '<', 5.7)],
    actions: [action('Rescreen in 3 years', { severity: 'low' })],
  });
  const pre = await createRule(t, cast.admin, set, {
    name: 'Prediabetes',
    priority: 10,
    conditions: [cond(p, '>=', 5.7), cond(p, '<', 6.5)],
    actions: [action('Lifestyle programme', { type: 'lifestyle', severity: 'medium' })],
  });
  const diabetes = await createRule(t, cast.admin, set, {
    name: 'Diabetes',
    priority: 50,
    conditions: [cond(p, '>=', 6.5)],
    actions: [action('Confirm and start treatment', { severity: 'high' })],
  });
  return { set, normal, pre, diabetes };
}

describe('analysis errors block publishing', () => {
  it('an unsatisfiable rule is 409 with the finding in details, and nothing is written', async () => {
    const p = await hba1c();
    const { set } = await glycaemicSet(p);
    const never = await createRule(t, cast.admin, set, {
      name: 'Never',
      conditions: [cond(p, '>', 7), cond(p, '<', 6)],
      actions: [action('x')],
    });
    const before = await counts(t, VERSION_TABLES);
    const res = await post(`/api/rule-sets/${set.id}/publish`, ACK);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ statusCode: 409, code: 'conflict' });
    expect(res.body.message).toMatch(/^Publishing is blocked: analysis found 1 error \(Rule "Never" can never fire/);
    expect(res.body.details.findings).toEqual([
      expect.objectContaining({ code: 'unsatisfiable_rule', severity: 'error', rule_ids: [never.id], parameter_id: p.id }),
    ]);
    expect(await counts(t, VERSION_TABLES)).toEqual(before);
    expect((await get(`/api/rule-sets/${set.id}`)).body).toMatchObject({ is_published: false, latest_version: null });
  });

  it('a rule with no conditions is 409 even with an acknowledgement; removing it lets the set publish', async () => {
    const p = await hba1c();
    const { set } = await glycaemicSet(p);
    const empty = await createRule(t, cast.admin, set, { name: 'Empty', actions: [action('x')] });
    const res = await post(`/api/rule-sets/${set.id}/publish`, ACK);
    expect(res.status).toBe(409);
    expect(res.body.details.findings.map((f: { code: string }) => f.code)).toEqual(['no_conditions']);
    expect(res.body.details.findings[0].rule_ids).toEqual([empty.id]);
    expectStatus(await t.http().delete(`/api/rules/${empty.id}`).set(cast.admin.auth), 200, 'delete');
    expect((await publish(t, cast.admin, set, {})).number).toBe(1);
  });
});

describe('warnings need an acknowledgement with a reason', () => {
  it('409 lists the warnings; a blank reason is 400; with a reason the version records who, when, why and what', async () => {
    const p = await hba1c();
    const set = await createRuleSet(t, cast.admin);
    const below = await createRule(t, cast.admin, set, {
      name: 'Prediabetes',
      conditions: [cond(p, '<=', 6.5)],
      actions: [action('Lifestyle')],
    });
    const above = await createRule(t, cast.admin, set, { name: 'Diabetes', conditions: [cond(p, '>=', 6.5)], actions: [action('Treat')] });

    const before = await counts(t, VERSION_TABLES);
    const refused = await post(`/api/rule-sets/${set.id}/publish`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Publishing needs an acknowledgement: analysis found 1 warning. Review them and give a reason to publish anyway.',
    );
    expect(refused.body.details.warnings).toEqual([
      {
        code: 'cut_point_overlap',
        severity: 'warning',
        rule_ids: [below.id, above.id],
        parameter_id: p.id,
        message: 'HbA1c of exactly 6.5 matches both rule "Prediabetes" (6.5 or below) and rule "Diabetes" (6.5 or above).',
      },
    ]);
    for (const body of [{ acknowledge_warnings: { reason: '  ' } }, { acknowledge_warnings: {} }, { acknowledge_warnings: 'yes' }]) {
      const bad = await post(`/api/rule-sets/${set.id}/publish`, body);
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('validation_failed');
    }
    expect(await counts(t, VERSION_TABLES)).toEqual(before);

    const ok = await post(`/api/rule-sets/${set.id}/publish`, { ...ACK, impact_preview_id: (await previewImpact(t, cast.admin, set)).id });
    expect(ok.status).toBe(201);
    expect(ok.body.warning_acknowledgement).toEqual({
      reason: 'Cut-point reviewed with the diabetes lead',
      by: cast.admin.id,
      by_email: cast.admin.email,
      at: expect.any(String),
      findings: [{ code: 'cut_point_overlap', message: refused.body.details.warnings[0].message }],
    });
    expect(Math.abs(Date.parse(ok.body.warning_acknowledgement.at) - Date.parse(ok.body.published_at))).toBeLessThan(60_000);
    const history = (await get(`/api/rule-sets/${set.id}/versions`)).body;
    expect(history[0].warning_acknowledgement).toEqual(ok.body.warning_acknowledgement);
  });

  // Issue 20: a draft that leaves a range with no finding where the published version had one is a warning.
  it('raising the diabetes cut-point to 7.0 % without moving prediabetes warns that HbA1c 6.5 to < 7 % gets no finding', async () => {
    const p = await hba1c();
    const { set, pre, diabetes } = await glycaemicSet(p);
    await publish(t, cast.admin, set, {});
    await updateRule(t, cast.admin, diabetes, { conditions: [cond(p, '>=', 7.0)] });
    const check = (await get(`/api/rule-sets/${set.id}/publish-check`)).body;
    expect(check).toMatchObject({ errors: [], failing_vignettes: [] });
    expect(check.warnings).toEqual([
      {
        code: 'uncovered_band',
        severity: 'warning',
        rule_ids: [diabetes.id],
        parameter_id: p.id,
        message:
          'HbA1c 6.5 to < 7 %: no rule gives a finding in this range any more. The published version gave "Diabetes"; ' +
          'after publishing, patients with these values get no finding from HbA1c. Extend a rule to cover the range, or acknowledge if the change is intended.',
      },
    ]);
    const refused = await post(`/api/rule-sets/${set.id}/publish`, { impact_preview_id: (await previewImpact(t, cast.admin, set)).id });
    expect(refused.status).toBe(409);
    expect(refused.body.details.warnings.map((f: { code: string }) => f.code)).toEqual(['uncovered_band']);

    // Widening prediabetes to < 7.0 % covers the range again: no warning, publishes without an acknowledgement.
    await updateRule(t, cast.admin, pre, { conditions: [cond(p, '>=', 5.7), cond(p, '<', 7.0)] });
    expect((await get(`/api/rule-sets/${set.id}/publish-check`)).body.warnings).toEqual([]);
    expect((await publish(t, cast.admin, set, {})).number).toBe(2);
  });

  it('a set without warnings publishes without an acknowledgement and records none', async () => {
    const { set } = await glycaemicSet(await hba1c());
    const v = await publish(t, cast.admin, set, {});
    expect(v.warning_acknowledgement).toBeNull();
  });
});

describe('gaps and overlaps on the parameter precision', () => {
  const boundaryRules = async (p: ParameterJson) => {
    const set = await createRuleSet(t, cast.admin);
    await createRule(t, cast.admin, set, { name: 'Normal', conditions: [cond(p, '<=', 5.6)], actions: [action('Rescreen')] });
    await createRule(t, cast.admin, set, { name: 'Prediabetes', conditions: [cond(p, '>=', 5.7)], actions: [action('Lifestyle')] });
    return set;
  };

  it('"<= 5.6" / ">= 5.7" is no gap for HbA1c recorded to one decimal', async () => {
    const set = await boundaryRules(await hba1c(1));
    expect((await get(`/api/rule-sets/${set.id}/analysis`)).body.findings).toEqual([]);
    expect(
      (await post(`/api/rule-sets/${set.id}/publish`, { impact_preview_id: (await previewImpact(t, cast.admin, set)).id })).status,
    ).toBe(201);
  });

  it('"<= 5.6" / ">= 5.7" is a gap (5.61 to 5.69) for HbA1c recorded to two decimals, and needs an acknowledgement', async () => {
    const set = await boundaryRules(await hba1c(2));
    const findings = (await get(`/api/rule-sets/${set.id}/analysis`)).body.findings;
    expect(findings).toEqual([expect.objectContaining({ code: 'cut_point_gap', severity: 'warning' })]);
    expect(findings[0].message).toContain('HbA1c from 5.61 to 5.69 (recorded to 2 decimals)');
    expect((await post(`/api/rule-sets/${set.id}/publish`)).status).toBe(409);
  });
});

describe('analysis across every active published rule set', () => {
  it('an overlap with a rule of another published set is found, and the other set is named as analysed with it', async () => {
    const p = await hba1c();
    const a = await createRuleSet(t, cast.admin, { name: uniqueName('Set A') });
    const diabetes = await createRule(t, cast.admin, a, {
      name: 'Diabetes (A)',
      conditions: [cond(p, '>=', 6.5)],
      actions: [action('Treat')],
    });
    await publish(t, cast.admin, a, {});

    const b = await createRuleSet(t, cast.admin, { name: uniqueName('Set B') });
    const pre = await createRule(t, cast.admin, b, {
      name: 'Prediabetes (B)',
      conditions: [cond(p, '<=', 6.5)],
      actions: [action('Lifestyle')],
    });
    const analysis = (await get(`/api/rule-sets/${b.id}/analysis`)).body;
    expect(analysis.combined_with).toEqual(expect.arrayContaining([{ id: a.id, name: a.name }]));
    expect(analysis.combined_with.map((s: { id: string }) => s.id)).not.toContain(b.id);
    expect(analysis.findings).toEqual([
      expect.objectContaining({ code: 'cut_point_overlap', rule_ids: [pre.id, diabetes.id], parameter_id: p.id }),
    ]);
    const check = (await get(`/api/rule-sets/${b.id}/publish-check`)).body;
    expect(check).toMatchObject({ has_changes: true, errors: [], failing_vignettes: [], failing_test_cases: [] });
    expect(check.warnings.map((f: { code: string }) => f.code)).toEqual(['cut_point_overlap']);
    expect((await post(`/api/rule-sets/${b.id}/publish`)).status).toBe(409);

    // Deactivating set A takes it out of what a PCP gets, and out of the analysis.
    expectStatus(
      await t.http().patch(`/api/rule-sets/${a.id}/activation`).set(cast.admin.auth).send({ is_active: false }),
      200,
      'deactivate',
    );
    expect((await get(`/api/rule-sets/${b.id}/analysis`)).body.findings).toEqual([]);
  });

  it("publishing a set that changes another set's vignette result is refused, naming that vignette", async () => {
    const p = await hba1c();
    const { set: a, diabetes } = await glycaemicSet(p);
    expectStatus(
      await post(`/api/rule-sets/${a.id}/test-cases`, {
        name: 'A1C 7.0 %: diabetes only',
        answers: { [p.id]: 7 },
        expected_fired: [diabetes.id],
        expected_primary: diabetes.id,
      }),
      201,
      'vignette',
    );
    await publish(t, cast.admin, a, {});

    const b = await createRuleSet(t, cast.admin, { name: uniqueName('Cardiometabolic') });
    const urgent = await createRule(t, cast.admin, b, {
      name: 'Severe hyperglycaemia',
      priority: 90,
      conditions: [cond(p, '>=', 6.9)],
      actions: [action('Same-day review', { severity: 'critical' })],
    });
    const res = await post(`/api/rule-sets/${b.id}/publish`, ACK);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Publishing is blocked: 1 vignette fails (vignette "A1C 7.0 %: diabetes only").');
    expect(res.body.details.vignettes).toEqual([
      expect.objectContaining({
        test_case_name: 'A1C 7.0 %: diabetes only',
        rule_set_id: a.id,
        expected_primary: diabetes.id,
        actual: expect.objectContaining({
          primary: expect.objectContaining({ rule_id: urgent.id, severity: 'critical', rule_set_name: b.name }),
        }),
      }),
    ]);
  });
});

describe('rule-set test cases are patient vignettes', () => {
  it('saves answers with the expected fired rules and primary; a failing vignette blocks publishing, naming it', async () => {
    const p = await hba1c();
    const { set, pre, diabetes } = await glycaemicSet(p);
    const run = await post(`/api/rule-sets/${set.id}/run`, { answers: { [p.id]: 6.5 } });
    expect(run.status).toBe(200);
    expect(run.body).toEqual({
      fired: [
        expect.objectContaining({ rule_id: diabetes.id, rule_name: 'Diabetes', severity: 'high', priority: 50, rule_set_id: set.id }),
      ],
      primary: expect.objectContaining({ rule_id: diabetes.id }),
      // Rules of other published sets whose inputs this vignette leaves out.
      undetermined: expect.any(Array),
    });
    expect(run.body.undetermined.filter((r: { rule_set_id: string }) => r.rule_set_id === set.id)).toEqual([]);
    const saved = await post(`/api/rule-sets/${set.id}/test-cases`, {
      name: 'HbA1c exactly 6.5 % is diabetes',
      answers: { [p.id]: 6.5 },
      expected_fired: [diabetes.id],
      expected_primary: diabetes.id,
    });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ name: 'HbA1c exactly 6.5 % is diabetes', passed: true, expected_primary: diabetes.id });
    expect((await publish(t, cast.admin, set, {})).number).toBe(1);

    // 6.5 moved into prediabetes by mistake: the vignette fails and names itself.
    await updateRule(t, cast.admin, pre, { conditions: [cond(p, '>=', 5.7), cond(p, '<=', 6.5)] });
    await updateRule(t, cast.admin, diabetes, { conditions: [cond(p, '>', 6.5)] });
    const list = (await get(`/api/rule-sets/${set.id}/test-cases`)).body;
    expect(list).toEqual([
      expect.objectContaining({
        id: saved.body.id,
        passed: false,
        actual: expect.objectContaining({ primary: expect.objectContaining({ rule_id: pre.id }) }),
      }),
    ]);
    const before = await counts(t, VERSION_TABLES);
    const res = await post(`/api/rule-sets/${set.id}/publish`, ACK);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Publishing is blocked: 1 vignette fails (vignette "HbA1c exactly 6.5 % is diabetes").');
    expect(await counts(t, VERSION_TABLES)).toEqual(before);
  });

  it.each([
    [{ name: 'x', answers: {}, expected_fired: ['nope'], expected_primary: null }, 'expected_fired names rules that are not active'],
    [{ name: 'x', answers: {}, expected_fired: [], expected_primary: 'abc' }, 'expected_primary must be one of expected_fired'],
    [{ name: ' ', answers: {}, expected_fired: [], expected_primary: null }, 'Please name the test case.'],
    [{ name: 'x', answers: { nope: 1 }, expected_fired: [], expected_primary: null }, '"nope" is not a parameter.'],
    [{ name: 'x', answers: {}, expected_fired: 'all', expected_primary: null }, 'expected_fired must be a list of rule ids'],
  ])('refuses %j with 400', async (body, message) => {
    const { set } = await glycaemicSet(await hba1c());
    const before = await counts(t, VERSION_TABLES);
    const res = await post(`/api/rule-sets/${set.id}/test-cases`, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect(await counts(t, VERSION_TABLES)).toEqual(before);
  });

  it('boundary vignettes give t − 0.1, t, t + 0.1 at every cut-point with the result each gives', async () => {
    const p = await hba1c(1);
    const { set, normal, pre, diabetes } = await glycaemicSet(p);
    const res = await get(`/api/rule-sets/${set.id}/boundary-vignettes`);
    expect(res.status).toBe(200);
    expect(
      res.body.map((v: { value: number; result: { primary: { rule_id: string } | null } }) => [v.value, v.result.primary?.rule_id]),
    ).toEqual([
      [5.6, normal.id],
      [5.7, pre.id],
      [5.8, pre.id],
      [6.4, pre.id],
      [6.5, diabetes.id],
      [6.6, diabetes.id],
    ]);
    expect(res.body[4]).toMatchObject({
      parameter_id: p.id,
      display_name: 'HbA1c',
      units: '%',
      cut_point: 6.5,
      position: 0,
      decimals: 1,
      answers: { [p.id]: 6.5 },
    });
  });
});

describe('nothing changed', () => {
  it('publish-check says has_changes false right after a publish, and publishing again is 409', async () => {
    const { set } = await glycaemicSet(await hba1c());
    await publish(t, cast.admin, set, {});
    expect((await get(`/api/rule-sets/${set.id}/publish-check`)).body).toMatchObject({ has_changes: false, latest_version: 1 });
    expect((await post(`/api/rule-sets/${set.id}/publish`)).body.message).toBe('Nothing changed since version 1');
  });
});

describe('sources', () => {
  it("a rule's source, else its rule set's, is published with the rule and shown in the diff", async () => {
    const p = await hba1c();
    const set = await createRuleSet(t, cast.admin, { name: uniqueName('Sourced') });
    expectStatus(
      await t.http().put(`/api/rule-sets/${set.id}`).set(cast.admin.auth).send({ source: 'ADA Standards of Care in Diabetes—2026' }),
      200,
      'source',
    );
    const own = await createRule(t, cast.admin, set, { name: 'Diabetes', conditions: [cond(p, '>=', 6.5)], actions: [action('Treat')] });
    expectStatus(
      await t.http().put(`/api/rules/${own.id}`).set(cast.admin.auth).send({ source: 'ADA Standards of Care in Diabetes—2026, Section 2' }),
      200,
      'rule source',
    );
    const inherited = await createRule(t, cast.admin, set, {
      name: 'Normal',
      conditions: [cond(p, '<', 5.7)],
      actions: [action('Rescreen')],
    });
    const v1 = await publish(t, cast.admin, set, {});
    expect(v1.source).toBe('ADA Standards of Care in Diabetes—2026');
    const byId = Object.fromEntries(v1.rules.map((r: { id: string; source?: string | null }) => [r.id, r.source]));
    expect(byId).toEqual({
      [own.id]: 'ADA Standards of Care in Diabetes—2026, Section 2',
      [inherited.id]: 'ADA Standards of Care in Diabetes—2026',
    });

    expectStatus(
      await t.http().put(`/api/rules/${own.id}`).set(cast.admin.auth).send({ source: 'ADA Standards of Care in Diabetes—2026, Section 6' }),
      200,
      'rule source',
    );
    const diff = (await get(`/api/rule-sets/${set.id}/diff`)).body;
    expect(diff.changed).toEqual([expect.objectContaining({ id: own.id, fields: ['source'] })]);
    expect((await get(`/api/rules/${own.id}`)).body.source).toBe('ADA Standards of Care in Diabetes—2026, Section 6');
  });
});
