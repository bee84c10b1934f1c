import { startTestApp, type TestApp } from '../support/app';
import { createUser, type TestUser } from '../support/factories';
import { action, cond, createParameter, createPublishedRuleSet, expectStatus, type ParameterJson } from '../support/clinical-factories';

/**
 * A correctness check under load, not a timing: 200 sessions at once, 10 answers each, then
 * the rows are counted. Nothing may be lost or duplicated. Runs on the embedded database too.
 */
const SESSIONS = 200;
// A correctness check, not a timing: on a loaded 2-core machine 2,200 requests took 55 s, close to the default 60 s limit.
jest.setTimeout(300_000);
const ANSWERS = 10;
const USERS = 8;

let t: TestApp;
let users: TestUser[];
let parameters: ParameterJson[];

beforeAll(async () => {
  t = await startTestApp();
  const admin = await createUser(t, 'admin');
  users = await Promise.all(Array.from({ length: USERS }, () => createUser(t, 'pcp')));
  parameters = [];
  for (let i = 0; i < ANSWERS; i++) parameters.push(await createParameter(t, admin, { name: `load_${i}`, display_name: `Load ${i}` }));
  // One rule on all ten parameters: every session must answer all ten before it matches.
  await createPublishedRuleSet(t, admin, [
    { name: 'All high', conditions: parameters.map((p) => cond(p, '>', 5)), actions: [action('Review')] },
  ]);
});
afterAll(async () => {
  await t?.close();
});

async function run(path: string, pending: (body: Record<string, any>) => { parameter_id: string; value: unknown } | null) {
  await Promise.all(
    Array.from({ length: SESSIONS }, async (_, i) => {
      const user = users[i % USERS];
      let body = expectStatus(
        await t
          .http()
          .post(path)
          .set(user.auth)
          .send(path.endsWith('assessments') ? { mode: 'clinical' } : {}),
        201,
        'start',
      ).body;
      for (let next = pending(body); next; next = pending(body)) {
        body = expectStatus(await t.http().post(`${path}/${body.id}/answers`).set(user.auth).send(next), 200, 'answer').body;
      }
    }),
  );
}

it(`${SESSIONS} clinical assessments at once, ${ANSWERS} answers each: every answer stored exactly once`, async () => {
  await run('/api/assessments', (a) => (a.current_question ? { parameter_id: a.current_question.parameter_id, value: 6 } : null));
  const [totals] = await t.db.query(
    `SELECT count(*)::int AS rows, count(DISTINCT id)::int AS ids,
      count(*) FILTER (WHERE is_completed AND recommendation->>'rule_name' = 'All high')::int AS recommended,
      count(*) FILTER (WHERE step = $1 AND jsonb_array_length(completed_parameter_ids) = $2 AND jsonb_array_length(answer_details) = $2
        AND (SELECT count(*) FROM jsonb_object_keys(answers)) = $2)::int AS complete
    FROM assessments`,
    [ANSWERS + 1, ANSWERS],
  );
  expect(totals).toEqual({ rows: SESSIONS, ids: SESSIONS, recommended: SESSIONS, complete: SESSIONS });
  const [distinct] = await t.db.query(
    `SELECT count(*)::int AS n FROM assessments a
      WHERE (SELECT count(DISTINCT x) FROM jsonb_array_elements_text(a.completed_parameter_ids) x) = $1`,
    [ANSWERS],
  );
  expect(distinct.n).toBe(SESSIONS);
  const perUser = await t.db.query('SELECT user_id, count(*)::int AS n FROM assessments GROUP BY 1');
  expect(perUser.map((r: { n: number }) => r.n)).toEqual(Array(USERS).fill(SESSIONS / USERS));
});

it(`${SESSIONS} chat sessions at once, ${ANSWERS} answers each: every answer stored exactly once`, async () => {
  await run('/api/chat-sessions', (s) => (s.pending?.kind === 'question' ? { parameter_id: s.pending.parameter_id, value: 6 } : null));
  const [totals] = await t.db.query(
    `SELECT count(*)::int AS rows,
      count(*) FILTER (WHERE is_completed AND current_step = $1 AND jsonb_array_length(answered_parameters) = $2
        AND (SELECT count(*) FROM jsonb_object_keys(session_data)) = $2
        AND jsonb_array_length(conversation_history) = 2 * $2 + 1)::int AS complete,
      count(*) FILTER (WHERE matched_rules->0->>'rule_name' = 'All high')::int AS recommended
    FROM chatbot_sessions`,
    [ANSWERS + 1, ANSWERS],
  );
  expect(totals).toEqual({ rows: SESSIONS, complete: SESSIONS, recommended: SESSIONS });
});
