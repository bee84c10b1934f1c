import { startTestApp, type TestApp } from '../support/app';
import { counts, createCast, createUser, type TestUser } from '../support/factories';
import { action, cond, createParameter, createPublishedRuleSet, expectStatus, type ParameterJson, type RuleJson } from '../support/clinical-factories';

const MULTIPLE = 'Multiple recommendations are available. Which would you like to follow?';
const NO_MATCH = 'Based on your responses, no specific recommendations are available at this time. Please consult with your healthcare provider.';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
});
afterAll(async () => { await t?.close(); });

const start = async (as: TestUser) => expectStatus(await t.http().post('/api/chat-sessions').set(as.auth), 201, 'start chat').body;
const answer = (as: TestUser, id: string, parameter_id: string, value: unknown) =>
  t.http().post(`/api/chat-sessions/${id}/answers`).set(as.auth).send({ parameter_id, value });
const answered = async (as: TestUser, id: string, parameter_id: string, value: unknown) =>
  expectStatus(await answer(as, id, parameter_id, value), 200, 'chat answer').body;
const choose = (as: TestUser, id: string, rule_id: string) => t.http().post(`/api/chat-sessions/${id}/choice`).set(as.auth).send({ rule_id });
const row = async (id: string) => (await t.db.query('SELECT * FROM chatbot_sessions WHERE id = $1', [id]))[0];

describe('with no parameters and no published rules', () => {
  it('start writes the row but there is no question: pending null, not completed', async () => {
    const s = await start(cast.none);
    expect(s).toMatchObject({
      user_id: cast.none.id, session_data: {}, answered_parameters: [], matched_rules: [], conversation_history: [],
      current_step: 1, is_completed: false, final_recommendations: null, pending: null, rule_set_versions: [],
    });
    expect(await row(s.id)).toMatchObject({ session_data: {}, current_step: 1, is_completed: false });
  });
});

