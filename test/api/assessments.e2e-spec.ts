import { startTestApp, type TestApp } from '../support/app';
import { counts, createCast, createUser, type TestUser } from '../support/factories';
import {
  action,
  cond,
  createParameter,
  createPublishedRuleSet,
  expectStatus,
  publish,
  updateRule,
  type ParameterJson,
} from '../support/clinical-factories';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let pcp2: TestUser;
let tsh: ParameterJson;
let antibodies: ParameterJson;
let weight: ParameterJson;

const NO_MATCH = 'Assessment completed without finding a matching rule';

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  pcp2 = await createUser(t, 'pcp');
  tsh = await createParameter(t, cast.admin, {
    name: 'TSH',
    display_name: 'TSH',
    units: 'mIU/L',
    question_override: "What is the patient's TSH?",
  });
  antibodies = await createParameter(t, cast.admin, { name: 'Antibodies', display_name: 'Thyroid antibodies', data_type: 'boolean' });
  weight = await createParameter(t, cast.admin, { name: 'Wt_lb', display_name: 'Weight', units: 'lb', category: 'vitals' });
});
afterAll(async () => {
  await t?.close();
});

// Assessments evaluate every active published rule set: each scenario starts from its own.
beforeEach(async () => {
  await t.db.query('UPDATE rule_sets SET is_active = false');
});

const hashimoto = () => ({
  name: "Hashimoto's thyroiditis",
  description: 'Autoimmune thyroiditis is likely.',
  priority: 50,
  conditions: [cond(tsh, '>', 4.5), cond(antibodies, 'equals', true)],
  actions: [
    action('Refer to endocrinology', { type: 'referral', severity: 'high' }),
    action('Start levothyroxine', { type: 'medication' }),
  ],
});
const subclinical = () => ({
  name: 'Subclinical hypothyroidism',
  priority: 10,
  conditions: [cond(tsh, '>', 4.5)],
  actions: [action('Recheck TSH in 6 weeks', { type: 'monitoring', severity: 'low' })],
});
const thyroidSet = (name = 'Thyroid') => createPublishedRuleSet(t, cast.admin, [hashimoto(), subclinical()], { name });

const start = async (as: TestUser) =>
  expectStatus(await t.http().post('/api/assessments').set(as.auth).send({ mode: 'clinical' }), 201, 'start').body;
const answer = (as: TestUser, id: string, parameter_id: string, value: unknown) =>
  t.http().post(`/api/assessments/${id}/answers`).set(as.auth).send({ parameter_id, value });
const answered = async (as: TestUser, id: string, parameter_id: string, value: unknown) =>
  expectStatus(await answer(as, id, parameter_id, value), 200, 'answer').body;
const row = async (id: string) => (await t.db.query('SELECT * FROM assessments WHERE id = $1', [id]))[0];

