import { startTestApp, type TestApp } from '../support/app';
import { createCast } from '../support/factories';
import { action, expectStatus, publish, runAssessment, updateRule } from '../support/clinical-factories';
import { buildAdaKnowledge, fired, RULES, SECTION_10, SECTION_2, type AdaKnowledge } from './ada-2026';

/**
 * Clinical situations beyond a single cut-point: values typed in SI units, Not available, bands
 * (offered and straddling), concurrent critical findings, and assessments pinned to the rule-set
 * versions they started with.
 */

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let k: AdaKnowledge;

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  k = await buildAdaKnowledge(t, cast.admin);
});
afterAll(async () => {
  await t?.close();
});

const band = (min: number | null, max: number | null, min_inclusive = true, max_inclusive = false) => ({
  type: 'range',
  min,
  max,
  min_inclusive,
  max_inclusive,
});
const run = (given: (p: AdaKnowledge['p']) => Record<string, unknown>) => runAssessment(t, cast.pcp, given(k.p));
const detailOf = (r: Awaited<ReturnType<typeof run>>, id: string) => r.result.answer_details.find((d) => d.parameter_id === id);

describe('values typed in SI units are converted on the server, and both forms are kept', () => {
  it.each([
    // Converted through ADA's published pairs (39 / 48 / 53 / 64 / 75 mmol/mol = 5.7 / 6.5 / 7 / 8 / 9 %), no longer by the master
    // equation alone (48 was 6.543 %): each value is on the same side of a cut-point in either unit (issue 20).
    ['A1C 48 mmol/mol (6.5 %, as ADA publishes it) is diabetes', 48, [RULES.diabetesA1c], '48 mmol/mol (6.5 %)'],
    ['A1C 47 mmol/mol (6.41 %) is prediabetes', 47, [RULES.prediabetesA1c], '47 mmol/mol (6.411 %)'],
    ['A1C 39 mmol/mol (5.7 %, as ADA publishes it) is prediabetes', 39, [RULES.prediabetesA1c], '39 mmol/mol (5.7 %)'],
    ['A1C 38 mmol/mol (5.61 %) is no glycaemic finding', 38, [], '38 mmol/mol (5.609 %)'],
  ])('%s', async (_situation, mmolPerMol, expected, label) => {
    const r = await run((p) => ({ [p.a1c.id]: { value: mmolPerMol, unit: 'mmol/mol' } }));
    expect(fired(r.result.findings)).toEqual(expected);
    expect(detailOf(r, k.p.a1c.id)).toMatchObject({ unit: 'mmol/mol', entered_value: mmolPerMol, entered_as: 'typed', label });
  });

  it.each([
    // Through ADA's pairs (3.9 / 5.6 / 7.0 mmol/L = 70 / 100 / 126 mg/dL), no longer × 18 alone (5.6 was 100.8).
    ['Fasting glucose 7.0 mmol/L (126 mg/dL) is diabetes', 7, [RULES.diabetesFpg], 126, '126'],
    ['Fasting glucose 6.9 mmol/L (124.14 mg/dL) is prediabetes', 6.9, [RULES.prediabetesFpg], 124.142857143, '124.14'],
    ['Fasting glucose 5.6 mmol/L (100 mg/dL, as ADA publishes it) is prediabetes', 5.6, [RULES.prediabetesFpg], 100, '100'],
    ['Fasting glucose 5.5 mmol/L (98.24 mg/dL) is normal', 5.5, [], 98.2352941176, ''],
  ])('%s', async (_situation, mmolPerL, expected, mgPerDl, shown) => {
    const r = await run((p) => ({ [p.fpg.id]: { value: mmolPerL, unit: 'mmol/L' } }));
    expect(fired(r.result.findings)).toEqual(expected);
    expect(detailOf(r, k.p.fpg.id)).toMatchObject({ value: mgPerDl, unit: 'mmol/L', entered_value: mmolPerL });
    if (expected.length) expect(r.result.findings[0].basis[0].label).toBe(`${mmolPerL} mmol/L (${shown} mg/dL)`);
  });

  it('UACR 3.4 mg/mmol (30.1 mg/g) is moderately increased albuminuria', async () => {
    const r = await run((p) => ({ [p.uacr.id]: { value: 3.4, unit: 'mg/mmol' } }));
    expect(fired(r.result.findings)).toEqual([RULES.a2]);
  });

  it('an A1C of 65 % (a slip for 6.5) is refused naming the plausible limit, and nothing is stored', async () => {
    const start = expectStatus(await t.http().post('/api/assessments').set(cast.pcp.auth).send({ mode: 'clinical' }), 201, 'start').body;
    let current = start;
    // Answer Not available until the A1C question comes up.
    while (current.current_parameter_id !== k.p.a1c.id) {
      current = expectStatus(
        await t
          .http()
          .post(`/api/assessments/${current.id}/answers`)
          .set(cast.pcp.auth)
          .send({ parameter_id: current.current_parameter_id, value: 'unknown' }),
        200,
        'answer',
      ).body;
    }
    const res = await t
      .http()
      .post(`/api/assessments/${current.id}/answers`)
      .set(cast.pcp.auth)
      .send({ parameter_id: k.p.a1c.id, value: 65 });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'out_of_range', message: 'HbA1c must be between 3 and 20 %' });
    const after = (await t.db.query('SELECT answer_details, step FROM assessments WHERE id = $1', [start.id]))[0];
    expect(after.step).toBe(current.step);
    expect(after.answer_details).toEqual(current.answer_details);
  });
});

