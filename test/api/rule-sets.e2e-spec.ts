import { startTestApp, type TestApp } from '../support/app';
import { counts, createCast } from '../support/factories';
import {
  action,
  cond,
  createParameter,
  createRule,
  createRuleSet,
  expectStatus,
  publish,
  uniqueName,
  type ParameterJson,
  type RuleSetJson,
} from '../support/clinical-factories';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let hba1c: ParameterJson;
beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  hba1c = await createParameter(t, cast.admin, { name: uniqueName('hba1c'), display_name: 'HbA1c', data_type: 'lab_range', units: '%' });
});
afterAll(async () => {
  await t?.close();
});

const TABLES = ['rule_sets', 'rules', 'rule_set_versions'];
const ids = (list: { id: string }[]) => list.map((x) => x.id);
const aRule = () => ({ conditions: [cond(hba1c, '>=', 6.5)], actions: [action('Confirm with a second test')] });

describe('creating rule sets', () => {
  it('creates with the spec fields and defaults; the name is trimmed', async () => {
    const res = await t
      .http()
      .post('/api/rule-sets')
      .set(cast.admin.auth)
      .send({ name: '  Type 2 screening  ', description: 'Adults over 35' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Type 2 screening',
      description: 'Adults over 35',
      is_active: true,
      is_published: false,
      is_template: false,
      version: 1,
      latest_version: null,
      published_at: null,
      rule_count: 0,
      created_by: cast.admin.id,
    });
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    const got = await t.http().get(`/api/rule-sets/${res.body.id}`).set(cast.super_admin.auth);
    expect(got.body).toEqual(res.body);
  });

  it.each([
    [{}, 'Please provide a rule set name.'],
    [{ name: '   ' }, 'Please provide a rule set name.'],
    [{ name: 42 }, 'Please provide a rule set name.'],
    [{ name: 'x'.repeat(201) }, 'at most 200'],
    [{ name: 'ok', description: 7 }, 'description'],
    [{ name: 'ok', is_published: true }, "Unknown field 'is_published'"],
    [{ name: 'ok', version: 3 }, "Unknown field 'version'"],
    [{ name: 'ok', is_template: 'yes' }, 'is_template'],
  ])('refuses %j with 400 and writes nothing', async (body, message) => {
    const before = await counts(t, TABLES);
    const res = await t.http().post('/api/rule-sets').set(cast.admin.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'validation_failed' });
    expect(res.body.message).toContain(message);
    expect(await counts(t, TABLES)).toEqual(before);
  });

  it('is admin-only: pcp and role-less users get 403 and nothing is written', async () => {
    const before = await counts(t, TABLES);
    for (const user of [cast.pcp, cast.none]) {
      expect((await t.http().post('/api/rule-sets').set(user.auth).send({ name: 'x' })).status).toBe(403);
      expect((await t.http().get('/api/rule-sets').set(user.auth)).status).toBe(403);
    }
    expect(await counts(t, TABLES)).toEqual(before);
  });
});

