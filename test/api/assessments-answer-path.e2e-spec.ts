import { startTestApp, type TestApp } from '../support/app';
import { createCast } from '../support/factories';
import { action, cond, createParameter, createPublishedRuleSet, expectStatus, type ParameterJson } from '../support/clinical-factories';
import { statementsOf } from '../support/statements';

/**
 * The answer's round trip (issue 22): one statement per answer, which appends the answer to the stored answers, completed
 * ids and details in SQL rather than sending them whole again; what is stored is every answer, in order, as before.
 */
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let tsh: ParameterJson;
let antibodies: ParameterJson;

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  tsh = await createParameter(t, cast.admin, { name: 'TSH', display_name: 'TSH', units: 'mIU/L' });
  antibodies = await createParameter(t, cast.admin, { name: 'Antibodies', display_name: 'Thyroid antibodies', data_type: 'boolean' });
  await createPublishedRuleSet(
    t,
    cast.admin,
    [
      {
        name: "Hashimoto's thyroiditis",
        priority: 50,
        conditions: [cond(tsh, '>', 4.5), cond(antibodies, 'equals', true)],
        actions: [action('Refer to endocrinology', { type: 'referral', severity: 'high' })],
      },
    ],
    { name: 'Thyroid' },
  );
});
afterAll(async () => {
  await t?.close();
});

const start = async () =>
  expectStatus(await t.http().post('/api/assessments').set(cast.pcp.auth).send({ mode: 'clinical' }), 201, 'start').body;
/** The answer, and the statements the app sent to the database for it (a session re-check on the cache's expiry left out). */
const answered = async (id: string, parameter_id: string, value: unknown) => {
  const { result, statements } = await statementsOf(() =>
    t.http().post(`/api/assessments/${id}/answers`).set(cast.pcp.auth).send({ parameter_id, value }),
  );
  return { body: expectStatus(result, 200, 'answer').body, statements: statements.filter((s) => !s.includes('auth_sessions')) };
};
const stored = async (id: string) =>
  (await t.db.query('SELECT answers, completed_parameter_ids, answer_details, step FROM assessments WHERE id = $1', [id]))[0];

describe('answering a clinical assessment', () => {
  it('a patient with a raised TSH and positive antibodies: each answer is one statement, and every answer is stored in order', async () => {
    // A process's first answers read the next question's wording once (then kept): warm it as a day's first patient would.
    const earlier = await start();
    await answered(earlier.id, tsh.id, 6.2);
    await answered(earlier.id, antibodies.id, true);

    const a = await start();
    const first = await answered(a.id, tsh.id, 6.2);
    expect(first.statements).toHaveLength(1);
    expect(first.body.current_question.parameter_id).toBe(antibodies.id);
    const second = await answered(a.id, antibodies.id, true);
    expect(second.statements).toHaveLength(1);
    expect(second.body.is_completed).toBe(true);
    expect(second.body.recommendation.rule_name).toBe("Hashimoto's thyroiditis");

    const row = await stored(a.id);
    expect(row.answers).toEqual({ [tsh.id]: 6.2, [antibodies.id]: true });
    expect(row.completed_parameter_ids).toEqual([tsh.id, antibodies.id]);
    expect(row.answer_details.map((d: { parameter_id: string; value: unknown; label: string }) => [d.parameter_id, d.value])).toEqual([
      [tsh.id, 6.2],
      [antibodies.id, true],
    ]);
    // What the answer returned is what is stored.
    expect(second.body.answers).toEqual(row.answers);
    expect(second.body.answer_details).toEqual(row.answer_details);
    expect(Number(row.step)).toBe(3);
  });

  it('a TSH first given as a band across the threshold, then as its exact value: both kept as entered, the exact one is the answer', async () => {
    const a = await start();
    const band = { type: 'range', min: 4, max: 5, min_inclusive: true, max_inclusive: true };
    const first = await answered(a.id, tsh.id, band);
    expect(first.body.current_question.parameter_id).toBe(tsh.id); // the band straddles 4.5: the exact value is asked
    const exact = await answered(a.id, tsh.id, 4.8);
    expect(exact.statements).toHaveLength(1);
    expect(exact.body.current_question.parameter_id).toBe(antibodies.id);

    const row = await stored(a.id);
    expect(row.answers).toEqual({ [tsh.id]: 4.8 });
    expect(row.completed_parameter_ids).toEqual([tsh.id, tsh.id]);
    expect(row.answer_details.map((d: { value: unknown }) => d.value)).toEqual([band, 4.8]);
    expect(exact.body.answers).toEqual(row.answers);
    expect(exact.body.answer_details).toEqual(row.answer_details);
  });
});
