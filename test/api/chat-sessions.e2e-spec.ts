import { startTestApp, type TestApp } from '../support/app';
import { counts, createCast, createUser, type TestUser } from '../support/factories';
import {
  action,
  cond,
  createParameter,
  createPublishedRuleSet,
  expectStatus,
  type ParameterJson,
  type RuleJson,
} from '../support/clinical-factories';

const MULTIPLE = 'Multiple recommendations are available. Which would you like to follow?';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
});
afterAll(async () => {
  await t?.close();
});

const start = async (as: TestUser) => expectStatus(await t.http().post('/api/chat-sessions').set(as.auth), 201, 'start chat').body;
const answer = (as: TestUser, id: string, parameter_id: string, value: unknown) =>
  t.http().post(`/api/chat-sessions/${id}/answers`).set(as.auth).send({ parameter_id, value });
const answered = async (as: TestUser, id: string, parameter_id: string, value: unknown) =>
  expectStatus(await answer(as, id, parameter_id, value), 200, 'chat answer').body;
const choose = (as: TestUser, id: string, rule_id: string) =>
  t.http().post(`/api/chat-sessions/${id}/choice`).set(as.auth).send({ rule_id });
const band = (min: number | null, max: number | null) => ({
  type: 'range',
  min,
  max,
  min_inclusive: min !== null,
  max_inclusive: false,
});
const row = async (id: string) => (await t.db.query('SELECT * FROM chatbot_sessions WHERE id = $1', [id]))[0];

describe('with no parameters and no published rules', () => {
  it('start writes the row but there is no question: pending null, not completed', async () => {
    const s = await start(cast.none);
    expect(s).toMatchObject({
      user_id: cast.none.id,
      session_data: {},
      answered_parameters: [],
      matched_rules: [],
      conversation_history: [],
      current_step: 1,
      is_completed: false,
      final_recommendations: null,
      pending: null,
      rule_set_versions: [],
    });
    expect(await row(s.id)).toMatchObject({ session_data: {}, current_step: 1, is_completed: false });
  });
});

