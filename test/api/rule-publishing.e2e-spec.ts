import { Client } from 'pg';
import { PublishedRules } from '../../backend/src/modules/assessments/published-rules';
import { RuleVersionsService } from '../../backend/src/modules/rules/rule-versions.service';
import { startTestApp, type TestApp } from '../support/app';
import { counts, createCast } from '../support/factories';
import {
  action,
  cond,
  createParameter,
  createPublishedRuleSet,
  createRule,
  createRuleSet,
  createTestCase,
  expectStatus,
  FIXTURE_ACKNOWLEDGEMENT,
  previewImpact,
  publish,
  uniqueName,
  updateRule,
  type ParameterJson,
} from '../support/clinical-factories';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let hba1c: ParameterJson;
let glucose: ParameterJson;
let smoker: ParameterJson;
let versions: RuleVersionsService;

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  versions = t.runtime.app.get(RuleVersionsService);
  hba1c = await createParameter(t, cast.admin, {
    name: uniqueName('hba1c'),
    display_name: 'HbA1c',
    data_type: 'lab_range',
    units: '%',
    validation_rules: { diabetes_range: { min: 6.5, max: 15 } },
  });
  glucose = await createParameter(t, cast.admin, {
    name: uniqueName('glucose'),
    display_name: 'Fasting Glucose',
    data_type: 'lab_range',
    units: 'mg/dL',
  });
  smoker = await createParameter(t, cast.admin, {
    name: uniqueName('smoker'),
    display_name: 'Smoker',
    data_type: 'boolean',
    category: 'history',
  });
});
afterAll(async () => {
  await t?.close();
});

const VERSION_TABLES = ['rule_set_versions', 'rule_sets'];
const diabetes = () => ({
  name: 'Diabetes range',
  priority: 20,
  conditions: [cond(hba1c, '>=', 6.5)],
  actions: [action('Start metformin', { severity: 'high' })],
});
const prediabetes = () => ({
  name: 'Prediabetes',
  priority: 10,
  conditions: [cond(hba1c, '>=', 5.7), cond(hba1c, '<', 6.5)],
  actions: [action('Lifestyle advice', { type: 'lifestyle', severity: 'low' })],
});