describe('listing rule sets', () => {
  let tag: string;
  let sets: RuleSetJson[];
  beforeAll(async () => {
    tag = uniqueName('List');
    sets = [];
    for (let i = 0; i < 12; i++)
      sets.push(await createRuleSet(t, cast.admin, { name: `${tag} ${String(i).padStart(2, '0')}`, is_template: i % 4 === 0 }));
    await createRule(t, cast.admin, sets[11], aRule());
    await createRule(t, cast.admin, sets[11], aRule());
    const gone = await createRule(t, cast.admin, sets[11], aRule());
    expectStatus(await t.http().delete(`/api/rules/${gone.id}`).set(cast.admin.auth), 200, 'delete rule');
    // Issue 9: its two rules are duplicates (a warning), so publishing needs an acknowledgement.
    await publish(t, cast.admin, sets[11]);
  });
  const newestFirst = () => [...sets].reverse().map((s) => s.id);

  it('newest first, 10 per page by default, total in Content-Range, rule_count counts active rules', async () => {
    const res = await t.http().get('/api/rule-sets').query({ search: tag }).set(cast.admin.auth);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(newestFirst().slice(0, 10));
    expect(res.headers['content-range']).toBe('rule-sets 0-9/12');
    expect(res.body[0]).toMatchObject({ id: sets[11].id, rule_count: 2, is_published: true, version: 1, latest_version: 1 });
    expect(res.body[0].published_at).not.toBeNull();
  });

  it('limit/offset (the spec call) and range (simple-rest) page the same list', async () => {
    const byOffset = await t.http().get('/api/rule-sets').query({ search: tag, offset: '10' }).set(cast.admin.auth);
    expect(ids(byOffset.body)).toEqual(newestFirst().slice(10, 12));
    expect(byOffset.headers['content-range']).toBe('rule-sets 10-11/12');
    const small = await t.http().get('/api/rule-sets').query({ search: tag, limit: '3', offset: '3' }).set(cast.admin.auth);
    expect(ids(small.body)).toEqual(newestFirst().slice(3, 6));
    const byRange = await t
      .http()
      .get('/api/rule-sets')
      .query({ filter: JSON.stringify({ search: tag }), range: '[3,5]' })
      .set(cast.admin.auth);
    expect(ids(byRange.body)).toEqual(newestFirst().slice(3, 6));
    const byName = await t
      .http()
      .get('/api/rule-sets')
      .query({ filter: JSON.stringify({ search: tag }), sort: '["name","ASC"]', range: '[0,1]' })
      .set(cast.admin.auth);
    expect(ids(byName.body)).toEqual([sets[0].id, sets[1].id]);
  });

  it('published, template and search filter, as query parameters or filter keys; search ignores case', async () => {
    const published = await t.http().get('/api/rule-sets').query({ search: tag.toUpperCase(), published: 'true' }).set(cast.admin.auth);
    expect(ids(published.body)).toEqual([sets[11].id]);
    const templates = await t
      .http()
      .get('/api/rule-sets')
      .query({ filter: JSON.stringify({ search: tag, template: true }) })
      .set(cast.admin.auth);
    expect(ids(templates.body)).toEqual([sets[8].id, sets[4].id, sets[0].id]);
    const notTemplates = await t.http().get('/api/rule-sets').query({ search: tag, template: 'false', limit: '100' }).set(cast.admin.auth);
    expect(notTemplates.body).toHaveLength(9);
    const many = await t
      .http()
      .get('/api/rule-sets')
      .query({ filter: JSON.stringify({ id: [sets[1].id, sets[2].id] }) })
      .set(cast.admin.auth);
    expect(ids(many.body).sort()).toEqual([sets[1].id, sets[2].id].sort());
  });

  it.each([
    [{ limit: 'abc' }],
    [{ limit: '0' }],
    [{ limit: '101' }],
    [{ offset: '-1' }],
    [{ offset: '1', range: '[0,9]' }],
    [{ published: 'maybe' }],
    [{ filter: '{"colour":"red"}' }],
    [{ sort: '["description","ASC"]' }],
  ])('bad list parameters get 400 (%j)', async (query) => {
    const res = await t.http().get('/api/rule-sets').query(query).set(cast.admin.auth);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });
});