describe('a conversation', () => {
  let hba1c: ParameterJson;
  let glucose: ParameterJson;
  let rules: { diabetes: RuleJson; prediabetes: RuleJson; normal: RuleJson };

  beforeAll(async () => {
    hba1c = await createParameter(t, cast.admin, {
      name: 'hba1c',
      display_name: 'HbA1c',
      data_type: 'lab_range',
      units: '%',
      question_override: 'What was the latest HbA1c?',
    });
    glucose = await createParameter(t, cast.admin, {
      name: 'glucose',
      display_name: 'Fasting Glucose',
      data_type: 'lab_range',
      units: 'mg/dL',
    });
    await createParameter(t, cast.admin, { name: 'smoker', display_name: 'Smoker', data_type: 'boolean', category: 'history' });
  });

  // Sessions evaluate every active published rule set: each scenario starts from its own.
  beforeEach(async () => {
    await t.db.query('UPDATE rule_sets SET is_active = false');
    const {
      rules: [diabetes, prediabetes, normal],
    } = await createPublishedRuleSet(
      t,
      cast.admin,
      [
        {
          name: 'Diabetes',
          priority: 50,
          conditions: [cond(hba1c, '>=', 6.5), cond(glucose, '>=', 126)],
          actions: [action('Start metformin', { type: 'medication', severity: 'high' })],
        },
        {
          name: 'Prediabetes',
          priority: 10,
          description: 'Your HbA1c is in the prediabetes range.',
          conditions: [cond(hba1c, '>=', 5.7)],
          actions: [action('Lifestyle advice', { type: 'lifestyle', severity: 'low' })],
        },
        {
          name: 'Normal glycaemia',
          priority: 0,
          conditions: [cond(hba1c, '<', 5.7), cond(glucose, '<', 100)],
          actions: [action('Screen again in 3 years')],
        },
      ],
      { name: 'Glycaemia' },
    );
    rules = { diabetes, prediabetes, normal };
  });

  it('start asks the most used parameter first, with the chat options and the stored question', async () => {
    const s = await start(cast.pcp);
    // Issue 9: the options partition the line at every cut-point (no stand-in values), then Not available.
    const hba1cOptions = [
      { label: 'HbA1c < 5.7 %', value: band(null, 5.7) },
      { label: 'HbA1c 5.7 to < 6.5 %', value: band(5.7, 6.5) },
      { label: 'HbA1c ≥ 6.5 %', value: band(6.5, null) },
      { label: 'Not available', value: 'unknown' },
    ];
    expect(s).toMatchObject({
      user_id: cast.pcp.id,
      session_data: {},
      answered_parameters: [],
      current_step: 1,
      is_completed: false,
      final_recommendations: null,
      pending: { kind: 'question', parameter_id: hba1c.id, options: hba1cOptions },
      conversation_history: [{ type: 'question', content: 'What was the latest HbA1c?', parameter_id: hba1c.id, options: hba1cOptions }],
      rule_set_versions: [expect.objectContaining({ name: 'Glycaemia', version: 1 })],
    });
    expect(Date.parse(s.conversation_history[0].timestamp)).not.toBeNaN();
    expect((await t.http().get(`/api/chat-sessions/${s.id}`).set(cast.pcp.auth)).body).toEqual(s);
  });

  it('each answer saves the answers, the answered list, the history and step + 1; one match completes with its actions', async () => {
    const s = await start(cast.pcp);
    const second = await answered(cast.pcp, s.id, hba1c.id, 6.7);
    expect(second).toMatchObject({
      session_data: { [hba1c.id]: 6.7 },
      answered_parameters: [hba1c.id],
      current_step: 2,
      is_completed: false,
      answer_details: [{ parameter_id: hba1c.id, value: 6.7, unit: '%', entered_as: 'typed', label: '6.7 %' }],
      pending: {
        kind: 'question',
        parameter_id: glucose.id,
        options: [
          { label: 'Fasting Glucose < 100 mg/dL', value: band(null, 100) },
          { label: 'Fasting Glucose 100 to < 126 mg/dL', value: band(100, 126) },
          { label: 'Fasting Glucose ≥ 126 mg/dL', value: band(126, null) },
          { label: 'Not available', value: 'unknown' },
        ],
      },
    });
    expect(second.conversation_history.map((m: { type: string }) => m.type)).toEqual(['question', 'answer', 'question']);
    // The transcript shows the answer as entered, with its unit.
    expect(second.conversation_history[1]).toMatchObject({ type: 'answer', content: '6.7 %', parameter_id: hba1c.id, entered_as: 'typed' });
    expect(second.conversation_history[2]).toMatchObject({ parameter_id: glucose.id, content: expect.stringMatching(/\S/) });

    const done = await answered(cast.pcp, s.id, glucose.id, 99);
    expect(done).toMatchObject({
      session_data: { [hba1c.id]: 6.7, [glucose.id]: 99 },
      answered_parameters: [hba1c.id, glucose.id],
      current_step: 3,
      is_completed: true,
      pending: null,
      final_recommendations: [{ type: 'lifestyle', severity: 'low', message: 'Lifestyle advice', value: null }],
      matched_rules: [
        {
          rule_id: rules.prediabetes.id,
          rule_name: 'Prediabetes',
          rule_version: 1,
          selected: true,
          severity: 'low',
          actions: [{ message: 'Lifestyle advice' }],
          basis: [
            {
              parameter_id: hba1c.id,
              display_name: 'HbA1c',
              units: '%',
              operator: 'greater_equal',
              threshold: 5.7,
              value: 6.7,
              label: '6.7 %',
            },
          ],
        },
      ],
    });
    expect(done.conversation_history.at(-1)).toMatchObject({
      type: 'recommendation',
      content: 'Based on your responses: Your HbA1c is in the prediabetes range.',
    });
    const stored = await row(s.id);
    expect(stored).toMatchObject({
      is_completed: true,
      current_step: 3,
      final_recommendations: done.final_recommendations,
      session_data: done.session_data,
    });
    expect(stored.completed_at).not.toBeNull();
  });

  it('several matches offer a choice with the rule names; choosing completes with that rule', async () => {
    const s = await start(cast.pcp);
    await answered(cast.pcp, s.id, hba1c.id, 7.5);
    const choice = await answered(cast.pcp, s.id, glucose.id, 127);
    const options = [
      { label: 'Diabetes', value: rules.diabetes.id },
      { label: 'Prediabetes', value: rules.prediabetes.id },
    ];
    expect(choice).toMatchObject({
      is_completed: false,
      current_step: 3,
      pending: { kind: 'choice', options },
      final_recommendations: null,
    });
    expect(choice.conversation_history.at(-1)).toMatchObject({ type: 'question', content: MULTIPLE, options });

    const res = await choose(cast.pcp, s.id, rules.diabetes.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      is_completed: true,
      pending: null,
      current_step: 4,
      final_recommendations: [{ type: 'medication', severity: 'high', message: 'Start metformin' }],
      matched_rules: [
        { rule_id: rules.diabetes.id, selected: true },
        { rule_id: rules.prediabetes.id, selected: false },
      ],
    });
    expect(res.body.conversation_history.slice(-2)).toMatchObject([
      { type: 'answer', content: 'Diabetes' },
      {
        type: 'recommendation',
        content:
          'Based on your responses, 2 rules fired, most urgent first: "Diabetes" (high, chosen); "Prediabetes" (low). You chose to follow "Diabetes".',
      },
    ]);
  });

  // Issue 20: the spec's text told the physician to "consult with your healthcare provider"; it now says what was ruled out.
  it('no match completes with no recommendations and says what the answers ruled out, never patient advice', async () => {
    const s = await start(cast.pcp);
    await answered(cast.pcp, s.id, hba1c.id, 4.7);
    const done = await answered(cast.pcp, s.id, glucose.id, 127);
    expect(done).toMatchObject({ is_completed: true, final_recommendations: [], matched_rules: [], pending: null });
    const last = done.conversation_history.at(-1);
    expect(last).toMatchObject({
      type: 'recommendation',
      content: 'No rule fired: HbA1c 4.7 % is below 5.7 %; Fasting Glucose 127 mg/dL is not below 100 mg/dL.',
      rules: [],
      ruled_out: [
        {
          display_name: 'HbA1c',
          operator: 'greater_equal',
          threshold: 5.7,
          value: 4.7,
          label: '4.7 %',
          rule_names: ['Diabetes', 'Prediabetes'],
        },
        { display_name: 'Fasting Glucose', operator: 'less_than', threshold: 100, value: 127, rule_names: ['Normal glycaemia'] },
      ],
    });
    expect(JSON.stringify(done)).not.toMatch(/consult|healthcare provider/i);
  });

  it('when no rule uses any parameter nothing is asked: no question could change an outcome (issue 9)', async () => {
    await t.db.query('UPDATE rule_sets SET is_active = false');
    const s = await start(cast.pcp);
    expect(s).toMatchObject({ pending: null, is_completed: false, conversation_history: [] });
  });

  it('restart creates a fresh session and leaves the old one as it was', async () => {
    const first = await start(cast.pcp);
    await answered(cast.pcp, first.id, hba1c.id, 7.5);
    const before = await row(first.id);
    const again = await start(cast.pcp);
    expect(again.id).not.toBe(first.id);
    expect(again).toMatchObject({ session_data: {}, current_step: 1, is_completed: false, pending: { parameter_id: hba1c.id } });
    expect(await row(first.id)).toEqual(before);
  });

  // Issue 10 item 17: administrators review case history, chat sessions included, as they do assessments.
  it('any signed-in user may chat; only the owner can answer (404 otherwise); an administrator may read, another PCP may not', async () => {
    const s = await start(cast.none);
    await answered(cast.none, s.id, hba1c.id, 7.5);
    const before = await row(s.id);
    const read = await t.http().get(`/api/chat-sessions/${s.id}`).set(cast.pcp.auth);
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ statusCode: 404, code: 'not_found', message: 'Chat session not found' });
    for (const admin of [cast.admin, cast.super_admin]) {
      const seen = expectStatus(await t.http().get(`/api/chat-sessions/${s.id}`).set(admin.auth), 200, 'admin reads').body;
      expect(seen).toMatchObject({ id: s.id, user_id: cast.none.id, answered_parameters: [hba1c.id] });
    }
    for (const other of [cast.pcp, cast.admin, cast.super_admin]) {
      expect((await answer(other, s.id, glucose.id, 127)).status).toBe(404);
      expect((await choose(other, s.id, rules.diabetes.id)).status).toBe(404);
    }
    expect(await row(s.id)).toEqual(before);
  });
});

