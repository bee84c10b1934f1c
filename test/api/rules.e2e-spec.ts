import { startTestApp, type TestApp } from '../support/app';
import { counts, createCast } from '../support/factories';
import {
  action,
  cond,
  createParameter,
  createRule,
  createRuleSet,
  createTestCase,
  expectStatus,
  seedTemplates,
  uniqueName,
  type ParameterJson,
  type RuleJson,
  type RuleSetJson,
} from '../support/clinical-factories';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let set: RuleSetJson;
let p: Record<'hba1c' | 'smoker' | 'notes' | 'eyeExam' | 'diabetesType' | 'retired', ParameterJson>;
const UUID = /^[0-9a-f-]{36}$/;

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  set = await createRuleSet(t, cast.admin, { name: 'Glycaemic control' });
  p = {
    hba1c: await createParameter(t, cast.admin, { name: uniqueName('hba1c'), display_name: 'HbA1c', data_type: 'lab_range', units: '%' }),
    smoker: await createParameter(t, cast.admin, {
      name: uniqueName('smoker'),
      display_name: 'Smoker',
      data_type: 'boolean',
      category: 'history',
    }),
    notes: await createParameter(t, cast.admin, {
      name: uniqueName('notes'),
      display_name: 'Clinical notes',
      data_type: 'text',
      category: 'other',
    }),
    eyeExam: await createParameter(t, cast.admin, {
      name: uniqueName('eye'),
      display_name: 'Last eye exam',
      data_type: 'date',
      category: 'history',
    }),
    diabetesType: await createParameter(t, cast.admin, {
      name: uniqueName('dtype'),
      display_name: 'Diabetes type',
      data_type: 'select',
      category: 'history',
      validation_rules: {
        options: [
          { label: 'Type 1', value: 'type1' },
          { label: 'Type 2', value: 'type2' },
        ],
      },
    }),
    retired: await createParameter(t, cast.admin, { name: uniqueName('retired'), display_name: 'Retired test', data_type: 'number' }),
  };
  expectStatus(
    await t.http().patch(`/api/parameters/${p.retired.id}/activation`).set(cast.admin.auth).send({ is_active: false }),
    200,
    'deactivate',
  );
});
afterAll(async () => {
  await t?.close();
});

const TABLES = ['rules', 'rule_sets', 'rule_test_cases'];
const good = () => ({
  rule_set_id: set.id,
  name: 'Diabetes range',
  conditions: [cond(p.hba1c, '>=', 6.5)],
  actions: [action('Start metformin')],
});