describe('a clinical assessment', () => {
  it('asks the first question with the clinical options and the stored wording', async () => {
    const { ruleSet, version } = await thyroidSet();
    const a = await start(cast.pcp);
    expect(a).toMatchObject({
      user_id: cast.pcp.id,
      is_completed: false,
      step: 1,
      current_parameter_id: tsh.id,
      answers: {},
      completed_parameter_ids: [],
      recommendation: null,
      completed_at: null,
      current_question: {
        parameter_id: tsh.id,
        name: 'TSH',
        display_name: 'TSH',
        text: "What is the patient's TSH?",
        units: 'mIU/L',
        data_type: 'number',
        input: { kind: 'number', unit: 'mIU/L', units_accepted: [{ code: 'mIU/L' }], min: null, max: null, decimals: null },
      },
      rule_set_versions: [{ rule_set_id: ruleSet.id, name: 'Thyroid', version: 1, version_id: version.id }],
    });
    // Every question ends with Not available (issue 9).
    expect(a.current_question.options.at(-1)).toEqual({ label: 'Not available', value: 'unknown' });
    expect(a.debug_log).toBeUndefined();
  });

  it('completes with the winning rule: its id, name and version, its actions, and the basis with each value given', async () => {
    const {
      ruleSet,
      rules: [h],
    } = await thyroidSet();
    const a = await start(cast.pcp);
    const second = await answered(cast.pcp, a.id, tsh.id, 5.5);
    // The one-condition rule is satisfied, but the more specific one ranked above it still waits on Antibodies.
    expect(second).toMatchObject({ is_completed: false, step: 2, current_parameter_id: antibodies.id, answers: { [tsh.id]: 5.5 } });
    expect(second.current_question.options.map((o: { value: unknown }) => o.value)).toEqual([true, false, 'unknown']);

    const done = await answered(cast.pcp, a.id, antibodies.id, true);
    expect(done).toMatchObject({
      is_completed: true,
      step: 3,
      current_parameter_id: null,
      current_question: null,
      answers: { [tsh.id]: 5.5, [antibodies.id]: true },
      completed_parameter_ids: [tsh.id, antibodies.id],
      answer_details: [
        { parameter_id: tsh.id, parameter_name: 'TSH', display_name: 'TSH', units: 'mIU/L', value: 5.5, unit: 'mIU/L', observed_at: null },
        { parameter_id: antibodies.id, display_name: 'Thyroid antibodies', value: true, unit: null, entered_as: 'option' },
      ],
      recommendation: {
        rule_id: h.id,
        rule_name: "Hashimoto's thyroiditis",
        rule_version: 1,
        rule_set_id: ruleSet.id,
        rule_set_name: 'Thyroid',
        description: 'Autoimmune thyroiditis is likely.',
        priority: 50,
        severity: 'high',
        source: null,
        actions: [
          { type: 'referral', severity: 'high', message: 'Refer to endocrinology', value: null },
          { type: 'medication', severity: 'medium', message: 'Start levothyroxine', value: null },
        ],
        basis: [
          {
            parameter_id: tsh.id,
            parameter_name: 'TSH',
            display_name: 'TSH',
            units: 'mIU/L',
            operator: 'greater_than',
            threshold: 4.5,
            value: 5.5,
            unit: 'mIU/L',
          },
          { parameter_id: antibodies.id, parameter_name: 'Antibodies', operator: 'equals', threshold: true, value: true },
        ],
      },
      undetermined_rules: [],
    });
    // The primary card is the first finding; the stored answer says how it was given.
    expect(done.findings[0]).toEqual(done.recommendation);
    expect(done.answer_details[0].label).toEqual(expect.stringMatching(/^(TSH|5\.5)/));
    expect(Date.parse(done.completed_at)).not.toBeNaN();
    // What the response said is what was stored.
    expect((await t.http().get(`/api/assessments/${a.id}`).set(cast.pcp.auth)).body).toEqual(done);

    const log = (await t.http().get(`/api/assessments/${a.id}?debug=true`).set(cast.pcp.auth)).body.debug_log;
    // Every rule that fired is a finding (issue 9): the one-condition rule is shown beside the primary card.
    expect(done.findings.map((f: { rule_name: string }) => f.rule_name)).toEqual(["Hashimoto's thyroiditis", 'Subclinical hypothyroidism']);
    expect(log).toContainEqual(
      expect.objectContaining({ type: 'success', message: expect.stringContaining(`Rule "Hashimoto's thyroiditis" matched`) }),
    );
  });

  it('with no matching rule completes without a recommendation and logs the warning', async () => {
    await thyroidSet();
    const a = await start(cast.pcp);
    const done = await answered(cast.pcp, a.id, tsh.id, 3.5);
    expect(done).toMatchObject({ is_completed: true, recommendation: null, completed_parameter_ids: [tsh.id] });

    const res = await t.http().get(`/api/assessments/${a.id}?debug=true`).set(cast.pcp.auth);
    expect(res.status).toBe(200);
    for (const entry of res.body.debug_log) {
      expect(Object.keys(entry).sort()).toEqual(['data', 'id', 'message', 'timestamp', 'type']);
      expect(['info', 'success', 'warning', 'error']).toContain(entry.type);
      expect(Date.parse(entry.timestamp)).not.toBeNaN();
    }
    expect(res.body.debug_log).toContainEqual(expect.objectContaining({ type: 'warning', message: NO_MATCH }));
    expect(done.ruled_out.map((r: { statement: string }) => r.statement)).toEqual(['TSH 3.5 mIU/L is not above 4.5 mIU/L']);
    expect(res.body.debug_log.filter((e: { type: string }) => e.type === 'success')).toEqual([]);
    expect(res.body.debug_log[0]).toMatchObject({ type: 'info', message: 'Loaded 2 active rules from 1 published rule set' });
  });

  it('with no published rules completes at once, with no recommendation', async () => {
    const a = await start(cast.pcp);
    expect(a).toMatchObject({ is_completed: true, step: 1, current_question: null, recommendation: null, rule_set_versions: [] });
    const log = (await t.http().get(`/api/assessments/${a.id}?debug=true`).set(cast.pcp.auth)).body.debug_log;
    expect(log.at(-1)).toMatchObject({ type: 'warning', message: NO_MATCH });
  });

  it('evaluates several published rule sets together, each at its latest version', async () => {
    const thyroid = await thyroidSet('Thyroid');
    const weightSet = await createPublishedRuleSet(
      t,
      cast.admin,
      [{ name: 'Weight management', conditions: [cond(weight, '>', 250)], actions: [action('Refer to dietitian')] }],
      { name: 'Weight' },
    );
    const a = await start(cast.admin);
    expect(a.rule_set_versions.map((v: { rule_set_id: string }) => v.rule_set_id).sort()).toEqual(
      [thyroid.ruleSet.id, weightSet.ruleSet.id].sort(),
    );
    await answered(cast.admin, a.id, tsh.id, 3.5); // rules out both thyroid rules
    const done = await answered(cast.admin, a.id, weight.id, 251);
    expect(done.recommendation).toMatchObject({
      rule_name: 'Weight management',
      rule_set_id: weightSet.ruleSet.id,
      rule_set_name: 'Weight',
      rule_version: 1,
    });
    expect(done.recommendation.basis).toEqual([
      expect.objectContaining({ parameter_id: weight.id, operator: 'greater_than', threshold: 250, value: 251 }),
    ]);
  });

  it('editing a rule after publishing changes no assessment until the next publish', async () => {
    const {
      ruleSet,
      rules: [h],
    } = await thyroidSet();
    const during = await start(cast.pcp);
    await answered(cast.pcp, during.id, tsh.id, 5.5);

    await updateRule(t, cast.admin, h, { actions: [action('Urgent endocrinology referral', { type: 'referral', severity: 'critical' })] });
    const finished = await answered(cast.pcp, during.id, antibodies.id, true);
    expect(finished.recommendation).toMatchObject({
      rule_version: 1,
      actions: [{ message: 'Refer to endocrinology' }, { message: 'Start levothyroxine' }],
    });
    const before = await start(cast.pcp);
    await answered(cast.pcp, before.id, tsh.id, 5.5);
    expect((await answered(cast.pcp, before.id, antibodies.id, true)).recommendation).toMatchObject({ rule_version: 1, severity: 'high' });

    await publish(t, cast.admin, ruleSet);
    const after = await start(cast.pcp);
    expect(after.rule_set_versions).toEqual([expect.objectContaining({ rule_set_id: ruleSet.id, version: 2 })]);
    await answered(cast.pcp, after.id, tsh.id, 5.5);
    expect((await answered(cast.pcp, after.id, antibodies.id, true)).recommendation).toMatchObject({
      rule_version: 2,
      severity: 'critical',
      actions: [{ message: 'Urgent endocrinology referral' }],
    });
    // The first assessment still shows what it was decided with.
    expect((await t.http().get(`/api/assessments/${during.id}`).set(cast.pcp.auth)).body.recommendation).toEqual(finished.recommendation);
  });
  it('a question asks the wording stored when it is asked, also after a change made outside the API', async () => {
    await thyroidSet();
    const first = await start(cast.pcp);
    const asked = await answered(cast.pcp, first.id, tsh.id, 5.5);
    // The built-in or the polished wording, depending on whether the in-process polisher (no Redis) ran yet.
    expect(asked.current_question).toMatchObject({ parameter_id: antibodies.id, text: expect.any(String) });
    expect(asked.current_question.text).not.toBe('Are thyroid antibodies present?');
    // Written straight to the database, as a DBA or another process would: no API process hears of it.
    await t.db.query('UPDATE parameters SET question_override = $2 WHERE id = $1', [antibodies.id, 'Are thyroid antibodies present?']);
    try {
      const second = await start(cast.pcp);
      const next = await answered(cast.pcp, second.id, tsh.id, 5.5);
      expect(next.current_question).toMatchObject({ parameter_id: antibodies.id, text: 'Are thyroid antibodies present?' });
      expect((await row(second.id)).current_question.text).toBe('Are thyroid antibodies present?');
    } finally {
      await t.db.query('UPDATE parameters SET question_override = NULL WHERE id = $1', [antibodies.id]);
    }
  });
});