describe('updating, activation and deletion', () => {
  it('PUT updates the given fields; blank names are refused and server-owned fields echoed back are ignored', async () => {
    const set = await createRuleSet(t, cast.admin, { description: 'old' });
    const res = await t
      .http()
      .put(`/api/rule-sets/${set.id}`)
      .set(cast.admin.auth)
      .send({ name: 'Renamed', description: null, is_template: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: set.id, name: 'Renamed', description: null, is_template: true, is_active: true });
    for (const body of [{ name: ' ' }, { is_active: 'no' }]) {
      const bad = await t.http().put(`/api/rule-sets/${set.id}`).set(cast.admin.auth).send(body);
      expect(bad.status).toBe(400);
    }
    // Issue 23: read-only fields in a PUT (react-admin echoes the record it loaded) are ignored whatever their value.
    for (const body of [{ is_published: true }, { version: 2 }]) {
      const echoed = await t.http().put(`/api/rule-sets/${set.id}`).set(cast.admin.auth).send(body);
      expect(echoed.status).toBe(200);
    }
    expect((await t.http().get(`/api/rule-sets/${set.id}`).set(cast.admin.auth)).body).toMatchObject({
      name: 'Renamed',
      is_published: false,
      version: 1,
    });
    expect(
      (await t.http().put('/api/rule-sets/00000000-0000-4000-8000-000000000000').set(cast.admin.auth).send({ name: 'x' })).status,
    ).toBe(404);
  });

  it('the activation toggle returns the row', async () => {
    const set = await createRuleSet(t, cast.admin);
    const off = await t.http().patch(`/api/rule-sets/${set.id}/activation`).set(cast.admin.auth).send({ is_active: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: set.id, name: set.name, is_active: false });
    const on = await t.http().patch(`/api/rule-sets/${set.id}/activation`).set(cast.admin.auth).send({ is_active: true });
    expect(on.body.is_active).toBe(true);
    for (const body of [{}, { is_active: 'false' }, { is_active: true, name: 'x' }]) {
      expect((await t.http().patch(`/api/rule-sets/${set.id}/activation`).set(cast.admin.auth).send(body)).status).toBe(400);
    }
    expect(
      (
        await t
          .http()
          .patch('/api/rule-sets/00000000-0000-4000-8000-000000000000/activation')
          .set(cast.admin.auth)
          .send({ is_active: true })
      ).status,
    ).toBe(404);
  });

  it('DELETE is a soft delete: gone from every list and lookup, its rules and published versions kept in the database', async () => {
    const set = await createRuleSet(t, cast.admin);
    const rule = await createRule(t, cast.admin, set, aRule());
    await publish(t, cast.admin, set);
    const res = await t.http().delete(`/api/rule-sets/${set.id}`).set(cast.admin.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: set.id, is_active: false });
    expect((await t.http().get(`/api/rule-sets/${set.id}`).set(cast.admin.auth)).status).toBe(404);
    expect((await t.http().get(`/api/rule-sets/${set.id}/versions`).set(cast.admin.auth)).status).toBe(404);
    expect((await t.http().get(`/api/rules/${rule.id}`).set(cast.admin.auth)).status).toBe(404);
    const list = await t
      .http()
      .get('/api/rule-sets')
      .query({ filter: JSON.stringify({ id: [set.id] }) })
      .set(cast.admin.auth);
    expect(list.body).toEqual([]);
    const rows = await t.db.query(
      'SELECT deleted_by, (SELECT count(*)::int FROM rule_set_versions v WHERE v.rule_set_id = s.id) AS versions FROM rule_sets s WHERE id = $1',
      [set.id],
    );
    expect(rows[0]).toEqual({ deleted_by: cast.admin.id, versions: 1 });
    // A rule cannot be added to it any more.
    const add = await t
      .http()
      .post('/api/rules')
      .set(cast.admin.auth)
      .send({ rule_set_id: set.id, name: 'late', ...aRule() });
    expect(add.status).toBe(400);
    expect((await t.http().delete(`/api/rule-sets/${set.id}`).set(cast.admin.auth)).status).toBe(404);
  });
});