describe('creating rules', () => {
  it('stores the spec fields with defaults, conditions and actions normalised, each with an id', async () => {
    const res = await t
      .http()
      .post('/api/rules')
      .set(cast.admin.auth)
      .send({
        rule_set_id: set.id,
        name: '  Uncontrolled smoker ',
        conditions: [
          { parameter_id: p.hba1c.id, operator: '>=', value: 8, logicOperator: 'and' },
          { parameterId: p.smoker.id, operator: 'Is', value: true },
        ],
        actions: [
          { type: 'referral', message: 'Refer to the diabetes clinic' },
          { type: 'alert', severity: 'HIGH', message: ' Smoking doubles the risk ' },
        ],
      });
    expect(res.status).toBe(201);
    const rule: RuleJson = res.body;
    expect(rule).toMatchObject({
      rule_set_id: set.id,
      name: 'Uncontrolled smoker',
      description: '',
      priority: 0,
      is_active: true,
      created_by: cast.admin.id,
    });
    expect(rule.conditions).toEqual([
      { id: expect.stringMatching(UUID), type: 'parameter', parameter: p.hba1c.id, operator: 'greater_equal', value: 8, logic: 'AND' },
      { id: expect.stringMatching(UUID), type: 'parameter', parameter: p.smoker.id, operator: 'equals', value: true, logic: 'AND' },
    ]);
    expect(rule.actions).toEqual([
      { id: expect.stringMatching(UUID), type: 'referral', severity: 'medium', message: 'Refer to the diabetes clinic' },
      { id: expect.stringMatching(UUID), type: 'alert', severity: 'high', message: 'Smoking doubles the risk' },
    ]);
    expect((await t.http().get(`/api/rules/${rule.id}`).set(cast.admin.auth)).body).toEqual(rule);
  });

  it('accepts every legacy parameter key (field and name too), by id or by name, and keeps given ids', async () => {
    const rule = await createRule(t, cast.admin, set, {
      priority: 55,
      conditions: [
        { id: 'c-1', field: p.notes.id, operator: 'contains', value: 'neuropathy', logicOperator: 'OR' },
        { name: p.diabetesType.name.toUpperCase(), operator: 'not_equals', value: 'type1' },
        { parameter: 'Last eye exam', operator: 'within_days', value: 365, logic: 'or' },
        { parameter: p.eyeExam.id, operator: 'before', value: '2024-01-31' },
      ],
      actions: [{ id: 'a-1', type: 'monitoring', severity: 'low', message: 'Repeat in 3 months', value: 'every 3 months' }],
    });
    expect(rule.priority).toBe(55);
    expect(rule.conditions.map((c) => [c.parameter, c.operator, c.logic])).toEqual([
      [p.notes.id, 'contains', 'OR'],
      [p.diabetesType.id, 'not_equals', 'AND'],
      [p.eyeExam.id, 'within_days', 'OR'],
      [p.eyeExam.id, 'before', 'AND'],
    ]);
    expect(rule.conditions[0].id).toBe('c-1');
    expect(rule.actions).toEqual([
      { id: 'a-1', type: 'monitoring', severity: 'low', message: 'Repeat in 3 months', value: 'every 3 months' },
    ]);
  });

  it.each<[string, (b: ReturnType<typeof good>) => unknown, string, string?]>([
    ['no name', ({ name: _n, ...b }) => b, 'Please provide a rule name.', 'name'],
    ['an empty name', (b) => ({ ...b, name: '   ' }), 'Please provide a rule name.', 'name'],
    ['no rule set', ({ rule_set_id: _s, ...b }) => b, 'Rule set ID is required.', 'rule_set_id'],
    ['an empty rule set id', (b) => ({ ...b, rule_set_id: '' }), 'Rule set ID is required.', 'rule_set_id'],
    ['a malformed rule set id', (b) => ({ ...b, rule_set_id: 'glycaemic' }), 'Rule set ID must be a rule set id.', 'rule_set_id'],
    ['an unknown rule set', (b) => ({ ...b, rule_set_id: '00000000-0000-4000-8000-000000000000' }), 'Rule set not found.', 'rule_set_id'],
    ['priority 101', (b) => ({ ...b, priority: 101 }), 'Priority must be a whole number from 0 to 100.', 'priority'],
    ['priority -1', (b) => ({ ...b, priority: -1 }), 'Priority must be a whole number from 0 to 100.', 'priority'],
    ['priority "abc"', (b) => ({ ...b, priority: 'abc' }), 'Priority must be a whole number from 0 to 100.', 'priority'],
    ['priority 2.5', (b) => ({ ...b, priority: 2.5 }), 'Priority must be a whole number from 0 to 100.', 'priority'],
    ['an unknown field', (b) => ({ ...b, is_published: true }), "Unknown field 'is_published'", 'is_published'],
    ['conditions that are not a list', (b) => ({ ...b, conditions: { parameter: 'x' } }), 'conditions must be a list', 'conditions'],
    ['a condition that is not an object', (b) => ({ ...b, conditions: ['hba1c > 7'] }), 'conditions must be a list', 'conditions'],
    [
      'an unknown operator',
      (b) => ({ ...b, conditions: [cond(p.hba1c, 'approximately', 7)] }),
      'Unknown operator "approximately"',
      'conditions[0].operator',
    ],
    [
      'an operator invalid for the type',
      (b) => ({ ...b, conditions: [cond(p.hba1c, 'contains', 7)] }),
      'cannot be used with HbA1c',
      'conditions[0].operator',
    ],
    ['a text value for a number', (b) => ({ ...b, conditions: [cond(p.hba1c, '>=', '6.5')] }), 'is not a number', 'conditions[0].value'],
    [
      'a text value for a boolean',
      (b) => ({ ...b, conditions: [cond(p.smoker, 'equals', 'yes')] }),
      'True or False',
      'conditions[0].value',
    ],
    ['a bad date', (b) => ({ ...b, conditions: [cond(p.eyeExam, 'before', '2024-02-30')] }), 'not a valid date', 'conditions[0].value'],
    ['negative days', (b) => ({ ...b, conditions: [cond(p.eyeExam, 'within_days', -3)] }), 'whole number of days', 'conditions[0].value'],
    ['no value', (b) => ({ ...b, conditions: [{ parameter: p.hba1c.id, operator: '>' }] }), 'is not a number', 'conditions[0].value'],
    [
      'an unknown parameter id',
      (b) => ({ ...b, conditions: [cond('00000000-0000-4000-8000-000000000000', '>', 1)] }),
      'does not exist',
      'conditions[0].parameter',
    ],
    [
      'an unknown parameter name',
      (b) => ({ ...b, conditions: [cond('Wt_kg', '>', 1)] }),
      'Parameter "Wt_kg" does not exist.',
      'conditions[0].parameter',
    ],
    ['no parameter', (b) => ({ ...b, conditions: [{ operator: '>', value: 1 }] }), 'Choose a parameter.', 'conditions[0].parameter'],
    ['an inactive parameter', (b) => ({ ...b, conditions: [cond(p.retired, '>', 1)] }), 'is inactive', 'conditions[0].parameter'],
    [
      'an unknown condition field',
      (b) => ({ ...b, conditions: [{ ...cond(p.hba1c, '>', 1), unit: '%' }] }),
      "Unknown field 'conditions[0].unit'",
      'conditions[0].unit',
    ],
    [
      'logic XOR',
      (b) => ({ ...b, conditions: [cond(p.hba1c, '>', 1, 'XOR' as 'OR'), cond(p.hba1c, '<', 9)] }),
      'Logic must be AND or OR',
      'conditions[0].logic',
    ],
    ['an unknown action type', (b) => ({ ...b, actions: [action('x', { type: 'email' })] }), 'type must be one of', 'actions[0].type'],
    [
      'an unknown severity',
      (b) => ({ ...b, actions: [action('x', { severity: 'urgent' })] }),
      'severity must be one of',
      'actions[0].severity',
    ],
    ['an empty message', (b) => ({ ...b, actions: [action('   ')] }), 'enter the message', 'actions[0].message'],
    ['an action without a message', (b) => ({ ...b, actions: [{ type: 'alert' }] }), 'enter the message', 'actions[0].message'],
    ['a numeric message', (b) => ({ ...b, actions: [{ type: 'alert', message: 5 }] }), 'must be text', 'actions[0].message'],
    [
      'an unknown action field',
      (b) => ({ ...b, actions: [{ ...action('x'), url: 'http://x' }] }),
      "Unknown field 'actions[0].url'",
      'actions[0].url',
    ],
  ])('refuses %s with 400, the docs/api.md body, the field, and writes nothing', async (_what, change, message, field) => {
    const before = await counts(t, TABLES);
    const res = await t
      .http()
      .post('/api/rules')
      .set(cast.admin.auth)
      .send(change(good()) as object);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'validation_failed' });
    expect(res.body.message).toContain(message);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(await counts(t, TABLES)).toEqual(before);
  });

  it('a template parameter cannot be used until a parameter is created from it', async () => {
    const { hba1c } = await seedTemplates(t, cast.admin);
    const res = await t
      .http()
      .post('/api/rules')
      .set(cast.admin.auth)
      .send({ ...good(), conditions: [cond(hba1c, '>', 7)] });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('is a template');
  });

  it('is admin-only', async () => {
    const before = await counts(t, TABLES);
    for (const user of [cast.pcp, cast.none]) expect((await t.http().post('/api/rules').set(user.auth).send(good())).status).toBe(403);
    expect(await counts(t, TABLES)).toEqual(before);
  });
});