describe('what an answer keeps in memory follows every change, from any process (issue 22)', () => {
  // Each change is written straight to the database, as another API process, the worker, the CLI or a DBA
  // would: no API process hears of it, and the next start or answer must still follow it.
  it('a rule set deactivated, then activated again outside the API: the next start follows each', async () => {
    const { ruleSet } = await thyroidSet();
    expect((await start(cast.pcp)).rule_set_versions).toEqual([expect.objectContaining({ rule_set_id: ruleSet.id })]);
    await t.db.query('UPDATE rule_sets SET is_active = false WHERE id = $1', [ruleSet.id]);
    expect(await start(cast.pcp)).toMatchObject({ is_completed: true, rule_set_versions: [] });
    await t.db.query('UPDATE rule_sets SET is_active = true WHERE id = $1', [ruleSet.id]);
    expect(await start(cast.pcp)).toMatchObject({ is_completed: false, current_parameter_id: tsh.id });
  });

  it('a newly published version is used by the next start, and one in progress keeps its own', async () => {
    const {
      ruleSet,
      rules: [h],
    } = await thyroidSet();
    const during = await start(cast.pcp);
    await updateRule(t, cast.admin, h, { actions: [action('Urgent endocrinology referral', { type: 'referral', severity: 'critical' })] });
    await publish(t, cast.admin, ruleSet);
    const after = await start(cast.pcp);
    expect(after.rule_set_versions).toEqual([expect.objectContaining({ version: 2 })]);
    await answered(cast.pcp, during.id, tsh.id, 5.5);
    expect((await answered(cast.pcp, during.id, antibodies.id, true)).recommendation).toMatchObject({ rule_version: 1 });
  });

  describe('blood pressure: the systolic and diastolic are found by their LOINC codes as stored now', () => {
    let sbp: ParameterJson;
    let dbp: ParameterJson;
    beforeAll(async () => {
      sbp = await createParameter(t, cast.admin, { name: 'SBP_memo', display_name: 'Systolic BP', units: 'mm[Hg]', category: 'vitals' });
      dbp = await createParameter(t, cast.admin, { name: 'DBP_memo', display_name: 'Diastolic BP', units: 'mm[Hg]', category: 'vitals' });
    });
    const codes = (s: string | null, d: string | null) =>
      t.db.query('UPDATE parameters SET loinc_code = CASE id WHEN $1::uuid THEN $3 ELSE $4 END WHERE id IN ($1, $2)', [
        sbp.id,
        dbp.id,
        s,
        d,
      ]);
    const pressureSet = () =>
      createPublishedRuleSet(
        t,
        cast.admin,
        [{ name: 'Stage 2 hypertension', conditions: [cond(sbp, '>=', 140)], actions: [action('Start treatment')] }],
        { name: 'Pressure' },
      ).then(() =>
        createPublishedRuleSet(
          t,
          cast.admin,
          [{ name: 'Diastolic hypertension', conditions: [cond(dbp, '>=', 90)], actions: [action('Start treatment')] }],
          { name: 'Diastolic' },
        ),
      );

    it('codes given outside the API after the systolic was answered: a diastolic above it is refused 422', async () => {
      await codes(null, null);
      await pressureSet();
      const a = await start(cast.pcp);
      const first = a.current_parameter_id === sbp.id ? sbp : dbp;
      const second = first === sbp ? dbp : sbp;
      const value = (p: ParameterJson) => (p === sbp ? 120 : 130);
      await answered(cast.pcp, a.id, first.id, value(first)); // kept: no codes yet
      await codes('8480-6', '8462-4');
      const res = await answer(cast.pcp, a.id, second.id, value(second));
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('out_of_range');
      expect((await row(a.id)).step).toBe(2);
    });

    it('codes removed outside the API: the same answers are taken', async () => {
      await codes('8480-6', '8462-4');
      await pressureSet();
      const a = await start(cast.pcp);
      const first = a.current_parameter_id === sbp.id ? sbp : dbp;
      const second = first === sbp ? dbp : sbp;
      const value = (p: ParameterJson) => (p === sbp ? 120 : 130);
      await answered(cast.pcp, a.id, first.id, value(first)); // kept: the pressure codes
      await codes(null, null);
      const done = await answered(cast.pcp, a.id, second.id, value(second));
      expect(done).toMatchObject({ is_completed: true, step: 3 });
      expect(done.answer_details.map((d: { value: unknown; unit: string }) => [d.value, d.unit])).toEqual([
        [value(first), 'mm[Hg]'],
        [value(second), 'mm[Hg]'],
      ]);
    });
  });

  it('a session signed out ends its answers at once: 401, and nothing is stored', async () => {
    await thyroidSet();
    const pcp = await createUser(t, 'pcp');
    const a = await start(pcp);
    await answered(pcp, a.id, tsh.id, 5.5);
    expect((await t.http().post('/api/auth/logout').set(pcp.auth)).status).toBe(204);
    expect((await answer(pcp, a.id, antibodies.id, true)).status).toBe(401);
    expect((await row(a.id)).step).toBe(2);
  });

  it('the start and each answer append their evaluation log as rows of their own; the debug view shows the whole log in order', async () => {
    await thyroidSet();
    const a = await start(cast.pcp);
    await answered(cast.pcp, a.id, tsh.id, 5.5);
    await answered(cast.pcp, a.id, antibodies.id, true);
    // The row every answer rewrites carries no log: the start's entries are step 0, each answer's its step.
    expect((await row(a.id)).debug_log).toEqual([]);
    const appended = await t.db.query('SELECT step, entries FROM assessment_log WHERE assessment_id = $1 ORDER BY step', [a.id]);
    expect(appended.map((r: { step: number }) => r.step)).toEqual([0, 1, 2]);
    const startLog = appended[0].entries as { message: string }[];
    expect(startLog[0].message).toBe('Loaded 2 active rules from 1 published rule set');
    expect(startLog.some((e) => e.message.startsWith('Answer: '))).toBe(false);
    const log: { message: string }[] = (await t.http().get(`/api/assessments/${a.id}?debug=true`).set(cast.pcp.auth)).body.debug_log;
    const answers = log.filter((e) => e.message.startsWith('Answer: ')).map((e) => e.message);
    expect(answers).toEqual([expect.stringMatching(/^Answer: TSH = /), expect.stringMatching(/^Answer: Thyroid antibodies = /)]);
    expect(log.slice(0, startLog.length)).toEqual(startLog);
    expect(log.findIndex((e) => e.message === answers[0])).toBeLessThan(log.findIndex((e) => e.message === answers[1]));
    expect(log.at(-1)?.message).toEqual(expect.stringContaining('matched'));
  });
});