describe('case history lists chat sessions (issue 10 item 17)', () => {
  const list = (as: TestUser, query: Record<string, string> = {}) => t.http().get('/api/chat-sessions').query(query).set(as.auth);
  let pcp: TestUser;
  let other: TestUser;
  let ids: string[];

  beforeAll(async () => {
    pcp = await createUser(t, 'pcp');
    other = await createUser(t, 'pcp');
    ids = [];
    for (let i = 0; i < 3; i++) ids.push((await start(pcp)).id);
    await start(other);
    // Distinct start times, so newest-first is decided by the data and not by insertion order.
    for (const [i, id] of ids.entries()) {
      await t.db.query(`UPDATE chatbot_sessions SET created_at = now() - make_interval(mins => $2) WHERE id = $1`, [id, 10 - i]);
    }
  });

  it('a PCP gets only their own sessions, newest first, with Content-Range', async () => {
    const res = expectStatus(await list(pcp), 200, 'list');
    expect(res.body.map((s: { id: string }) => s.id)).toEqual([...ids].reverse());
    expect(res.body.every((s: { user_id: string }) => s.user_id === pcp.id)).toBe(true);
    expect(res.headers['content-range']).toBe('chat-sessions 0-2/3');
    expect(res.body[0]).toMatchObject({ answer_details: [], matched_rules: [], conversation_history: expect.any(Array) });
  });

  it('pages with range and keeps the total', async () => {
    const res = expectStatus(await list(pcp, { range: '[1,1]' }), 200, 'page');
    expect(res.body.map((s: { id: string }) => s.id)).toEqual([ids[1]]);
    expect(res.headers['content-range']).toBe('chat-sessions 1-1/3');
  });

  it("a PCP asking for another user's sessions gets none", async () => {
    const res = expectStatus(await list(pcp, { filter: JSON.stringify({ user_id: other.id }) }), 200, 'other');
    expect(res.body).toEqual([]);
    expect(res.headers['content-range']).toBe('chat-sessions 0-0/0');
  });

  it('an administrator sees everyone and may narrow to one user or to their own', async () => {
    const all = expectStatus(await list(cast.admin, { range: '[0,99]' }), 200, 'all');
    const owners = new Set(all.body.map((s: { user_id: string }) => s.user_id));
    expect(owners.has(pcp.id) && owners.has(other.id)).toBe(true);
    const one = expectStatus(await list(cast.admin, { filter: JSON.stringify({ user_id: pcp.id }) }), 200, 'one');
    expect(one.body.map((s: { id: string }) => s.id)).toEqual([...ids].reverse());
    const mine = expectStatus(await list(cast.admin, { filter: JSON.stringify({ mine: true }) }), 200, 'mine');
    expect(mine.body.every((s: { user_id: string }) => s.user_id === cast.admin.id)).toBe(true);
  });

  it('filters by completion and id', async () => {
    await t.db.query(`UPDATE chatbot_sessions SET is_completed = true, completed_at = now(), pending = NULL WHERE id = $1`, [ids[0]]);
    const done = expectStatus(await list(pcp, { filter: JSON.stringify({ is_completed: true }) }), 200, 'done');
    expect(done.body.map((s: { id: string }) => s.id)).toEqual([ids[0]]);
    const byId = expectStatus(await list(pcp, { filter: JSON.stringify({ id: [ids[2]] }) }), 200, 'by id');
    expect(byId.body.map((s: { id: string }) => s.id)).toEqual([ids[2]]);
  });

  it.each([
    ['an unknown filter', { filter: '{"status":"x"}' }, 'filter.status'],
    ['a malformed user id', { filter: '{"user_id":"nope"}' }, 'filter.user_id'],
    ['an unsortable field', { sort: '["session_data","ASC"]' }, 'sort'],
    ['a bad range', { range: '[5,1]' }, 'range'],
  ])('%s is 400 validation_failed', async (_name, query, field) => {
    const res = await list(pcp, query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'validation_failed', details: [expect.objectContaining({ field })] });
  });

  it('needs a signed-in user', async () => {
    expect((await t.http().get('/api/chat-sessions')).status).toBe(401);
  });
});