describe('reading, updating, deleting and cloning rules', () => {
  it('lists the active rules of a set by priority ascending', async () => {
    const own = await createRuleSet(t, cast.admin);
    const r50 = await createRule(t, cast.admin, own, { name: 'fifty', priority: 50 });
    const r0 = await createRule(t, cast.admin, own, { name: 'zero' });
    const r90 = await createRule(t, cast.admin, own, { name: 'ninety', priority: 90 });
    const gone = await createRule(t, cast.admin, own, { name: 'gone', priority: 10 });
    expectStatus(await t.http().delete(`/api/rules/${gone.id}`).set(cast.admin.auth), 200, 'delete');
    const q = (f: object) =>
      t
        .http()
        .get('/api/rules')
        .query({ filter: JSON.stringify({ rule_set_id: own.id, ...f }) })
        .set(cast.admin.auth);
    const res = await q({});
    expect(res.body.map((r: RuleJson) => r.id)).toEqual([r0.id, r50.id, r90.id]);
    expect(res.headers['content-range']).toBe('rules 0-2/3');
    expect((await q({ is_active: false })).body.map((r: RuleJson) => r.id)).toEqual([gone.id]);
    expect((await q({ is_active: 'all' })).body).toHaveLength(4);
    expect((await q({ q: 'NINE' })).body.map((r: RuleJson) => r.id)).toEqual([r90.id]);
    for (const f of [{ rule_set_id: 'abc' }, { colour: 'red' }, { is_active: 'maybe' }]) {
      const bad = await t
        .http()
        .get('/api/rules')
        .query({ filter: JSON.stringify(f) })
        .set(cast.admin.auth);
      expect(bad.status).toBe(400);
    }
    expect((await t.http().get('/api/rules/00000000-0000-4000-8000-000000000000').set(cast.admin.auth)).status).toBe(404);
  });

  it('PUT changes only the supplied fields and checks new conditions like a create', async () => {
    const rule = await createRule(t, cast.admin, set, { description: 'first', ...good() });
    const renamed = await t.http().put(`/api/rules/${rule.id}`).set(cast.admin.auth).send({ name: 'Renamed', priority: 80 });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'Renamed',
      priority: 80,
      description: 'first',
      conditions: rule.conditions,
      actions: rule.actions,
    });
    const recond = await t
      .http()
      .put(`/api/rules/${rule.id}`)
      .set(cast.admin.auth)
      .send({ conditions: [{ parameter_id: p.hba1c.id, operator: '<', value: 7 }] });
    expect(recond.body.conditions).toEqual([
      { id: expect.stringMatching(UUID), type: 'parameter', parameter: p.hba1c.id, operator: 'less_than', value: 7, logic: 'AND' },
    ]);
    expect(recond.body.actions).toEqual(rule.actions);
    const before = (await t.http().get(`/api/rules/${rule.id}`).set(cast.admin.auth)).body;
    for (const body of [
      { name: '' },
      { priority: 101 },
      { conditions: [cond(p.hba1c, '>', 'high')] },
      { actions: [action('')] },
      { rule_set_id: '00000000-0000-4000-8000-000000000000' },
    ]) {
      const res = await t.http().put(`/api/rules/${rule.id}`).set(cast.admin.auth).send(body);
      expect(res.status).toBe(400);
      expect((await t.http().get(`/api/rules/${rule.id}`).set(cast.admin.auth)).body).toEqual(before);
    }
    // Issue 23: a read-only field echoed back is ignored whatever its value; the audit trail never changes.
    const echoed = await t.http().put(`/api/rules/${rule.id}`).set(cast.admin.auth).send({ created_by: cast.pcp.id });
    expect(echoed.status).toBe(200);
    expect((await t.http().get(`/api/rules/${rule.id}`).set(cast.admin.auth)).body.created_by).toBe(before.created_by);
    const other = await createRuleSet(t, cast.admin);
    const moved = await t.http().put(`/api/rules/${rule.id}`).set(cast.admin.auth).send({ rule_set_id: other.id });
    expect(moved.body.rule_set_id).toBe(other.id);
    expect((await t.http().put('/api/rules/00000000-0000-4000-8000-000000000000').set(cast.admin.auth).send({ name: 'x' })).status).toBe(
      404,
    );
  });

  it('DELETE is the spec soft delete: is_active false, the rule kept', async () => {
    const rule = await createRule(t, cast.admin, set, good());
    const res = await t.http().delete(`/api/rules/${rule.id}`).set(cast.admin.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: rule.id, is_active: false, name: rule.name, conditions: rule.conditions });
    expect((await t.http().get(`/api/rules/${rule.id}`).set(cast.admin.auth)).body.is_active).toBe(false);
    expect((await t.http().delete(`/api/rules/${rule.id}`).set(cast.admin.auth)).status).toBe(200);
    const restored = await t.http().put(`/api/rules/${rule.id}`).set(cast.admin.auth).send({ is_active: true });
    expect(restored.body.is_active).toBe(true);
  });

  it('clone makes a real copy, "{name} (copy)", independent of the source', async () => {
    const rule = await createRule(t, cast.admin, set, { ...good(), name: 'Metformin start', description: 'ADA 2024', priority: 30 });
    const res = await t.http().post(`/api/rules/${rule.id}/clone`).set(cast.admin.auth);
    expect(res.status).toBe(201);
    const copy: RuleJson = res.body;
    expect(copy).toMatchObject({
      rule_set_id: set.id,
      name: 'Metformin start (copy)',
      description: 'ADA 2024',
      priority: 30,
      is_active: true,
    });
    expect(copy.id).not.toBe(rule.id);
    expect(copy.conditions.map(({ id: _id, ...c }) => c)).toEqual(rule.conditions.map(({ id: _id, ...c }) => c));
    expect(copy.conditions[0].id).not.toBe(rule.conditions[0].id);
    await t
      .http()
      .put(`/api/rules/${copy.id}`)
      .set(cast.admin.auth)
      .send({ conditions: [cond(p.hba1c, '>=', 9)] });
    expect((await t.http().get(`/api/rules/${rule.id}`).set(cast.admin.auth)).body.conditions).toEqual(rule.conditions);
    const long = await createRule(t, cast.admin, set, { ...good(), name: 'n'.repeat(200) });
    const longCopy = await t.http().post(`/api/rules/${long.id}/clone`).set(cast.admin.auth);
    expect(longCopy.status).toBe(201);
    expect(longCopy.body.name).toHaveLength(200);
    expect(longCopy.body.name.endsWith(' (copy)')).toBe(true);
    expect((await t.http().post('/api/rules/00000000-0000-4000-8000-000000000000/clone').set(cast.admin.auth)).status).toBe(404);
  });
});