describe('who can reach an assessment', () => {
  it("another user's assessment is 404, to read and to answer; an administrator may read it but not answer it", async () => {
    await thyroidSet();
    const a = await start(cast.pcp);
    const before = await row(a.id);
    const res = await t.http().get(`/api/assessments/${a.id}`).set(pcp2.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, code: 'not_found', message: 'Assessment not found' });
    expect((await answer(pcp2, a.id, tsh.id, 5.5)).status).toBe(404);
    expect((await answer(cast.admin, a.id, tsh.id, 5.5)).status).toBe(404);
    expect((await t.http().get(`/api/assessments/${a.id}?debug=true`).set(cast.admin.auth)).body).toMatchObject({
      id: a.id,
      user_id: cast.pcp.id,
      user_email: cast.pcp.email,
    });
    expect(await row(a.id)).toEqual(before);
  });

  it('case history: a PCP sees their own, an administrator all (or their own with filter mine)', async () => {
    const mine = [await start(pcp2), await start(pcp2)];
    const theirs = await start(cast.pcp);
    const admins = await start(cast.admin);

    const own = await t.http().get('/api/assessments').query({ sort: '["created_at","DESC"]', range: '[0,99]' }).set(pcp2.auth);
    expect(own.status).toBe(200);
    expect(own.body.map((a: { id: string }) => a.id)).toEqual([mine[1].id, mine[0].id]);
    expect(own.headers['content-range']).toBe('assessments 0-1/2');
    expect(own.body[0]).not.toHaveProperty('debug_log');

    const all = await t.http().get('/api/assessments').query({ range: '[0,99]' }).set(cast.admin.auth);
    const allIds = all.body.map((a: { id: string }) => a.id);
    expect(allIds).toEqual(expect.arrayContaining([mine[0].id, mine[1].id, theirs.id, admins.id]));
    expect(Number(all.headers['content-range'].split('/')[1])).toBe(
      Number((await t.db.query('SELECT count(*)::int AS n FROM assessments'))[0].n),
    );

    const adminOwn = await t.http().get('/api/assessments').query({ filter: '{"mine":true}', range: '[0,99]' }).set(cast.admin.auth);
    expect(adminOwn.body.every((a: { user_id: string }) => a.user_id === cast.admin.id)).toBe(true);
    expect(adminOwn.body.map((a: { id: string }) => a.id)).toContain(admins.id);
    const oneUser = await t
      .http()
      .get('/api/assessments')
      .query({ filter: JSON.stringify({ user_id: pcp2.id }) })
      .set(cast.admin.auth);
    expect(oneUser.body.map((a: { id: string }) => a.id).sort()).toEqual(mine.map((a) => a.id).sort());
    // A PCP cannot widen the list to someone else's cases.
    const widened = await t
      .http()
      .get('/api/assessments')
      .query({ filter: JSON.stringify({ user_id: cast.pcp.id, mine: false }) })
      .set(pcp2.auth);
    expect(widened.body).toEqual([]);

    const bad = await t.http().get('/api/assessments').query({ filter: '{"owner":"me"}' }).set(pcp2.auth);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
  });

  it("the summary counts the caller's own assessments and the active published rules", async () => {
    const user = await createUser(t, 'pcp');
    await thyroidSet();
    const done = await start(user);
    await answered(user, done.id, tsh.id, 3.5);
    const recommended = await start(user);
    await answered(user, recommended.id, tsh.id, 5.5);
    await answered(user, recommended.id, antibodies.id, false);
    await start(user);
    await start(cast.pcp);
    const res = await t.http().get('/api/assessments/summary').set(user.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ total: 3, completed: 2, with_recommendation: 1, active_rules: 2 });
  });
});