describe('Not available is unknown, never normal', () => {
  it('a patient with nothing measured gets no finding, and every rule is listed as not evaluated with its missing inputs', async () => {
    const r = await run(() => ({}));
    expect(r.result.findings).toEqual([]);
    expect(r.result.recommendation).toBeNull();
    const undetermined = Object.fromEntries(
      r.result.undetermined_rules.map((u) => [u.rule_name, u.unknown_parameters.map((m) => m.display_name)]),
    );
    expect(undetermined[RULES.diabetesA1c]).toEqual(['HbA1c']);
    expect(undetermined[RULES.crisis]).toEqual(expect.arrayContaining(['Systolic Blood Pressure', 'Diastolic Blood Pressure']));
    expect(r.result.answer_details.every((d) => d.entered_as === 'not_available' && d.label === 'Not available')).toBe(true);
  });

  it('A1C not available with fasting glucose 130 mg/dL is diabetes by glucose; the A1C rules cannot be evaluated', async () => {
    const r = await run((p) => ({ [p.a1c.id]: 'unknown', [p.fpg.id]: 130 }));
    expect(fired(r.result.findings)).toEqual([RULES.diabetesFpg]);
    expect(r.result.undetermined_rules.map((u) => u.rule_name)).toEqual(expect.arrayContaining([RULES.diabetesA1c, RULES.prediabetesA1c]));
  });

  it('systolic not available with diastolic 125 mmHg is still a hypertensive crisis (either reading suffices)', async () => {
    const r = await run((p) => ({ [p.sbp.id]: 'unknown', [p.dbp.id]: 125 }));
    expect(fired(r.result.findings)).toEqual([RULES.crisis, RULES.hypertension]);
    expect(r.result.findings[0]).toMatchObject({ severity: 'critical', source: SECTION_10 });
  });
});