describe('testing a rule', () => {
  let rule: RuleJson;
  beforeAll(async () => {
    rule = await createRule(t, cast.admin, set, {
      name: 'Smoker with high HbA1c',
      conditions: [cond(p.hba1c, '>=', 6.5), cond(p.smoker, 'Is', true)],
      actions: [action('Smoking cessation and metformin', { type: 'referral', severity: 'high' })],
    });
  });
  const test = (answers: unknown, extra: object = {}) =>
    t
      .http()
      .post(`/api/rules/${rule.id}/test`)
      .set(cast.admin.auth)
      .send({ answers, ...extra });

  it('returns the outcome, the trace and the actions', async () => {
    const res = await test({ [p.hba1c.id]: 7.1, [p.smoker.id]: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rule_id: rule.id, outcome: true, matched: true, actions: rule.actions });
    expect(res.body.trace).toEqual([
      expect.objectContaining({
        index: 0,
        parameter_id: p.hba1c.id,
        canonical_operator: 'greater_equal',
        threshold: 6.5,
        value: 7.1,
        result: true,
      }),
      expect.objectContaining({
        index: 1,
        parameter_id: p.smoker.id,
        canonical_operator: 'equals',
        threshold: true,
        value: true,
        result: true,
      }),
    ]);
    const no = await test({ [p.hba1c.id]: 5.2, [p.smoker.id]: true });
    expect(no.body).toMatchObject({ outcome: false, matched: false, actions: [] });
    const partial = await test({ [p.hba1c.id]: 7.1 });
    expect(partial.body.outcome).toBe('unknown');
    expect(partial.body.trace[1]).toMatchObject({ result: 'unknown', reason: 'missing_answer' });
    const range = await test({ [p.hba1c.id]: { type: 'range', min: 6.6, max: 7 }, [p.smoker.id]: 'unknown' });
    expect(range.body.outcome).toBe('unknown');
    expect((await test({ [p.hba1c.id]: null, [p.smoker.id]: false })).body.outcome).toBe(false);
  });

  it('measures "within days" from reference_date', async () => {
    const eye = await createRule(t, cast.admin, set, {
      conditions: [cond(p.eyeExam, 'within_days', 365)],
      actions: [action('Eye exam is current')],
    });
    const at = (reference_date: string) =>
      t
        .http()
        .post(`/api/rules/${eye.id}/test`)
        .set(cast.admin.auth)
        .send({ answers: { [p.eyeExam.id]: '2024-03-01' }, reference_date });
    expect((await at('2024-12-01')).body.outcome).toBe(true);
    expect((await at('2025-06-01')).body.outcome).toBe(false);
  });

  it.each([
    ['a text number', () => ({ [p.hba1c.id]: '7.1' }), 'HbA1c (lab_range) needs a number'],
    ['a yes for a boolean', () => ({ [p.smoker.id]: 'yes' }), 'Smoker (boolean) needs true or false'],
    ['a bad date', () => ({ [p.eyeExam.id]: '01/02/2024' }), 'YYYY-MM-DD'],
    ['a number for text', () => ({ [p.notes.id]: 12 }), 'needs text'],
    ['a list', () => ({ [p.hba1c.id]: [7] }), 'needs a number'],
    ['an inverted range', () => ({ [p.hba1c.id]: { type: 'range', min: 8, max: 7 } }), 'needs a number'],
    ['an unknown parameter', () => ({ '00000000-0000-4000-8000-000000000000': 1 }), 'is not a parameter'],
    ['a parameter name as key', () => ({ hba1c: 7 }), 'is not a parameter'],
  ])('refuses %s in the answers with 400', async (_what, answers, message) => {
    const res = await test(answers());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.message).toContain(message);
  });

  it.each([[{}], [{ answers: [] }], [{ answers: 'x' }], [{ answers: {}, now: '2024-01-01' }], [{ answers: {}, reference_date: 'soon' }]])(
    'refuses body %j with 400',
    async (body) => {
      const res = await t.http().post(`/api/rules/${rule.id}/test`).set(cast.admin.auth).send(body);
      expect(res.status).toBe(400);
    },
  );

  it('an unknown rule is 404', async () => {
    expect(
      (await t.http().post('/api/rules/00000000-0000-4000-8000-000000000000/test').set(cast.admin.auth).send({ answers: {} })).status,
    ).toBe(404);
  });
});