type Ids = { tsh: string; antibodies: string; weight: string };

describe('bad input gets a 4xx with the error body, and nothing changes', () => {
  it.each([
    ['a value of the wrong type', (ids: Ids) => ({ parameter_id: ids.antibodies, value: 'yes' }), 400, 'validation_failed'],
    ['true as text', (ids: Ids) => ({ parameter_id: ids.antibodies, value: 'true' }), 400, 'validation_failed'],
    ['no value', (ids: Ids) => ({ parameter_id: ids.antibodies }), 400, 'validation_failed'],
    ['a null value', (ids: Ids) => ({ parameter_id: ids.antibodies, value: null }), 400, 'validation_failed'],
    ['a parameter that was not asked', (ids: Ids) => ({ parameter_id: ids.weight, value: 300 }), 400, 'validation_failed'],
    ['an unknown parameter', () => ({ parameter_id: '00000000-0000-4000-8000-000000000000', value: true }), 400, 'validation_failed'],
    ['a parameter id that is not an id', () => ({ parameter_id: 'TSH', value: true }), 400, 'validation_failed'],
    ['an unknown field', (ids: Ids) => ({ parameter_id: ids.antibodies, value: true, note: 'x' }), 400, 'validation_failed'],
    ['a different answer to a question already answered', (ids: Ids) => ({ parameter_id: ids.tsh, value: 3.5 }), 409, 'stale_step'],
    ['an answer for a step that has passed', (ids: Ids) => ({ parameter_id: ids.antibodies, value: true, step: 1 }), 409, 'stale_step'],
  ])('%s', async (_name, body, status, code) => {
    await thyroidSet();
    const a = await start(cast.pcp);
    await answered(cast.pcp, a.id, tsh.id, 5.5);
    const before = await row(a.id);
    const tables = await counts(t, ['assessments']);
    const res = await t
      .http()
      .post(`/api/assessments/${a.id}/answers`)
      .set(cast.pcp.auth)
      .send(body({ tsh: tsh.id, antibodies: antibodies.id, weight: weight.id }));
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ statusCode: status, code, message: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/QueryFailedError|SELECT |UPDATE |\.ts:\d+/);
    expect(await row(a.id)).toEqual(before);
    expect(await counts(t, ['assessments'])).toEqual(tables);
  });

  it('an answer to a completed assessment is 409 and changes nothing', async () => {
    await thyroidSet();
    const a = await start(cast.pcp);
    await answered(cast.pcp, a.id, tsh.id, 3.5);
    const before = await row(a.id);
    const res = await answer(cast.pcp, a.id, antibodies.id, true);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      statusCode: 409,
      code: 'conflict',
      message: 'This assessment is already completed; start a new one.',
    });
    // A different answer to the question that completed it: the assessment has moved on.
    expect((await answer(cast.pcp, a.id, tsh.id, 5.5)).body).toMatchObject({ statusCode: 409, code: 'stale_step' });
    expect(await row(a.id)).toEqual(before);
  });

  it('an unknown or malformed assessment id is 404; a bad start body or debug flag is 400', async () => {
    const tables = await counts(t, ['assessments']);
    expect((await answer(cast.pcp, '00000000-0000-4000-8000-000000000000', tsh.id, 1)).status).toBe(404);
    expect((await t.http().get('/api/assessments/not-an-id').set(cast.pcp.auth)).status).toBe(404);
    expect((await t.http().post('/api/assessments').set(cast.pcp.auth).send({ mode: 'chat' })).status).toBe(400);
    expect((await t.http().post('/api/assessments').set(cast.pcp.auth).send({ mode: 'clinical', extra: 1 })).status).toBe(400);
    const a = await start(cast.pcp);
    expect((await t.http().get(`/api/assessments/${a.id}?debug=yes`).set(cast.pcp.auth)).status).toBe(400);
    expect(await counts(t, ['assessments'])).toEqual({ assessments: tables.assessments + 1 });
  });
});