describe('publishing', () => {
  it('snapshots the active rules and the parameters they use into version 1', async () => {
    const set = await createRuleSet(t, cast.admin);
    const d = await createRule(t, cast.admin, set, diabetes());
    const pre = await createRule(t, cast.admin, set, prediabetes());
    const off = await createRule(t, cast.admin, set, { name: 'Off', conditions: [cond(glucose, '>', 126)], actions: [action('x')] });
    expectStatus(await t.http().delete(`/api/rules/${off.id}`).set(cast.admin.auth), 200, 'delete');

    const preview = await previewImpact(t, cast.admin, set);
    const res = await t.http().post(`/api/rule-sets/${set.id}/publish`).set(cast.admin.auth).send({ impact_preview_id: preview.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      rule_set_id: set.id,
      number: 1,
      name: set.name,
      rule_count: 2,
      published_by: cast.admin.id,
      published_by_email: cast.admin.email,
    });
    expect(res.body.content_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body.rules).toEqual([
      {
        id: pre.id,
        rule_set_id: set.id,
        name: 'Prediabetes',
        description: '',
        priority: 10,
        conditions: pre.conditions,
        actions: pre.actions,
      },
      {
        id: d.id,
        rule_set_id: set.id,
        name: 'Diabetes range',
        description: '',
        priority: 20,
        conditions: d.conditions,
        actions: d.actions,
      },
    ]);
    expect(res.body.parameters).toEqual([
      {
        id: hba1c.id,
        name: hba1c.name,
        display_name: 'HbA1c',
        data_type: 'lab_range',
        units: '%',
        validation_rules: { diabetes_range: { min: 6.5, max: 15 } },
        is_active: true,
      },
    ]);
    const after = (await t.http().get(`/api/rule-sets/${set.id}`).set(cast.admin.auth)).body;
    expect(after).toMatchObject({ is_published: true, version: 1, latest_version: 1, published_at: res.body.published_at });
  });

  it('publishing identical content again is 409 "Nothing changed since version N" and writes nothing', async () => {
    const { ruleSet } = await createPublishedRuleSet(t, cast.admin, [diabetes()]);
    const before = await counts(t, VERSION_TABLES);
    const res = await t.http().post(`/api/rule-sets/${ruleSet.id}/publish`).set(cast.admin.auth);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      statusCode: 409,
      code: 'conflict',
      message: 'Nothing changed since version 1',
      details: { version: 1 },
    });
    expect(await counts(t, VERSION_TABLES)).toEqual(before);
  });

  it('two publishes at once make exactly one version', async () => {
    const set = await createRuleSet(t, cast.admin);
    await createRule(t, cast.admin, set, diabetes());
    const body = { ...FIXTURE_ACKNOWLEDGEMENT, impact_preview_id: (await previewImpact(t, cast.admin, set)).id };
    const results = await Promise.all([1, 2].map(() => t.http().post(`/api/rule-sets/${set.id}/publish`).set(cast.admin.auth).send(body)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await t.http().get(`/api/rule-sets/${set.id}/versions`).set(cast.admin.auth)).body).toHaveLength(1);
  });

  it('a set without active rules cannot be published; an unknown one is 404', async () => {
    const set = await createRuleSet(t, cast.admin);
    const before = await counts(t, VERSION_TABLES);
    const res = await t.http().post(`/api/rule-sets/${set.id}/publish`).set(cast.admin.auth);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Add at least one active rule before publishing.');
    expect(await counts(t, VERSION_TABLES)).toEqual(before);
    expect((await t.http().post('/api/rule-sets/00000000-0000-4000-8000-000000000000/publish').set(cast.admin.auth)).status).toBe(404);
  });

  it('is refused while a saved test case fails, listing the failures; passes once fixed', async () => {
    const set = await createRuleSet(t, cast.admin);
    const rule = await createRule(t, cast.admin, set, diabetes());
    const ok = await createTestCase(t, cast.admin, rule, { name: 'clearly diabetic', answers: { [hba1c.id]: 8 }, expected_outcome: true });
    const bad = await createTestCase(t, cast.admin, rule, {
      name: 'cut-point excluded',
      answers: { [hba1c.id]: 6.5 },
      expected_outcome: false,
    });
    const other = await createRule(t, cast.admin, set, prediabetes());
    const off = await createTestCase(t, cast.admin, other, { name: 'ignored once deleted', answers: {}, expected_outcome: true });
    expectStatus(await t.http().delete(`/api/rules/${other.id}`).set(cast.admin.auth), 200, 'delete');

    const before = await counts(t, VERSION_TABLES);
    const res = await t.http().post(`/api/rule-sets/${set.id}/publish`).set(cast.admin.auth);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
    expect(res.body.message).toContain('1 saved test case fails');
    expect(res.body.message).toContain('"cut-point excluded"');
    expect(res.body.details.failures).toEqual([
      {
        rule_id: rule.id,
        rule_name: 'Diabetes range',
        test_case_id: bad.id,
        test_case_name: 'cut-point excluded',
        expected_outcome: false,
        actual_outcome: true,
      },
    ]);
    expect(await counts(t, VERSION_TABLES)).toEqual(before);
    expect((await t.http().get(`/api/rule-sets/${set.id}`).set(cast.admin.auth)).body).toMatchObject({
      is_published: false,
      latest_version: null,
    });
    void ok;
    void off;

    await updateRule(t, cast.admin, rule, { conditions: [cond(hba1c, '>', 6.5)] });
    expect((await publish(t, cast.admin, set)).number).toBe(1);
  });
});