describe('a conversation', () => {
  let hba1c: ParameterJson;
  let glucose: ParameterJson;
  let rules: { diabetes: RuleJson; prediabetes: RuleJson; normal: RuleJson };

  beforeAll(async () => {
    hba1c = await createParameter(t, cast.admin, { name: 'hba1c', display_name: 'HbA1c', data_type: 'lab_range', units: '%', question_override: 'What was the latest HbA1c?' });
    glucose = await createParameter(t, cast.admin, { name: 'glucose', display_name: 'Fasting Glucose', data_type: 'lab_range', units: 'mg/dL' });
    await createParameter(t, cast.admin, { name: 'smoker', display_name: 'Smoker', data_type: 'boolean', category: 'history' });
  });

  // Sessions evaluate every active published rule set: each scenario starts from its own.
  beforeEach(async () => {
    await t.db.query('UPDATE rule_sets SET is_active = false');
    const { rules: [diabetes, prediabetes, normal] } = await createPublishedRuleSet(t, cast.admin, [
      { name: 'Diabetes', priority: 50, conditions: [cond(hba1c, '>=', 6.5), cond(glucose, '>=', 126)], actions: [action('Start metformin', { type: 'medication', severity: 'high' })] },
      { name: 'Prediabetes', priority: 10, description: 'Your HbA1c is in the prediabetes range.', conditions: [cond(hba1c, '>=', 5.7)], actions: [action('Lifestyle advice', { type: 'lifestyle', severity: 'low' })] },
      { name: 'Normal glycaemia', priority: 0, conditions: [cond(hba1c, '<', 5.7), cond(glucose, '<', 100)], actions: [action('Screen again in 3 years')] },
    ], { name: 'Glycaemia' });
    rules = { diabetes, prediabetes, normal };
  });

  it('start asks the most used parameter first, with the chat options and the stored question', async () => {
    const s = await start(cast.pcp);
    const hba1cOptions = [{ label: 'hba1c < 5.7', value: 4.7 }, { label: 'hba1c ≥ 5.7', value: 6.7 }, { label: 'hba1c ≥ 6.5', value: 7.5 }];
    expect(s).toMatchObject({
      user_id: cast.pcp.id, session_data: {}, answered_parameters: [], current_step: 1, is_completed: false, final_recommendations: null,
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
      session_data: { [hba1c.id]: 6.7 }, answered_parameters: [hba1c.id], current_step: 2, is_completed: false,
      pending: { kind: 'question', parameter_id: glucose.id, options: [{ label: 'glucose < 100', value: 99 }, { label: 'glucose ≥ 126', value: 127 }] },
    });
    expect(second.conversation_history.map((m: { type: string }) => m.type)).toEqual(['question', 'answer', 'question']);
    expect(second.conversation_history[1]).toMatchObject({ type: 'answer', content: 'hba1c ≥ 5.7', parameter_id: hba1c.id });
    expect(second.conversation_history[2]).toMatchObject({ parameter_id: glucose.id, content: expect.stringMatching(/\S/) });

    const done = await answered(cast.pcp, s.id, glucose.id, 99);
    expect(done).toMatchObject({
      session_data: { [hba1c.id]: 6.7, [glucose.id]: 99 }, answered_parameters: [hba1c.id, glucose.id], current_step: 3,
      is_completed: true, pending: null,
      final_recommendations: [{ type: 'lifestyle', severity: 'low', message: 'Lifestyle advice', value: null }],
      matched_rules: [{ rule_id: rules.prediabetes.id, rule_name: 'Prediabetes', rule_version: 1, selected: true,
        basis: [{ parameter_id: hba1c.id, operator: 'greater_equal', threshold: 5.7, value: 6.7 }] }],
    });
    expect(done.conversation_history.at(-1)).toMatchObject({ type: 'recommendation', content: 'Based on your responses: Your HbA1c is in the prediabetes range.' });
    const stored = await row(s.id);
    expect(stored).toMatchObject({ is_completed: true, current_step: 3, final_recommendations: done.final_recommendations, session_data: done.session_data });
    expect(stored.completed_at).not.toBeNull();
  });

  it('several matches offer a choice with the rule names; choosing completes with that rule', async () => {
    const s = await start(cast.pcp);
    await answered(cast.pcp, s.id, hba1c.id, 7.5);
    const choice = await answered(cast.pcp, s.id, glucose.id, 127);
    const options = [{ label: 'Diabetes', value: rules.diabetes.id }, { label: 'Prediabetes', value: rules.prediabetes.id }];
    expect(choice).toMatchObject({ is_completed: false, current_step: 3, pending: { kind: 'choice', options }, final_recommendations: null });
    expect(choice.conversation_history.at(-1)).toMatchObject({ type: 'question', content: MULTIPLE, options });

    const res = await choose(cast.pcp, s.id, rules.diabetes.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      is_completed: true, pending: null, current_step: 4,
      final_recommendations: [{ type: 'medication', severity: 'high', message: 'Start metformin' }],
      matched_rules: [{ rule_id: rules.diabetes.id, selected: true }, { rule_id: rules.prediabetes.id, selected: false }],
    });
    expect(res.body.conversation_history.slice(-2)).toMatchObject([
      { type: 'answer', content: 'Diabetes' },
      { type: 'recommendation', content: 'Based on your responses: Diabetes' },
    ]);
  });

  it("no match completes with the spec's text and no recommendations", async () => {
    const s = await start(cast.pcp);
    await answered(cast.pcp, s.id, hba1c.id, 4.7);
    const done = await answered(cast.pcp, s.id, glucose.id, 127);
    expect(done).toMatchObject({ is_completed: true, final_recommendations: [], matched_rules: [], pending: null });
    expect(done.conversation_history.at(-1)).toMatchObject({ type: 'recommendation', content: NO_MATCH });
  });

  it('when no rule uses any parameter, every active parameter is asked, by display name, with Normal / Abnormal / Not Sure', async () => {
    await t.db.query('UPDATE rule_sets SET is_active = false');
    const s = await start(cast.pcp);
    expect(s.pending).toEqual({
      kind: 'question', parameter_id: glucose.id,
      options: [{ label: 'Normal', value: 'normal' }, { label: 'Abnormal', value: 'abnormal' }, { label: 'Not Sure', value: 'unknown' }],
    });
    const next = await answered(cast.pcp, s.id, glucose.id, 'unknown');
    expect(next.pending.parameter_id).toBe(hba1c.id);
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

  it('any signed-in user may chat; only the owner can reach a session (404 otherwise, administrators included)', async () => {
    const s = await start(cast.none);
    await answered(cast.none, s.id, hba1c.id, 7.5);
    const before = await row(s.id);
    for (const other of [cast.pcp, cast.admin, cast.super_admin]) {
      const read = await t.http().get(`/api/chat-sessions/${s.id}`).set(other.auth);
      expect(read.status).toBe(404);
      expect(read.body).toEqual({ statusCode: 404, code: 'not_found', message: 'Chat session not found' });
      expect((await answer(other, s.id, glucose.id, 127)).status).toBe(404);
      expect((await choose(other, s.id, rules.diabetes.id)).status).toBe(404);
    }
    expect(await row(s.id)).toEqual(before);
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
    ({ rules: [diabetes] } = await createPublishedRuleSet(t, cast.admin, [
      { name: 'Diabetes', priority: 50, conditions: [cond(hba1c, '>=', 6.5), cond(glucose, '>=', 126)], actions: [action('Start metformin')] },
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
    await answered(cast.pcp, done.id, hba1c.id, 5);
    await answered(cast.pcp, done.id, glucose.id, 100);
    return { asking: asking.id, choosing: choosing.id, done: done.id };
  }

  type Ids = Awaited<ReturnType<typeof sessions>>;
  const post = (as: () => TestUser, id: (s: Ids) => string, path: string, body: () => Record<string, unknown>) => ({ as, id, path, body });
  const pcp = () => cast.pcp;

  it.each([
    ['a value of the wrong type', post(pcp, (s) => s.asking, 'answers', () => ({ parameter_id: hba1c.id, value: 'high' })), 400, 'validation_failed'],
    ['a value that is not a value', post(pcp, (s) => s.asking, 'answers', () => ({ parameter_id: hba1c.id, value: { amount: 7 } })), 400, 'validation_failed'],
    ['a parameter that was not asked', post(pcp, (s) => s.asking, 'answers', () => ({ parameter_id: glucose.id, value: 127 })), 400, 'validation_failed'],
    ['an unknown parameter', post(pcp, (s) => s.asking, 'answers', () => ({ parameter_id: '00000000-0000-4000-8000-000000000000', value: 1 })), 400, 'validation_failed'],
    ['an unknown field', post(pcp, (s) => s.asking, 'answers', () => ({ parameter_id: hba1c.id, value: 7.5, extra: true })), 400, 'validation_failed'],
    ['an answer while a choice is pending', post(pcp, (s) => s.choosing, 'answers', () => ({ parameter_id: hba1c.id, value: 5 })), 409, 'stale_step'],
    ['an answer to a completed session', post(pcp, (s) => s.done, 'answers', () => ({ parameter_id: '00000000-0000-4000-8000-000000000001', value: 1 })), 409, 'conflict'],
    ['a different answer to a question already answered', post(pcp, (s) => s.done, 'answers', () => ({ parameter_id: hba1c.id, value: 8 })), 409, 'stale_step'],
    ["another user's session", post(() => other, (s) => s.asking, 'answers', () => ({ parameter_id: hba1c.id, value: 7.5 })), 404, 'not_found'],
    ['an unknown rule in a choice', post(pcp, (s) => s.choosing, 'choice', () => ({ rule_id: '00000000-0000-4000-8000-000000000000' })), 400, 'validation_failed'],
    ['a rule id that is not an id', post(pcp, (s) => s.choosing, 'choice', () => ({ rule_id: 'Diabetes' })), 400, 'validation_failed'],
    ['a choice when no choice is offered', post(pcp, (s) => s.asking, 'choice', () => ({ rule_id: diabetes.id })), 409, 'conflict'],
    ['a choice in a completed session', post(pcp, (s) => s.done, 'choice', () => ({ rule_id: diabetes.id })), 409, 'conflict'],
    ["a choice in another user's session", post(() => other, (s) => s.choosing, 'choice', () => ({ rule_id: diabetes.id })), 404, 'not_found'],
  ])('%s', async (_name, req, status, code) => {
    const ids = await sessions();
    const before = await t.db.query('SELECT * FROM chatbot_sessions ORDER BY id');
    const res = await t.http().post(`/api/chat-sessions/${req.id(ids)}/${req.path}`).set(req.as().auth).send(req.body());
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
    const results = await Promise.all([4, 5, 6, 7, 8, 9].map((v) => answer(cast.pcp, s.id, hba1c.id, v)));
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