describe('answers posted at once', () => {
  it('different answers to one question: exactly one is stored, every other gets 409 stale_step', async () => {
    await thyroidSet();
    const a = await start(cast.pcp);
    const values = [3.5, 5.5, 4, 6, 7, 8, 9, 10];
    const results = await Promise.all(values.map((v) => answer(cast.pcp, a.id, tsh.id, v)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body).toMatchObject({ statusCode: 409, code: 'stale_step' });
    const stored = await row(a.id);
    expect(stored.step).toBe(2);
    expect(stored.completed_parameter_ids).toEqual([tsh.id]);
    expect(stored.answers).toEqual({ [tsh.id]: ok[0].body.answers[tsh.id] });
    expect(stored.answer_details).toHaveLength(1);
    // The log is appended per answer (assessment_log): read it whole, as the debug view shows it.
    const log = (await t.http().get(`/api/assessments/${a.id}?debug=true`).set(cast.pcp.auth)).body.debug_log;
    expect(log.filter((e: { message: string }) => e.message.startsWith('Answer: '))).toHaveLength(1);
  });

  it('the same answer sent twice at once (a double click) is stored once and both succeed', async () => {
    await thyroidSet();
    const a = await start(cast.pcp);
    const results = await Promise.all([1, 2, 3].map(() => answer(cast.pcp, a.id, tsh.id, 5.5)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    for (const r of results) expect(r.body).toMatchObject({ step: 2, current_parameter_id: antibodies.id });
    expect((await row(a.id)).answer_details).toHaveLength(1);
  });

  it('answers to different assessments at once all land', async () => {
    await thyroidSet();
    const many = await Promise.all(Array.from({ length: 12 }, () => start(cast.pcp)));
    await Promise.all(many.map((a, i) => answered(cast.pcp, a.id, tsh.id, i % 2 ? 5.5 : 3.5)));
    const finals = await Promise.all(many.map((a, i) => (i % 2 ? answered(cast.pcp, a.id, antibodies.id, i % 4 === 1) : row(a.id))));
    expect(finals.every((f) => f.is_completed)).toBe(true);
    const rows = await t.db.query('SELECT jsonb_array_length(completed_parameter_ids) AS n FROM assessments WHERE id = ANY($1)', [
      many.map((a) => a.id),
    ]);
    expect(rows.map((r: { n: number }) => r.n).sort()).toEqual([...Array(6).fill(1), ...Array(6).fill(2)]);
  });
});

describe('rule analytics', () => {
  it("gives each rule's match count and share, and the set's no-match rate, by period", async () => {
    const {
      ruleSet,
      rules: [h, s],
    } = await thyroidSet('Analytics');
    const run = async (...steps: [string, unknown][]) => {
      const a = await start(cast.pcp);
      for (const [p, v] of steps) await answered(cast.pcp, a.id, p, v);
    };
    await run([tsh.id, 5.5], [antibodies.id, true]);
    await run([tsh.id, 5.5], [antibodies.id, true]);
    await run([tsh.id, 5.5], [antibodies.id, false]);
    await run([tsh.id, 3.5]);
    await start(cast.pcp); // in progress: not counted

    const res = await t.http().get(`/api/rule-sets/${ruleSet.id}/analytics`).set(cast.admin.auth);
    expect(res.status).toBe(200);
    // Every finding counts (issue 10): subclinical hypothyroidism fired beside Hashimoto's twice and alone once.
    const totals = {
      completed: 4,
      matched: 3,
      matched_by_other_sets: 0,
      no_match: 1,
      no_match_rate: 0.25,
      // As findings are ranked: Hashimoto's (high) before subclinical hypothyroidism (low).
      rules: [
        { rule_id: h.id, rule_name: "Hashimoto's thyroiditis", matches: 2, primary_matches: 2, share: 0.5 },
        { rule_id: s.id, rule_name: 'Subclinical hypothyroidism', matches: 3, primary_matches: 1, share: 0.75 },
      ],
    };
    expect(res.body).toMatchObject({ rule_set_id: ruleSet.id, latest_version: 1, period: 'month', totals });
    expect(res.body.periods).toHaveLength(12);
    expect(res.body.periods.at(-1)).toMatchObject(totals);
    expect(res.body.periods[0]).toMatchObject({
      completed: 0,
      no_match_rate: null,
      rules: [
        { matches: 0, share: null },
        { matches: 0, share: null },
      ],
    });

    const days = await t
      .http()
      .get(`/api/rule-sets/${ruleSet.id}/analytics`)
      .query({ period: 'day', from: new Date(Date.now() - 2 * 86_400_000).toISOString() })
      .set(cast.admin.auth);
    expect(days.body.periods.map((p: { completed: number }) => p.completed)).toEqual([0, 0, 4]);
  });

  it("a rule that fired beside another set's primary recommendation counts for its own set; older rows count their recommendation", async () => {
    const {
      ruleSet,
      rules: [h, s],
    } = await thyroidSet('Secondary');
    await createPublishedRuleSet(
      t,
      cast.admin,
      [
        {
          name: 'Markedly raised TSH',
          priority: 100,
          conditions: [cond(tsh, '>', 4.5)],
          actions: [action('See today', { type: 'referral', severity: 'critical' })],
        },
      ],
      { name: 'Urgent' },
    );
    const values: Record<string, unknown> = { [tsh.id]: 5.5, [antibodies.id]: false };
    let a = await start(cast.pcp);
    while (!a.is_completed) a = await answered(cast.pcp, a.id, a.current_parameter_id, values[a.current_parameter_id]);
    expect(a.findings.map((f: { rule_name: string }) => f.rule_name)).toEqual(['Markedly raised TSH', 'Subclinical hypothyroidism']);

    const figures = async () => (await t.http().get(`/api/rule-sets/${ruleSet.id}/analytics`).set(cast.admin.auth)).body.totals;
    expect(await figures()).toMatchObject({
      completed: 1,
      matched: 1,
      matched_by_other_sets: 0,
      no_match: 0,
      rules: [
        { rule_id: h.id, matches: 0, primary_matches: 0, share: 0 },
        { rule_id: s.id, matches: 1, primary_matches: 0, share: 1 },
      ],
    });

    // A row stored before findings were kept has only its recommendation: that is all it can count.
    await t.db.query(`UPDATE assessments SET findings = '[]'::jsonb WHERE id = $1`, [a.id]);
    expect(await figures()).toMatchObject({
      completed: 1,
      matched: 0,
      matched_by_other_sets: 1,
      no_match: 0,
      rules: [
        { rule_id: h.id, matches: 0, share: 0 },
        { rule_id: s.id, matches: 0, share: 0 },
      ],
    });
  });

  it('lists the rules as findings are ranked: a critical rule of low priority first, then priority', async () => {
    const rule = (name: string, priority: number, severity: string) => ({
      name,
      priority,
      conditions: [cond(tsh, '>', 4.5)],
      actions: [action(name, { severity })],
    });
    const { ruleSet } = await createPublishedRuleSet(
      t,
      cast.admin,
      [rule('Routine low', 1, 'low'), rule('Crisis', 2, 'critical'), rule('Routine medium', 90, 'medium'), rule('Urgent', 5, 'high')],
      { name: 'Ranked' },
    );
    const res = await t.http().get(`/api/rule-sets/${ruleSet.id}/analytics`).set(cast.admin.auth);
    expect(res.body.totals.rules.map((r: { rule_name: string }) => r.rule_name)).toEqual([
      'Crisis',
      'Urgent',
      'Routine medium',
      'Routine low',
    ]);
  });

  it('an unknown rule set is 404, a bad period or range 400, and a PCP may not look', async () => {
    const { ruleSet } = await thyroidSet();
    expect((await t.http().get('/api/rule-sets/00000000-0000-4000-8000-000000000000/analytics').set(cast.admin.auth)).status).toBe(404);
    expect((await t.http().get(`/api/rule-sets/${ruleSet.id}/analytics?period=year`).set(cast.admin.auth)).status).toBe(400);
    expect((await t.http().get(`/api/rule-sets/${ruleSet.id}/analytics?from=2025-02-01&to=2025-01-01`).set(cast.admin.auth)).status).toBe(
      400,
    );
    expect((await t.http().get(`/api/rule-sets/${ruleSet.id}/analytics?period=day&from=2000-01-01`).set(cast.admin.auth)).status).toBe(400);
    expect((await t.http().get(`/api/rule-sets/${ruleSet.id}/analytics`).set(cast.pcp.auth)).status).toBe(403);
  });
});

describe('answers are what was measured (issue 9)', () => {
  let hba1c: ParameterJson;
  let glucose: ParameterJson;
  beforeAll(async () => {
    hba1c = await createParameter(t, cast.admin, {
      name: 'hba1c_measured',
      display_name: 'HbA1c',
      data_type: 'lab_range',
      units: '%',
      validation_rules: { min: 3, max: 20, decimals: 1, units_accepted: [{ code: 'mmol/mol', factor: 0.09148, offset: 2.152 }] },
    });
    glucose = await createParameter(t, cast.admin, {
      name: 'fpg_measured',
      display_name: 'Fasting Glucose',
      data_type: 'lab_range',
      units: 'mg/dL',
      validation_rules: { min: 20, max: 1000, decimals: 0, units_accepted: [{ code: 'mmol/L', factor: 18, decimals: 1 }] },
    });
  });
  const glycaemia = () =>
    createPublishedRuleSet(
      t,
      cast.admin,
      [
        {
          name: 'Diabetes by A1C',
          priority: 80,
          conditions: [cond(hba1c, '>=', 6.5)],
          actions: [action('Diagnose diabetes', { severity: 'high' })],
        },
        {
          name: 'Diabetes by fasting glucose',
          priority: 80,
          conditions: [cond(glucose, '>=', 126)],
          actions: [action('Diagnose diabetes', { severity: 'high' })],
        },
      ],
      { name: 'Glycaemia' },
    );
  const send = (id: string, body: Record<string, unknown>) => t.http().post(`/api/assessments/${id}/answers`).set(cast.pcp.auth).send(body);

  it('the question offers typed entry with the unit, the units accepted and the limits', async () => {
    await glycaemia();
    const a = await start(cast.pcp);
    const q = a.current_question;
    expect(q.input).toEqual({
      kind: 'number',
      unit: q.parameter_id === hba1c.id ? '%' : 'mg/dL',
      unit_display: q.parameter_id === hba1c.id ? '%' : 'mg/dL',
      units_accepted: expect.any(Array),
      min: q.parameter_id === hba1c.id ? 3 : 20,
      max: q.parameter_id === hba1c.id ? 20 : 1000,
      decimals: q.parameter_id === hba1c.id ? 1 : 0,
    });
    expect(q.input.units_accepted[1]).toMatchObject({ code: q.parameter_id === hba1c.id ? 'mmol/mol' : 'mmol/L' });
  });

  it('a value typed in another unit is converted, both forms are kept, and the card shows the answer as entered', async () => {
    await glycaemia();
    let a = await start(cast.pcp);
    // Recent: a value older than its lookback is refused as stale (issue 20).
    const observed = new Date(Date.now() - 25 * 86_400_000).toISOString().slice(0, 10);
    for (;;) {
      if (a.is_completed) break;
      const body =
        a.current_parameter_id === glucose.id
          ? { parameter_id: glucose.id, value: 7, unit: 'mmol/L', observed_at: observed }
          : { parameter_id: hba1c.id, value: 'unknown' };
      a = expectStatus(await send(a.id, body), 200, 'answer').body;
    }
    const fpg = a.answer_details.find((d: { parameter_id: string }) => d.parameter_id === glucose.id);
    expect(fpg).toMatchObject({
      value: 126,
      unit: 'mmol/L',
      entered_value: 7,
      entered_as: 'typed',
      label: '7 mmol/L (126 mg/dL)',
      observed_at: observed,
    });
    expect(a.answers[glucose.id]).toBe(126);
    expect(a.recommendation).toMatchObject({ rule_name: 'Diabetes by fasting glucose', severity: 'high' });
    expect(a.recommendation.basis[0]).toMatchObject({
      display_name: 'Fasting Glucose',
      units: 'mg/dL',
      threshold: 126,
      value: 126,
      unit: 'mmol/L',
      label: '7 mmol/L (126 mg/dL)',
    });
    const log = (await t.http().get(`/api/assessments/${a.id}?debug=true`).set(cast.pcp.auth)).body.debug_log;
    expect(log.map((e: { message: string }) => e.message)).toContain('Answer: Fasting Glucose = 7 mmol/L (126 mg/dL)');
    // Case detail shows what the response showed.
    expect((await t.http().get(`/api/assessments/${a.id}`).set(cast.pcp.auth)).body.findings).toEqual(a.findings);
  });

  // Issue 20: no finding said "consult with your healthcare provider"; it now says what was checked and ruled out.
  it('a patient with no finding is told what was ruled out, with each answer as entered, and case detail shows it again', async () => {
    await glycaemia();
    let a = await start(cast.pcp);
    while (!a.is_completed) {
      const body =
        a.current_parameter_id === glucose.id
          ? { parameter_id: glucose.id, value: 5, unit: 'mmol/L' }
          : { parameter_id: hba1c.id, value: 5.2 };
      a = expectStatus(await send(a.id, body), 200, 'answer').body;
    }
    expect(a).toMatchObject({ recommendation: null, findings: [], undetermined_rules: [] });
    expect(a.ruled_out).toEqual([
      {
        parameter_id: hba1c.id,
        display_name: 'HbA1c',
        units: '%',
        operator: 'greater_equal',
        threshold: 6.5,
        value: 5.2,
        label: '5.2 %',
        rule_names: ['Diabetes by A1C'],
        statement: 'HbA1c 5.2 % is below 6.5 %',
      },
      {
        parameter_id: glucose.id,
        display_name: 'Fasting Glucose',
        units: 'mg/dL',
        operator: 'greater_equal',
        threshold: 126,
        value: 90,
        label: '5 mmol/L (90 mg/dL)',
        rule_names: ['Diabetes by fasting glucose'],
        statement: 'Fasting Glucose 5 mmol/L (90 mg/dL) is below 126 mg/dL',
      },
    ]);
    expect((await t.http().get(`/api/assessments/${a.id}`).set(cast.pcp.auth)).body.ruled_out).toEqual(a.ruled_out);
    expect(JSON.stringify(a)).not.toMatch(/consult|healthcare provider/i);
  });

  it.each([
    ['text that is not a number', { value: 'NaN' }, 400, 'validation_failed', /must be a number/],
    ['Infinity as text', { value: 'Infinity' }, 400, 'validation_failed', /must be a number/],
    [
      'a band with min above max',
      { value: { type: 'range', min: 7, max: 6, min_inclusive: true, max_inclusive: false } },
      400,
      'validation_failed',
      /min/,
    ],
    ['a unit the parameter does not list', { value: 7, unit: 'g/L' }, 422, 'unit_not_accepted', /not accepted in g\/L/],
    ['an observation date in the future', { value: 6, observed_at: '2999-01-01' }, 400, 'validation_failed', /future/],
    ['an observation date that is not a date', { value: 6, observed_at: 'yesterday' }, 400, 'validation_failed', /ISO date/],
  ])('%s is refused and nothing is written', async (_name, extra, status, code, message) => {
    await glycaemia();
    const a = await start(cast.pcp);
    const before = await row(a.id);
    const res = await send(a.id, { parameter_id: a.current_parameter_id, ...extra });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ statusCode: status, code, message: expect.stringMatching(message) });
    expect(await row(a.id)).toEqual(before);
  });

  it('outside the plausible limits, or with more decimals than recorded, is 422 out_of_range naming the limit and unit', async () => {
    await glycaemia();
    const a = await start(cast.pcp);
    const before = await row(a.id);
    const isA1c = a.current_parameter_id === hba1c.id;
    const cases = isA1c
      ? [
          [{ value: 25 }, 'HbA1c must be between 3 and 20 %'],
          [{ value: 6.55 }, 'HbA1c is recorded to 1 decimal place in %; 6.55 has more'],
          [{ value: 300, unit: 'mmol/mol' }, 'HbA1c must be between 3 and 20 %'],
        ]
      : [
          [{ value: 1200 }, 'Fasting Glucose must be between 20 and 1000 mg/dL'],
          [{ value: 126.5 }, 'Fasting Glucose is recorded to 0 decimal places in mg/dL; 126.5 has more'],
          [{ value: 60, unit: 'mmol/L' }, 'Fasting Glucose must be between 20 and 1000 mg/dL'],
        ];
    for (const [extra, message] of cases) {
      const res = await send(a.id, { parameter_id: a.current_parameter_id, ...(extra as object) });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ statusCode: 422, code: 'out_of_range', message });
    }
    expect(await row(a.id)).toEqual(before);
  });

  it('Not available is stored as such and the rule it leaves open is listed with the missing input by display name', async () => {
    await createPublishedRuleSet(
      t,
      cast.admin,
      [{ name: 'Diabetes by A1C only', priority: 80, conditions: [cond(hba1c, '>=', 6.5)], actions: [action('Diagnose diabetes')] }],
      { name: 'A1C' },
    );
    await t.db.query(`UPDATE rule_sets SET is_active = false WHERE name = 'Glycaemia'`);
    const a = await start(cast.pcp);
    const done = expectStatus(await send(a.id, { parameter_id: hba1c.id, value: 'unknown' }), 200, 'answer').body;
    expect(done.answer_details[0]).toMatchObject({ value: 'unknown', entered_as: 'not_available', label: 'Not available', unit: null });
    expect(done).toMatchObject({ is_completed: true, recommendation: null, findings: [] });
    expect(done.undetermined_rules).toEqual([
      expect.objectContaining({
        rule_name: 'Diabetes by A1C only',
        unknown_parameters: [expect.objectContaining({ parameter_id: hba1c.id, display_name: 'HbA1c' })],
      }),
    ]);
  });
});