describe('bands: a partition of the line, never a stand-in value', () => {
  it('the offered band "HbA1c ≥ 6.5 %" is diabetes, and the card shows the band as chosen', async () => {
    const r = await run((p) => ({ [p.a1c.id]: band(6.5, null) }));
    expect(fired(r.result.findings)).toEqual([RULES.diabetesA1c]);
    expect(detailOf(r, k.p.a1c.id)).toMatchObject({ entered_as: 'band', label: 'HbA1c ≥ 6.5 %', value: band(6.5, null) });
    expect(r.result.findings[0].basis[0].label).toBe('HbA1c ≥ 6.5 %');
  });

  it('the band "HbA1c 5.7 to < 6.5 %" is prediabetes', async () => {
    const r = await run((p) => ({ [p.a1c.id]: band(5.7, 6.5) }));
    expect(fired(r.result.findings)).toEqual([RULES.prediabetesA1c]);
  });

  it('a band straddling 6.5 % decides nothing: the exact value is asked for, and 6.8 % is diabetes', async () => {
    const r = await run((p) => ({ [p.a1c.id]: [band(6, 7, true, true), 6.8] }));
    expect(r.asked.filter((id) => id === k.p.a1c.id)).toHaveLength(2);
    expect(fired(r.result.findings)).toEqual([RULES.diabetesA1c]);
    expect(r.result.answer_details.filter((d) => d.parameter_id === k.p.a1c.id).map((d) => d.entered_as)).toEqual(['band', 'typed']);
  });

  it('a straddling band given again instead of the exact value leaves diabetes and prediabetes not evaluated, never false', async () => {
    const r = await run((p) => ({ [p.a1c.id]: [band(6, 7, true, true), band(6, 7, true, true)] }));
    expect(fired(r.result.findings)).toEqual([]);
    expect(r.result.undetermined_rules.map((u) => u.rule_name)).toEqual(expect.arrayContaining([RULES.diabetesA1c, RULES.prediabetesA1c]));
  });

  it('a systolic band of 140 to < 180 mmHg is hypertension without a crisis', async () => {
    const r = await run((p) => ({ [p.sbp.id]: band(140, 180), [p.dbp.id]: 'unknown' }));
    expect(fired(r.result.findings)).toEqual([RULES.hypertension]);
  });
});

describe('concurrent findings: critical and high are never hidden', () => {
  it('a hypertensive crisis is shown beside diabetes, critical first, each with its source', async () => {
    const r = await run((p) => ({ [p.sbp.id]: 185, [p.dbp.id]: 95, [p.a1c.id]: 7.2 }));
    expect(fired(r.result.findings)).toEqual([RULES.crisis, RULES.diabetesA1c, RULES.hypertension]);
    expect(r.result.recommendation).toMatchObject({ rule_name: RULES.crisis, severity: 'critical' });
    expect(r.result.findings.map((f) => f.severity)).toEqual(['critical', 'high', 'medium']);
    expect(r.result.findings[1].source).toBe(SECTION_2);
    // The debug log speaks in display names and answers as entered: no machine name, no id.
    const log: { message: string }[] = (await t.http().get(`/api/assessments/${r.result.id}?debug=true`).set(cast.pcp.auth)).body.debug_log;
    const messages = log.map((e) => e.message).join('\n');
    expect(messages).toContain('Answer: Systolic Blood Pressure = 185 mmHg');
    for (const p of Object.values(k.p)) expect(messages).not.toContain(p.name);
    expect(messages).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
  });

  it('diabetes by A1C and by glucose, stage 3 albuminuria and obesity all appear on one assessment', async () => {
    const r = await run((p) => ({
      [p.a1c.id]: 8.1,
      [p.fpg.id]: 160,
      [p.uacr.id]: 420,
      [p.bmi.id]: 33.4,
      [p.asian.id]: false,
      [p.sbp.id]: 124,
      [p.dbp.id]: 76,
    }));
    expect(fired(r.result.findings).sort()).toEqual([RULES.diabetesA1c, RULES.diabetesFpg, RULES.a3, RULES.obesity].sort());
    expect(r.result.findings.slice(0, 3).every((f) => f.severity === 'high')).toBe(true);
  });

  it('a healthy adult (A1C 5.2 %, FPG 88 mg/dL, 118/76 mmHg, UACR 12 mg/g, BMI 22.5) gets no finding at all', async () => {
    const r = await run((p) => ({
      [p.a1c.id]: 5.2,
      [p.fpg.id]: 88,
      [p.sbp.id]: 118,
      [p.dbp.id]: 76,
      [p.uacr.id]: 12,
      [p.bmi.id]: 22.5,
      [p.asian.id]: false,
    }));
    expect(r.result.findings).toEqual([]);
    expect(r.result.undetermined_rules).toEqual([]);
  });
});