describe('bad input gets a 4xx with the error body, and nothing changes', () => {
  let hba1c: ParameterJson;
  let glucose: ParameterJson;
  let diabetes: RuleJson;
  let other: TestUser;

  beforeAll(async () => {
    other = await createUser(t, 'pcp');
    await t.db.query('UPDATE rule_sets SET is_active = false');
    hba1c = await createParameter(t, cast.admin, { name: 'a1c_bad', display_name: 'A1c', data_type: 'lab_range' });
    glucose = await createParameter(t, cast.admin, { name: 'glu_bad', display_name: 'Glucose', data_type: 'lab_range' });
    ({
      rules: [diabetes],
    } = await createPublishedRuleSet(t, cast.admin, [
      {
        name: 'Diabetes',
        priority: 50,
        conditions: [cond(hba1c, '>=', 6.5), cond(glucose, '>=', 126)],
        actions: [action('Start metformin')],
      },
      { name: 'Prediabetes', priority: 10, conditions: [cond(hba1c, '>=', 5.7)], actions: [action('Lifestyle advice')] },
    ]));
  });

  /** Sessions at each state: a question pending, a choice pending, completed. */
  async function sessions() {
    const asking = await start(cast.pcp);
    const choosing = await start(cast.pcp);
    await answered(cast.pcp, choosing.id, hba1c.id, 7.5);
    await answered(cast.pcp, choosing.id, glucose.id, 127);
    const done = await start(cast.pcp);
    // HbA1c 5 rules out every rule: the chat completes without asking glucose (issue 9).
    expect(await answered(cast.pcp, done.id, hba1c.id, 5)).toMatchObject({ is_completed: true });
    return { asking: asking.id, choosing: choosing.id, done: done.id };
  }

  type Ids = Awaited<ReturnType<typeof sessions>>;
  const post = (as: () => TestUser, id: (s: Ids) => string, path: string, body: () => Record<string, unknown>) => ({ as, id, path, body });
  const pcp = () => cast.pcp;

  it.each([
    [
      'a value of the wrong type',
      post(
        pcp,
        (s) => s.asking,
        'answers',
        () => ({ parameter_id: hba1c.id, value: 'high' }),
      ),
      400,
      'validation_failed',
    ],
    [
      'a value that is not a value',
      post(
        pcp,
        (s) => s.asking,
        'answers',
        () => ({ parameter_id: hba1c.id, value: { amount: 7 } }),
      ),
      400,
      'validation_failed',
    ],
    [
      'a parameter that was not asked',
      post(
        pcp,
        (s) => s.asking,
        'answers',
        () => ({ parameter_id: glucose.id, value: 127 }),
      ),
      400,
      'validation_failed',
    ],
    [
      'an unknown parameter',
      post(
        pcp,
        (s) => s.asking,
        'answers',
        () => ({ parameter_id: '00000000-0000-4000-8000-000000000000', value: 1 }),
      ),
      400,
      'validation_failed',
    ],
    [
      'an unknown field',
      post(
        pcp,
        (s) => s.asking,
        'answers',
        () => ({ parameter_id: hba1c.id, value: 7.5, extra: true }),
      ),
      400,
      'validation_failed',
    ],
    [
      'an answer while a choice is pending',
      post(
        pcp,
        (s) => s.choosing,
        'answers',
        () => ({ parameter_id: hba1c.id, value: 5 }),
      ),
      409,
      'stale_step',
    ],
    [
      'an answer to a completed session',
      post(
        pcp,
        (s) => s.done,
        'answers',
        () => ({ parameter_id: '00000000-0000-4000-8000-000000000001', value: 1 }),
      ),
      409,
      'conflict',
    ],
    [
      'a different answer to a question already answered',
      post(
        pcp,
        (s) => s.done,
        'answers',
        () => ({ parameter_id: hba1c.id, value: 8 }),
      ),
      409,
      'stale_step',
    ],
    [
      "another user's session",
      post(
        () => other,
        (s) => s.asking,
        'answers',
        () => ({ parameter_id: hba1c.id, value: 7.5 }),
      ),
      404,
      'not_found',
    ],
    [
      'an unknown rule in a choice',
      post(
        pcp,
        (s) => s.choosing,
        'choice',
        () => ({ rule_id: '00000000-0000-4000-8000-000000000000' }),
      ),
      400,
      'validation_failed',
    ],
    [
      'a rule id that is not an id',
      post(
        pcp,
        (s) => s.choosing,
        'choice',
        () => ({ rule_id: 'Diabetes' }),
      ),
      400,
      'validation_failed',
    ],
    [
      'a choice when no choice is offered',
      post(
        pcp,
        (s) => s.asking,
        'choice',
        () => ({ rule_id: diabetes.id }),
      ),
      409,
      'conflict',
    ],
    [
      'a choice in a completed session',
      post(
        pcp,
        (s) => s.done,
        'choice',
        () => ({ rule_id: diabetes.id }),
      ),
      409,
      'conflict',
    ],
    [
      "a choice in another user's session",
      post(
        () => other,
        (s) => s.choosing,
        'choice',
        () => ({ rule_id: diabetes.id }),
      ),
      404,
      'not_found',
    ],
  ])('%s', async (_name, req, status, code) => {
    const ids = await sessions();
    const before = await t.db.query('SELECT * FROM chatbot_sessions ORDER BY id');
    const res = await t
      .http()
      .post(`/api/chat-sessions/${req.id(ids)}/${req.path}`)
      .set(req.as().auth)
      .send(req.body());
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ statusCode: status, code, message: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/QueryFailedError|SELECT |UPDATE |\.ts:\d+/);
    expect(await t.db.query('SELECT * FROM chatbot_sessions ORDER BY id')).toEqual(before);
  });

  it('an unknown or malformed session id is 404 and writes nothing', async () => {
    const before = await counts(t, ['chatbot_sessions']);
    expect((await t.http().get('/api/chat-sessions/00000000-0000-4000-8000-000000000000').set(cast.pcp.auth)).status).toBe(404);
    expect((await answer(cast.pcp, 'nope', hba1c.id, 7.5)).status).toBe(404);
    expect(await counts(t, ['chatbot_sessions'])).toEqual(before);
  });

  it('answers posted at once: one is stored, the others get 409 stale_step; a repeated answer is stored once', async () => {
    const s = await start(cast.pcp);
    const results = await Promise.all([6.5, 6.7, 7, 7.5, 8, 9].map((v) => answer(cast.pcp, s.id, hba1c.id, v)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body.code).toBe('stale_step');
    const stored = await row(s.id);
    expect(stored).toMatchObject({ current_step: 2, answered_parameters: [hba1c.id] });
    expect(stored.conversation_history.map((m: { type: string }) => m.type)).toEqual(['question', 'answer', 'question']);

    const repeated = await Promise.all([1, 2, 3].map(() => answer(cast.pcp, s.id, glucose.id, 127)));
    expect(repeated.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await row(s.id)).answered_parameters).toEqual([hba1c.id, glucose.id]);
  });
});