describe('saved test cases', () => {
  it('are created, listed with their result against the rule as it is now, updated and deleted', async () => {
    const rule = await createRule(t, cast.admin, set, { conditions: [cond(p.hba1c, '>=', 6.5)], actions: [action('Diabetes range')] });
    const res = await t
      .http()
      .post(`/api/rules/${rule.id}/test-cases`)
      .set(cast.admin.auth)
      .send({ name: ' At the cut-point ', answers: { [p.hba1c.id]: 6.5 }, expected_outcome: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      rule_id: rule.id,
      name: 'At the cut-point',
      answers: { [p.hba1c.id]: 6.5 },
      expected_outcome: true,
      reference_date: null,
      actual_outcome: true,
      passed: true,
      created_by: cast.admin.id,
    });
    const unknown = await createTestCase(t, cast.admin, rule, { answers: {}, expected_outcome: 'unknown' });
    expect(unknown).toMatchObject({ expected_outcome: 'unknown', actual_outcome: 'unknown', passed: true });

    await t
      .http()
      .put(`/api/rules/${rule.id}`)
      .set(cast.admin.auth)
      .send({ conditions: [cond(p.hba1c, '>', 6.5)] });
    const list = await t.http().get(`/api/rules/${rule.id}/test-cases`).set(cast.admin.auth);
    expect(list.body.map((c: { name: string; passed: boolean; actual_outcome: unknown }) => [c.name, c.actual_outcome, c.passed])).toEqual([
      ['At the cut-point', false, false],
      [unknown.name, 'unknown', true],
    ]);

    const updated = await t
      .http()
      .put(`/api/rules/${rule.id}/test-cases/${res.body.id}`)
      .set(cast.admin.auth)
      .send({ expected_outcome: false, reference_date: '2025-01-01' });
    expect(updated.body).toMatchObject({
      expected_outcome: false,
      passed: true,
      reference_date: '2025-01-01T00:00:00.000Z',
      name: 'At the cut-point',
    });
    const deleted = await t.http().delete(`/api/rules/${rule.id}/test-cases/${unknown.id}`).set(cast.admin.auth);
    expect(deleted.status).toBe(200);
    expect((await t.http().get(`/api/rules/${rule.id}/test-cases`).set(cast.admin.auth)).body).toHaveLength(1);
  });

  it.each([
    ['no name', { answers: {}, expected_outcome: true }, 400],
    ['a blank name', { name: ' ', answers: {}, expected_outcome: true }, 400],
    ['no expected outcome', { name: 'x', answers: {} }, 400],
    ['expected "maybe"', { name: 'x', answers: {}, expected_outcome: 'maybe' }, 400],
    ['expected "true" as text', { name: 'x', answers: {}, expected_outcome: 'true' }, 400],
    ['answers of the wrong type', { name: 'x', answers: { HBA1C: '7' }, expected_outcome: true }, 400],
    ['an unknown parameter', { name: 'x', answers: { '00000000-0000-4000-8000-000000000000': 7 }, expected_outcome: true }, 400],
    ['an unknown field', { name: 'x', answers: {}, expected_outcome: true, passed: true }, 400],
  ])('refuses %s and writes nothing', async (_what, body, status) => {
    const rule = await createRule(t, cast.admin, set, good());
    const raw = JSON.parse(JSON.stringify(body).replace('"HBA1C"', JSON.stringify(p.hba1c.id)));
    const before = await counts(t, TABLES);
    const res = await t.http().post(`/api/rules/${rule.id}/test-cases`).set(cast.admin.auth).send(raw);
    expect(res.status).toBe(status);
    expect(await counts(t, TABLES)).toEqual(before);
  });

  it('a case is reached only through its own rule', async () => {
    const a = await createRule(t, cast.admin, set, good());
    const b = await createRule(t, cast.admin, set, good());
    const c = await createTestCase(t, cast.admin, a, { answers: {}, expected_outcome: 'unknown' });
    expect((await t.http().put(`/api/rules/${b.id}/test-cases/${c.id}`).set(cast.admin.auth).send({ name: 'x' })).status).toBe(404);
    expect((await t.http().delete(`/api/rules/${b.id}/test-cases/${c.id}`).set(cast.admin.auth)).status).toBe(404);
    expect(
      (
        await t
          .http()
          .put(`/api/rules/${a.id}/test-cases/${c.id}`)
          .set(cast.admin.auth)
          .send({ answers: { [p.hba1c.id]: 'high' } })
      ).status,
    ).toBe(400);
    expect((await t.http().get(`/api/rules/00000000-0000-4000-8000-000000000000/test-cases`).set(cast.admin.auth)).status).toBe(404);
  });
});
