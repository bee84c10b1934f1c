import type { TestApp } from '../support/app';
import { createCast, type TestUser } from '../support/factories';
import { LlmServer, type LlmBehaviour } from '../support/llm-server';
import { startPolishApp, type PolishSetup } from '../support/polish-setup';
import { waitFor } from '../support/polling';

/**
 * The OpenAI-compatible provider against a local chat-completions server: good answers,
 * slow answers, malformed output, 500s and dropped connections. Every failure falls back
 * to the built-in wording, and the key never reaches a log line.
 */
const KEY = 'sk-test-never-log-this-7f3a9c';

let llm: LlmServer;
let setup: PolishSetup;
let t: TestApp;
let cast: Record<'super_admin' | 'admin' | 'pcp' | 'none', TestUser>;
let logged = '';
let stderr: jest.SpyInstance;

beforeAll(async () => {
  llm = await new LlmServer().start();
  // The app's JSON log lines are kept for the key check; anything else (Jest) passes through.
  const write = process.stderr.write.bind(process.stderr);
  stderr = jest.spyOn(process.stderr, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = chunk.toString();
    if (text.startsWith('{"level"')) {
      logged += text;
      return true;
    }
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write);
  setup = await startPolishApp({
    POLISH_LLM_URL: llm.url,
    POLISH_LLM_MODEL: 'test-model',
    POLISH_LLM_KEY: KEY,
    POLISH_LLM_TIMEOUT_MS: '1000',
    LOG_LEVEL: 'warn',
  });
  t = setup.t;
  cast = await createCast(t);
}, 120_000);

afterAll(async () => {
  await setup?.close();
  await llm?.close();
  stderr?.mockRestore();
});

let seq = 0;
/** A display name of its own per call, so scripted answers never meet another test's request. */
function unique(label: string) {
  seq += 1;
  return { displayName: `${label} ${seq}`, parameterName: `${label.toLowerCase().replace(/\W+/g, '_')}_${seq}` };
}

async function ask(body: { displayName: string; parameterName: string }) {
  const res = await t.http().post('/api/polish-question').set(cast.pcp.auth).send(body);
  expect(res.status).toBe(200);
  return res.body.polishedQuestion as string;
}

describe('LLM provider', () => {
  it('asks the chat-completions endpoint with the model, the key and the parameter, and returns its question', async () => {
    const q = unique('Serum Creatinine');
    llm.when(q.displayName, { kind: 'answer', content: "What is the patient's latest serum creatinine (mg/dL)?" });
    expect(await ask(q)).toBe("What is the patient's latest serum creatinine (mg/dL)?");
    const [seen] = llm.requestsFor(q.displayName);
    expect(seen.path).toBe('/v1/chat/completions');
    expect(seen.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen.body).toMatchObject({ model: 'test-model', messages: [{ role: 'system' }, { role: 'user' }] });
    expect(seen.parameter).toEqual({ display_name: q.displayName, name: q.parameterName });
  });

  it('tidies a quoted answer', async () => {
    const q = unique('Potassium');
    llm.when(q.displayName, { kind: 'answer', content: '  "What is the patient\'s potassium level?"\n' });
    expect(await ask(q)).toBe("What is the patient's potassium level?");
  });

  it('is reported by the status as the provider', async () => {
    const res = await t.http().get('/api/polish/status').set(cast.admin.auth);
    expect(res.body.provider).toBe('llm');
  });

  const failures: Array<[string, LlmBehaviour]> = [
    ['a slow answer (past the timeout)', { kind: 'answer', content: 'What is too late?', delayMs: 4000 }],
    ['HTTP 500', { kind: 'status', status: 500 }],
    ['HTTP 429', { kind: 'status', status: 429 }],
    ['a dropped connection', { kind: 'reset' }],
    ['a body that is not JSON', { kind: 'raw', body: '<html>gateway error</html>' }],
    ['JSON without choices', { kind: 'raw', body: '{"choices":[]}' }],
    ['content that is not text', { kind: 'raw', body: '{"choices":[{"message":{"content":null}}]}' }],
    ['two questions', { kind: 'answer', content: 'Is it high? Or low?' }],
    ['a statement, not a question', { kind: 'answer', content: 'Enter the value.' }],
    ['several lines', { kind: 'answer', content: 'Sure! Here it is:\nWhat is the value?' }],
    ['more than 200 characters', { kind: 'answer', content: `What is ${'very '.repeat(45)}important?` }],
    ['an empty answer', { kind: 'answer', content: '' }],
  ];

  it.each(failures)('falls back to the built-in wording on %s', async (_, behaviour) => {
    const q = unique('Albumin');
    llm.when(q.displayName, behaviour);
    expect(await ask(q)).toBe(`What is the patient's albumin ${q.displayName.split(' ')[1]}?`);
    expect(llm.requestsFor(q.displayName)).toHaveLength(1);
  });

  it('logs why it fell back, never the key', async () => {
    await waitFor(() => logged.includes('LLM polishing failed'));
    expect(logged).toContain('timeout');
    expect(logged).toContain('http_status');
    expect(logged).toContain('invalid_question');
    expect(logged).not.toContain(KEY);
    for (const w of setup.workers) expect(w.output()).not.toContain(KEY);
  });
});

describe('LLM provider in a job', () => {
  async function createAndWait(displayName: string) {
    const created = await t
      .http()
      .post('/api/parameters')
      .set(cast.admin.auth)
      .send({
        name: displayName.toLowerCase().replace(/\W+/g, '_'),
        display_name: displayName,
        data_type: 'number',
        category: 'labs',
        units: 'mmol/L',
      });
    expect(created.status).toBe(201);
    let p: Record<string, unknown> = {};
    await waitFor(async () =>
      Boolean((p = (await t.http().get(`/api/parameters/${created.body.id}`).set(cast.admin.auth)).body).polished_question),
    );
    return p;
  }

  it('stores the LLM question with provider llm', async () => {
    const p = await createAndWait('Triglycerides');
    expect(p).toMatchObject({ polished_question: "LLM: what is the patient's Triglycerides?", polished_provider: 'llm' });
    expect(llm.requestsFor('Triglycerides')[0].parameter).toEqual({
      display_name: 'Triglycerides',
      name: 'triglycerides',
      category: 'labs',
      data_type: 'number',
      units: 'mmol/L',
    });
  });

  it('stores the built-in wording with provider built-in when the LLM fails', async () => {
    llm.when('LDL Cholesterol', { kind: 'status', status: 503 });
    const p = await createAndWait('LDL Cholesterol');
    expect(p).toMatchObject({
      polished_question: "What was the patient's most recent LDL cholesterol result (mmol/L)?",
      polished_provider: 'built-in',
    });
  });
});