describe('published versions are immutable', () => {
  it('editing rules or parameters after publishing changes nothing that assessments load until the next publish', async () => {
    const weight = await createParameter(t, cast.admin, { name: uniqueName('weight'), display_name: 'Weight', units: 'kg' });
    const {
      ruleSet,
      rules: [rule],
      version: v1,
    } = await createPublishedRuleSet(t, cast.admin, [
      { name: 'Heavy', priority: 5, conditions: [cond(weight, '>', 120)], actions: [action('Weight management')] },
    ]);
    const loaded = async () => (await versions.loadPublishedRuleSets()).find((s) => s.rule_set_id === ruleSet.id)!;
    const first = await loaded();
    expect(first).toMatchObject({ rule_set_id: ruleSet.id, name: ruleSet.name, version: 1, version_id: v1.id });
    expect(first.rules).toEqual([{ ...v1.rules[0], version: 1, rule_set_id: ruleSet.id }]);
    expect(first.parameters).toEqual(v1.parameters);

    await updateRule(t, cast.admin, rule, { conditions: [cond(weight, '>', 100)], priority: 50 });
    await createRule(t, cast.admin, ruleSet, { name: 'Light', conditions: [cond(weight, '<', 45)], actions: [action('Nutrition review')] });
    expectStatus(
      await t.http().put(`/api/parameters/${weight.id}`).set(cast.admin.auth).send({ units: 'lb', display_name: 'Body weight' }),
      200,
      'edit parameter',
    );
    expect(await loaded()).toEqual(first);
    expect((await t.http().get(`/api/rule-sets/${ruleSet.id}/versions/1`).set(cast.admin.auth)).body).toEqual(v1);

    const v2 = await publish(t, cast.admin, ruleSet);
    expect(v2).toMatchObject({ number: 2, rule_count: 2 });
    expect(v2.parameters[0]).toMatchObject({ id: weight.id, display_name: 'Body weight', units: 'lb' });
    const second = await loaded();
    expect(second).toMatchObject({ version: 2, version_id: v2.id });
    expect(second.rules.find((r) => r.id === rule.id)).toMatchObject({
      priority: 50,
      version: 2,
      conditions: [expect.objectContaining({ value: 100 })],
    });
    expect((await t.http().get(`/api/rule-sets/${ruleSet.id}`).set(cast.admin.auth)).body).toMatchObject({ version: 2, latest_version: 2 });
    expect(await versions.loadVersion(v1.id)).toEqual(first);
  });

  it('a parameter edit alone is a change worth publishing (the snapshot would differ)', async () => {
    const p = await createParameter(t, cast.admin, {
      name: uniqueName('sbp'),
      display_name: 'Systolic',
      data_type: 'vitals',
      category: 'vitals',
      units: 'mmHg',
    });
    const { ruleSet } = await createPublishedRuleSet(t, cast.admin, [
      { conditions: [cond(p, '>=', 140)], actions: [action('Treat hypertension')] },
    ]);
    expectStatus(
      await t
        .http()
        .put(`/api/parameters/${p.id}`)
        .set(cast.admin.auth)
        .send({ validation_rules: { target_range: { min: 90, max: 130 } } }),
      200,
      'edit',
    );
    expect((await publish(t, cast.admin, ruleSet)).number).toBe(2);
  });

  it('the database refuses any change to a published version', async () => {
    const { version } = await createPublishedRuleSet(t, cast.admin, [diabetes()]);
    // Straight to the database, past the app (and past TypeORM's error log).
    const client = new Client({ connectionString: t.runtime.config.databaseUrl });
    await client.connect();
    try {
      await expect(client.query(`UPDATE rule_set_versions SET rules = '[]' WHERE id = $1`, [version.id])).rejects.toThrow(/immutable/);
    } finally {
      await client.end();
    }
    expect((await versions.loadVersion(version.id)).rules).toHaveLength(1);
  });

  it('assessments load only active, published, undeleted rule sets, each at its latest version', async () => {
    const live = await createPublishedRuleSet(t, cast.admin, [diabetes()]);
    const inactive = await createPublishedRuleSet(t, cast.admin, [diabetes()]);
    const deleted = await createPublishedRuleSet(t, cast.admin, [diabetes()]);
    const draft = await createRuleSet(t, cast.admin);
    await createRule(t, cast.admin, draft, diabetes());
    expectStatus(
      await t.http().patch(`/api/rule-sets/${inactive.ruleSet.id}/activation`).set(cast.admin.auth).send({ is_active: false }),
      200,
      'deactivate',
    );
    expectStatus(await t.http().delete(`/api/rule-sets/${deleted.ruleSet.id}`).set(cast.admin.auth), 200, 'delete');
    const loaded = (await versions.loadPublishedRuleSets()).map((s) => s.rule_set_id);
    expect(loaded).toContain(live.ruleSet.id);
    expect(loaded).not.toContain(inactive.ruleSet.id);
    expect(loaded).not.toContain(deleted.ruleSet.id);
    expect(loaded).not.toContain(draft.id);
    // A deactivated set keeps its versions and comes back as it was.
    expectStatus(
      await t.http().patch(`/api/rule-sets/${inactive.ruleSet.id}/activation`).set(cast.admin.auth).send({ is_active: true }),
      200,
      'activate',
    );
    expect((await versions.loadPublishedRuleSets()).find((s) => s.rule_set_id === inactive.ruleSet.id)?.version_id).toBe(
      inactive.version.id,
    );
    await expect(versions.loadVersion('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('the cached knowledge new sessions use follows deactivation, activation and a new version at once', async () => {
    const published = t.runtime.app.get(PublishedRules);
    const set = await createPublishedRuleSet(t, cast.admin, [diabetes()]);
    const same = async () => {
      const knowledge = (await published.current()).versions.map((v) => v.version_id);
      expect(knowledge).toEqual((await versions.loadPublishedRuleSets()).map((s) => s.version_id));
      return knowledge;
    };
    expect(await same()).toContain(set.version.id);
    const activation = (is_active: boolean) =>
      t.http().patch(`/api/rule-sets/${set.ruleSet.id}/activation`).set(cast.admin.auth).send({ is_active });
    expectStatus(await activation(false), 200, 'deactivate');
    expect(await same()).not.toContain(set.version.id);
    expectStatus(await activation(true), 200, 'activate');
    expect(await same()).toContain(set.version.id);
    await createRule(t, cast.admin, set.ruleSet, diabetes());
    const v2 = await publish(t, cast.admin, set.ruleSet);
    const after = await same();
    expect(after).toContain(v2.id);
    expect(after).not.toContain(set.version.id);
  });
});

describe('versions and diff', () => {
  it('lists versions newest first without content, reads one with content; unknown numbers are 404', async () => {
    const {
      ruleSet,
      rules: [rule],
      version: v1,
    } = await createPublishedRuleSet(t, cast.admin, [diabetes()]);
    await updateRule(t, cast.admin, rule, { priority: 30 });
    const v2 = await publish(t, cast.admin, ruleSet);
    const list = await t.http().get(`/api/rule-sets/${ruleSet.id}/versions`).set(cast.admin.auth);
    expect(list.status).toBe(200);
    expect(list.body.map((v: { number: number }) => v.number)).toEqual([2, 1]);
    expect(list.body[1]).toEqual({
      id: v1.id,
      rule_set_id: ruleSet.id,
      number: 1,
      name: ruleSet.name,
      content_hash: v1.content_hash,
      rule_count: 1,
      published_by: cast.admin.id,
      published_by_email: cast.admin.email,
      published_at: v1.published_at,
      source: null,
      warning_acknowledgement: v1.warning_acknowledgement,
    });
    expect((await t.http().get(`/api/rule-sets/${ruleSet.id}/versions/2`).set(cast.admin.auth)).body).toEqual(v2);
    for (const n of ['3', '0', 'abc', '1.5', '99999999999'])
      expect((await t.http().get(`/api/rule-sets/${ruleSet.id}/versions/${n}`).set(cast.admin.auth)).status).toBe(404);
    expect((await t.http().get('/api/rule-sets/00000000-0000-4000-8000-000000000000/versions').set(cast.admin.auth)).status).toBe(404);
  });

  it('diffs two versions: rules added, removed and changed (with the fields), and parameter changes', async () => {
    const {
      ruleSet,
      rules: [d, pre],
    } = await createPublishedRuleSet(t, cast.admin, [diabetes(), prediabetes()]);
    await updateRule(t, cast.admin, d, {
      priority: 90,
      actions: [action('Start metformin and refer', { type: 'referral', severity: 'high' })],
    });
    expectStatus(await t.http().delete(`/api/rules/${pre.id}`).set(cast.admin.auth), 200, 'delete');
    const smokerRule = await createRule(t, cast.admin, ruleSet, {
      name: 'Smoker',
      conditions: [cond(smoker, 'equals', true)],
      actions: [action('Cessation')],
    });
    await publish(t, cast.admin, ruleSet);

    const res = await t.http().get(`/api/rule-sets/${ruleSet.id}/diff`).query({ from: '1', to: '2' }).set(cast.admin.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      rule_set_id: ruleSet.id,
      from: { number: 1, draft: false },
      to: { number: 2, draft: false },
      has_changes: true,
      unchanged: 0,
    });
    expect(res.body.added.map((r: { id: string }) => r.id)).toEqual([smokerRule.id]);
    expect(res.body.removed.map((r: { id: string }) => r.id)).toEqual([pre.id]);
    expect(res.body.changed).toEqual([expect.objectContaining({ id: d.id, name: 'Diabetes range', fields: ['priority', 'actions'] })]);
    expect(res.body.changed[0].before.priority).toBe(20);
    expect(res.body.changed[0].after.priority).toBe(90);
    expect(res.body.parameters.added.map((p: { id: string }) => p.id)).toEqual([smoker.id]);
    expect(res.body.parameters.removed).toEqual([]);
  });

  it('without from/to compares the latest version with the unpublished draft (what publishing would change)', async () => {
    const never = await createRuleSet(t, cast.admin);
    const r = await createRule(t, cast.admin, never, diabetes());
    const first = await t.http().get(`/api/rule-sets/${never.id}/diff`).set(cast.admin.auth);
    expect(first.body).toMatchObject({ from: null, to: { number: null, draft: true }, has_changes: true, removed: [], changed: [] });
    expect(first.body.added.map((x: { id: string }) => x.id)).toEqual([r.id]);

    await publish(t, cast.admin, never);
    const same = await t.http().get(`/api/rule-sets/${never.id}/diff`).set(cast.admin.auth);
    expect(same.body).toMatchObject({ from: { number: 1 }, has_changes: false, added: [], removed: [], changed: [], unchanged: 1 });
    expect(same.body.to.content_hash).toBe(same.body.from.content_hash);

    await updateRule(t, cast.admin, r, { name: 'Diabetes (confirmed)' });
    const edited = await t.http().get(`/api/rule-sets/${never.id}/diff`).query({ to: 'draft' }).set(cast.admin.auth);
    expect(edited.body).toMatchObject({ has_changes: true, changed: [expect.objectContaining({ id: r.id, fields: ['name'] })] });
  });

  it.each([
    [{ from: 'abc' }, 400],
    [{ from: '0' }, 400],
    [{ to: 'latest' }, 400],
    [{ from: '9' }, 404],
    [{ from: '1', to: '9' }, 404],
  ])('bad diff query %j is refused', async (query, status) => {
    const { ruleSet } = await createPublishedRuleSet(t, cast.admin, [diabetes()]);
    const res = await t.http().get(`/api/rule-sets/${ruleSet.id}/diff`).query(query).set(cast.admin.auth);
    expect(res.status).toBe(status);
  });
});

describe('static analysis', () => {
  const codes = (findings: Array<{ code: string }>) => findings.map((f) => f.code);
  // Issue 9: analysis runs with every active published set, so these tests use parameters no other set uses.
  let hba1c: ParameterJson;
  let glucose: ParameterJson;
  beforeEach(async () => {
    hba1c = await createParameter(t, cast.admin, { name: uniqueName('a1c'), display_name: 'HbA1c', data_type: 'lab_range', units: '%' });
    glucose = await createParameter(t, cast.admin, { name: uniqueName('fpg'), display_name: 'Fasting Glucose', data_type: 'lab_range' });
  });

  it('finds unsatisfiable, duplicate and shadowed rules, inactive parameters, and gaps at cut-points', async () => {
    const retiring = await createParameter(t, cast.admin, { name: uniqueName('retiring'), display_name: 'C-peptide' });
    const set = await createRuleSet(t, cast.admin);
    const never = await createRule(t, cast.admin, set, {
      name: 'Never',
      conditions: [cond(hba1c, '>', 7), cond(hba1c, '<', 6)],
      actions: [action('x')],
    });
    const low = await createRule(t, cast.admin, set, { name: 'Below', conditions: [cond(hba1c, '<', 6.5)], actions: [action('Normal')] });
    const high = await createRule(t, cast.admin, set, {
      name: 'Above',
      conditions: [cond(hba1c, '>', 6.5)],
      actions: [action('Diabetes')],
    });
    const dupA = await createRule(t, cast.admin, set, {
      name: 'Glucose A',
      conditions: [cond(glucose, '>=', 126)],
      actions: [action('Diabetes')],
    });
    const dupB = await createRule(t, cast.admin, set, {
      name: 'Glucose B',
      conditions: [cond(glucose, '>=', 126)],
      actions: [action('Diabetes')],
    });
    // The engine ranks rules as the clinical assessment does (most conditions, then name): "Any..." is checked first.
    const broad = await createRule(t, cast.admin, set, {
      name: 'Any smoker with raised glucose',
      priority: 90,
      conditions: [cond(smoker, 'equals', true), cond(glucose, '>', 100)],
      actions: [action('Broad')],
    });
    const narrow = await createRule(t, cast.admin, set, {
      name: 'Smoker with very high glucose',
      priority: 10,
      conditions: [cond(smoker, 'equals', true), cond(glucose, '>', 200)],
      actions: [action('Narrow')],
    });
    const stale = await createRule(t, cast.admin, set, {
      name: 'Stale',
      conditions: [cond(retiring, '<', 0.6)],
      actions: [action('Type 1?')],
    });
    expectStatus(
      await t.http().patch(`/api/parameters/${retiring.id}/activation`).set(cast.admin.auth).send({ is_active: false }),
      200,
      'deactivate',
    );

    const res = await t.http().get(`/api/rule-sets/${set.id}/analysis`).set(cast.admin.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rule_set_id: set.id, source: 'saved', rule_count: 8 });
    const byCode = (code: string) => res.body.findings.filter((f: { code: string }) => f.code === code);
    expect(byCode('unsatisfiable_rule')[0]).toMatchObject({ severity: 'error', rule_ids: [never.id], parameter_id: hba1c.id });
    expect(byCode('unsatisfiable_rule')[0].message).toContain('Never');
    expect(byCode('duplicate_rule')[0].rule_ids.sort()).toEqual([dupA.id, dupB.id].sort());
    expect(
      byCode('shadowed_rule').some((f: { rule_ids: string[] }) => f.rule_ids.includes(narrow.id) && f.rule_ids.includes(broad.id)),
    ).toBe(true);
    expect(byCode('inactive_parameter')[0]).toMatchObject({ rule_ids: [stale.id], parameter_id: retiring.id, severity: 'warning' });
    const gap = byCode('cut_point_gap')[0];
    expect(gap).toMatchObject({ severity: 'warning', parameter_id: hba1c.id });
    expect(gap.rule_ids.sort()).toEqual([low.id, high.id].sort());
    expect(gap.message).toContain('6.5');
    for (const f of res.body.findings) {
      expect(['error', 'warning', 'info']).toContain(f.severity);
      expect(typeof f.message).toBe('string');
    }
    const { summary } = res.body;
    expect(summary.error + summary.warning + summary.info).toBe(res.body.findings.length);
  });

  it('analyses unsaved designer content merged over the saved rules, including what saving would refuse', async () => {
    const set = await createRuleSet(t, cast.admin);
    const low = await createRule(t, cast.admin, set, { name: 'Below', conditions: [cond(hba1c, '<', 6.5)], actions: [action('Normal')] });
    const high = await createRule(t, cast.admin, set, {
      name: 'Above',
      conditions: [cond(hba1c, '>', 6.5)],
      actions: [action('Diabetes')],
    });
    const saved = await t.http().get(`/api/rule-sets/${set.id}/analysis`).set(cast.admin.auth);
    expect(codes(saved.body.findings)).toContain('cut_point_gap');

    const fixed = await t
      .http()
      .post(`/api/rule-sets/${set.id}/analysis`)
      .set(cast.admin.auth)
      .send({ rules: [{ id: high.id, name: 'Above', conditions: [cond(hba1c, '>=', 6.5)], actions: [action('Diabetes')] }] });
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({ source: 'draft', rule_count: 2 });
    expect(codes(fixed.body.findings)).not.toContain('cut_point_gap');

    const drafted = await t
      .http()
      .post(`/api/rule-sets/${set.id}/analysis`)
      .set(cast.admin.auth)
      .send({
        rules: [
          { id: low.id, name: 'Below', conditions: [], is_active: false },
          {
            name: 'New',
            conditions: [
              { parameter_id: hba1c.id, operator: 'contains', value: 7 },
              { parameter: '00000000-0000-4000-8000-000000000000', operator: '>', value: 1 },
            ],
          },
        ],
      });
    expect(drafted.status).toBe(200);
    expect(drafted.body.rule_count).toBe(2);
    expect(codes(drafted.body.findings)).toEqual(expect.arrayContaining(['operator_invalid_for_type', 'missing_parameter', 'no_actions']));
    expect(drafted.body.findings.find((f: { code: string }) => f.code === 'missing_parameter').rule_ids).toEqual(['draft-2']);
    expect(codes(drafted.body.findings)).not.toContain('cut_point_gap');
  });

  it.each([
    [{}],
    [{ rules: 'all' }],
    [{ rules: [{ conditions: [] }] }],
    [{ rules: [{ name: ' ', conditions: [] }] }],
    [{ rules: [{ name: 'x' }] }],
    [{ rules: [{ name: 'x', conditions: 'a > 1' }] }],
    [{ rules: [{ name: 'x', conditions: [], priority: 101 }] }],
    [{ rules: [{ name: 'x', conditions: [], colour: 'red' }] }],
    [{ rules: [], extra: true }],
  ])('refuses draft body %j with 400', async (body) => {
    const set = await createRuleSet(t, cast.admin);
    const res = await t.http().post(`/api/rule-sets/${set.id}/analysis`).set(cast.admin.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('an unknown rule set is 404', async () => {
    expect((await t.http().get('/api/rule-sets/00000000-0000-4000-8000-000000000000/analysis').set(cast.admin.auth)).status).toBe(404);
    expect(
      (await t.http().post('/api/rule-sets/00000000-0000-4000-8000-000000000000/analysis').set(cast.admin.auth).send({ rules: [] })).status,
    ).toBe(404);
  });
});