describe('the Diagnostic Assistant (chat) on the same knowledge', () => {
  type Chat = {
    id: string;
    is_completed: boolean;
    pending: { kind: string; parameter_id?: string; options: { label: string; value: unknown }[] } | null;
    [k: string]: any;
  };
  const chat = async (answer: (parameterId: string, options: { label: string; value: unknown }[]) => unknown): Promise<Chat> => {
    let s: Chat = expectStatus(await t.http().post('/api/chat-sessions').set(cast.pcp.auth), 201, 'start chat').body;
    for (let guard = 0; s.pending?.kind === 'question'; guard++) {
      if (guard > 30) throw new Error('the chat asked more than 30 questions');
      const value = answer(s.pending.parameter_id!, s.pending.options);
      s = expectStatus(
        await t.http().post(`/api/chat-sessions/${s.id}/answers`).set(cast.pcp.auth).send({ parameter_id: s.pending.parameter_id, value }),
        200,
        'chat answer',
      ).body;
    }
    return s;
  };

  it('a healthy patient answered through the chat with the normal bands ends with no diagnosis', async () => {
    const healthy: Record<string, unknown> = { [k.p.asian.id]: false };
    const s = await chat((id, options) => healthy[id] ?? options[0].value);
    expect(s).toMatchObject({ is_completed: true, final_recommendations: [], matched_rules: [] });
  });

  it('a chat patient with a hypertensive crisis and diabetes is offered both, and the crisis stays on the final message', async () => {
    const values: Record<string, unknown> = { [k.p.sbp.id]: 190, [k.p.dbp.id]: 100, [k.p.a1c.id]: 7.4 };
    const s = await chat((id) => values[id] ?? 'unknown');
    expect(s.pending?.kind).toBe('choice');
    const labels = s.pending!.options.map((o) => o.label);
    expect(labels).toEqual(expect.arrayContaining([RULES.crisis, RULES.diabetesA1c]));
    const diabetes = s.pending!.options.find((o) => o.label === RULES.diabetesA1c)!;
    const done = expectStatus(
      await t.http().post(`/api/chat-sessions/${s.id}/choice`).set(cast.pcp.auth).send({ rule_id: diabetes.value }),
      200,
      'choose',
    ).body;
    const final = done.conversation_history.at(-1);
    expect(final.rules.map((r: { rule_name: string }) => r.rule_name)).toEqual(expect.arrayContaining([RULES.diabetesA1c, RULES.crisis]));
    expect(
      done.conversation_history.filter((m: { type: string }) => m.type === 'answer').map((m: { content: string }) => m.content),
    ).toEqual(expect.arrayContaining(['190 mmHg', '7.4 %']));
  });
});

describe('version pinning: an assessment stays on the rule-set versions it started with', () => {
  it('a new diagnosis version published mid-assessment changes neither that assessment nor its stored card; the next one uses it', async () => {
    const diagnosis = k.sets.diagnosis;
    const diabetesRule = diagnosis.rules.find((r) => r.name === RULES.diabetesA1c)!;
    let published = false;
    const during = await runAssessment(t, cast.pcp, { [k.p.a1c.id]: 6.9 }, async (a) => {
      if (published || a.step < 2) return;
      published = true;
      await updateRule(t, cast.admin, diabetesRule, { actions: [action('Diagnose diabetes (revised wording)', { severity: 'high' })] });
      await publish(t, cast.admin, diagnosis.ruleSet);
    });
    expect(published).toBe(true);
    const card = during.result.findings.find((f) => f.rule_name === RULES.diabetesA1c)!;
    expect(card.rule_version).toBe(1);
    expect(JSON.stringify(card)).not.toContain('revised wording');
    expect(during.result.rule_set_versions.find((v) => v.rule_set_id === diagnosis.ruleSet.id)?.version).toBe(1);

    const after = await run((p) => ({ [p.a1c.id]: 6.9 }));
    const next = after.result.findings.find((f) => f.rule_name === RULES.diabetesA1c)!;
    expect(next.rule_version).toBe(2);
    expect(JSON.stringify(next)).toContain('revised wording');
    // Case detail, read later, still shows what the first assessment was decided with.
    const stored = (await t.http().get(`/api/assessments/${during.result.id}`).set(cast.pcp.auth)).body;
    expect(stored.findings).toEqual(during.result.findings);
  });
});