describe('the chat with bands, Not available and findings (issue 9)', () => {
  let a1c: ParameterJson;
  let fpg: ParameterJson;
  let sbp: ParameterJson;

  beforeAll(async () => {
    a1c = await createParameter(t, cast.admin, { name: 'a1c_chat', display_name: 'HbA1c', data_type: 'lab_range', units: '%' });
    fpg = await createParameter(t, cast.admin, {
      name: 'fpg_chat',
      display_name: 'Fasting Glucose',
      data_type: 'lab_range',
      units: 'mg/dL',
    });
    sbp = await createParameter(t, cast.admin, { name: 'sbp_chat', display_name: 'Systolic BP', data_type: 'vitals', units: 'mm[Hg]' });
  });
  beforeEach(async () => {
    await t.db.query('UPDATE rule_sets SET is_active = false');
    await createPublishedRuleSet(
      t,
      cast.admin,
      [
        {
          name: 'Diabetes by A1C',
          priority: 80,
          conditions: [cond(a1c, '>=', 6.5)],
          actions: [action('Diagnose diabetes', { severity: 'high' })],
        },
        {
          name: 'Diabetes by FPG',
          priority: 80,
          conditions: [cond(fpg, '>=', 126)],
          actions: [action('Diagnose diabetes', { severity: 'high' })],
        },
        {
          name: 'Hypertensive crisis',
          priority: 100,
          conditions: [cond(sbp, '>=', 180)],
          actions: [action('Same-day evaluation', { severity: 'critical' })],
        },
      ],
      { name: 'ADA chat' },
    );
  });

  const run = async (values: Record<string, unknown>) => {
    let s = await start(cast.pcp);
    while (s.pending?.kind === 'question') s = await answered(cast.pcp, s.id, s.pending.parameter_id, values[s.pending.parameter_id]);
    return s;
  };

  it('a healthy patient answered with the lowest bands ends with no diagnosis', async () => {
    const s = await start(cast.pcp);
    let cur = s;
    while (cur.pending?.kind === 'question') {
      const lowest = cur.pending.options[0];
      expect(lowest.value).toMatchObject({ type: 'range', min: null });
      cur = await answered(cast.pcp, cur.id, cur.pending.parameter_id, lowest.value);
    }
    expect(cur).toMatchObject({ is_completed: true, final_recommendations: [], matched_rules: [] });
    expect(
      cur.conversation_history.filter((m: { type: string }) => m.type === 'answer').map((m: { content: string }) => m.content),
    ).toEqual(expect.arrayContaining(['HbA1c < 6.5 %', 'Fasting Glucose < 126 mg/dL', 'Systolic BP < 180 mmHg']));
  });

  it('a question answered Not available counts as unknown, never as satisfied', async () => {
    const s = await run({ [a1c.id]: 'unknown', [fpg.id]: 'unknown', [sbp.id]: 'unknown' });
    expect(s).toMatchObject({ is_completed: true, final_recommendations: [], matched_rules: [] });
    expect(
      s.answer_details.every((d: { entered_as: string; label: string }) => d.entered_as === 'not_available' && d.label === 'Not available'),
    ).toBe(true);
    expect(
      s.conversation_history
        .at(-1)
        .undetermined_rules.map((u: { rule_name: string }) => u.rule_name)
        .sort(),
    ).toEqual(['Diabetes by A1C', 'Diabetes by FPG', 'Hypertensive crisis'].sort());
  });

  it('several findings: the choice shows severity, actions and basis; the critical one is never hidden by the choice', async () => {
    const s = await run({ [a1c.id]: 7.1, [fpg.id]: 130, [sbp.id]: 185 });
    expect(s.pending.kind).toBe('choice');
    for (const o of s.pending.options) {
      expect(o).toEqual({
        label: expect.any(String),
        value: expect.any(String),
        severity: expect.any(String),
        actions: expect.any(Array),
        basis: expect.any(Array),
      });
    }
    const crisis = s.pending.options.find((o: { label: string }) => o.label === 'Hypertensive crisis');
    expect(crisis).toMatchObject({ severity: 'critical', basis: [{ display_name: 'Systolic BP', value: 185, label: '185 mmHg' }] });
    const a1cRule = s.pending.options.find((o: { label: string }) => o.label === 'Diabetes by A1C');
    const done = expectStatus(await choose(cast.pcp, s.id, a1cRule.value), 200, 'choose').body;
    const final = done.conversation_history.at(-1);
    expect(final.type).toBe('recommendation');
    // Issue 20: every finding, most urgent first, the chosen one marked; no finding dropped.
    expect(
      final.rules.map((r: { rule_name: string; severity: string; selected: boolean }) => [r.rule_name, r.severity, r.selected]),
    ).toEqual([
      ['Hypertensive crisis', 'critical', false],
      ['Diabetes by A1C', 'high', true],
      ['Diabetes by FPG', 'high', false],
    ]);
    expect(final.content).toBe(
      'Based on your responses, 3 rules fired, most urgent first: "Hypertensive crisis" (critical); "Diabetes by A1C" (high, chosen); "Diabetes by FPG" (high). You chose to follow "Diabetes by A1C".',
    );
  });

  it('a healthy patient: the final message says what was checked and ruled out, in display units (issue 20)', async () => {
    const s = await run({ [a1c.id]: 5.2, [fpg.id]: 92, [sbp.id]: 118 });
    expect(s).toMatchObject({ is_completed: true, final_recommendations: [], matched_rules: [] });
    expect(s.conversation_history.at(-1)).toMatchObject({
      type: 'recommendation',
      content:
        'No rule fired: Systolic BP 118 mmHg is below 180 mmHg; HbA1c 5.2 % is below 6.5 %; Fasting Glucose 92 mg/dL is below 126 mg/dL.',
    });
  });
});