describe('templates', () => {
  it('lists active template rule sets by name', async () => {
    const tag = uniqueName('Tpl');
    const b = await createRuleSet(t, cast.admin, { name: `${tag} b`, is_template: true });
    const a = await createRuleSet(t, cast.admin, { name: `${tag} A`, is_template: true });
    await createRuleSet(t, cast.admin, { name: `${tag} inactive`, is_template: true, is_active: false });
    await createRuleSet(t, cast.admin, { name: `${tag} plain` });
    const res = await t.http().get('/api/rule-sets/templates').set(cast.admin.auth);
    expect(res.status).toBe(200);
    expect(ids(res.body.filter((s: RuleSetJson) => s.name.startsWith(tag)))).toEqual([a.id, b.id]);
    expect(res.body.every((s: RuleSetJson) => s.is_template && s.is_active)).toBe(true);
  });

  it('creates a rule set from a template with a copy of its active rules', async () => {
    const template = await createRuleSet(t, cast.admin, {
      name: uniqueName('Template'),
      description: 'From the ADA standards',
      is_template: true,
    });
    const first = await createRule(t, cast.admin, template, { name: 'Diabetes range', priority: 20, ...aRule() });
    const second = await createRule(t, cast.admin, template, {
      name: 'Prediabetes',
      priority: 10,
      conditions: [cond(hba1c, '>=', 5.7), cond(hba1c, '<', 6.5)],
      actions: [action('Lifestyle advice', { type: 'lifestyle', severity: 'low' })],
    });
    const dropped = await createRule(t, cast.admin, template, { name: 'Dropped', ...aRule() });
    expectStatus(await t.http().delete(`/api/rules/${dropped.id}`).set(cast.admin.auth), 200, 'delete');

    const res = await t.http().post('/api/rule-sets/from-template').set(cast.admin.auth).send({ template_id: template.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: template.name,
      description: 'From the ADA standards',
      is_template: false,
      is_published: false,
      version: 1,
      rule_count: 2,
      created_by: cast.admin.id,
    });
    const rules = await t
      .http()
      .get('/api/rules')
      .query({ filter: JSON.stringify({ rule_set_id: res.body.id }) })
      .set(cast.admin.auth);
    expect(rules.body.map((r: { name: string }) => r.name)).toEqual(['Prediabetes', 'Diabetes range']);
    expect(rules.body[0]).toMatchObject({
      priority: 10,
      conditions: second.conditions,
      actions: second.actions,
      created_by: cast.admin.id,
    });
    expect(rules.body[1]).toMatchObject({ priority: 20, conditions: first.conditions, actions: first.actions });
    expect(ids(rules.body)).not.toContain(first.id);
    const named = await t
      .http()
      .post('/api/rule-sets/from-template')
      .set(cast.admin.auth)
      .send({ template_id: template.id, name: '  Clinic A  ' });
    expect(named.body.name).toBe('Clinic A');
  });

  it.each([
    ['missing template_id', {}, 400],
    ['a malformed id', { template_id: 'abc' }, 400],
    ['an unknown template', { template_id: '00000000-0000-4000-8000-000000000000' }, 404],
    ['a rule set that is not a template', { template_id: 'PLAIN' }, 404],
    ['an inactive template', { template_id: 'INACTIVE' }, 404],
    ['a blank name', { template_id: 'TEMPLATE', name: ' ' }, 400],
    ['an unknown field', { template_id: 'TEMPLATE', rules: [] }, 400],
  ])('from-template refuses %s and writes nothing', async (_what, body, status) => {
    const template = await createRuleSet(t, cast.admin, { is_template: true });
    await createRule(t, cast.admin, template, aRule());
    const plain = await createRuleSet(t, cast.admin);
    const inactive = await createRuleSet(t, cast.admin, { is_template: true, is_active: false });
    const raw = JSON.parse(
      JSON.stringify(body)
        .replace('"TEMPLATE"', JSON.stringify(template.id))
        .replace('"PLAIN"', JSON.stringify(plain.id))
        .replace('"INACTIVE"', JSON.stringify(inactive.id)),
    );
    const before = await counts(t, TABLES);
    const res = await t.http().post('/api/rule-sets/from-template').set(cast.admin.auth).send(raw);
    expect(res.status).toBe(status);
    expect(await counts(t, TABLES)).toEqual(before);
  });
});
