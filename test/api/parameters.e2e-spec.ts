import { startTestApp, type TestApp } from '../support/app';
import { counts, createCast } from '../support/factories';
import {
  action,
  cond,
  createFromTemplate,
  createParameter,
  createRule,
  createRuleSet,
  expectStatus,
  seedTemplates,
  uniqueName,
  type ParameterJson,
} from '../support/clinical-factories';

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
});
afterAll(async () => {
  await t?.close();
});

const TABLES = ['parameters', 'parameter_changes'];
const filter = (f: Record<string, unknown>) => ({ filter: JSON.stringify(f) });
const ids = (list: { id: string }[]) => list.map((p) => p.id);
/** The question-polishing worker fills polished_* (and so question_text) in the background. */
const withoutPolish = ({
  polished_question: _q,
  polished_provider: _p,
  polished_input_hash: _h,
  polished_at: _a,
  question_text: _t,
  ...rest
}: ParameterJson) => rest;

async function changesOf(parameterId: string) {
  const res = await t
    .http()
    .get('/api/parameter-changes')
    .query({ ...filter({ parameter_id: parameterId }), sort: '["changed_at","ASC"]' })
    .set(cast.admin.auth);
  return expectStatus(res, 200, 'list changes').body as Array<Record<string, any>>;
}

describe('reading parameters', () => {
  it('any signed-in user reads the active list, ordered by display name, with Content-Range', async () => {
    const tag = uniqueName('ord');
    const b = await createParameter(t, cast.admin, { name: `${tag}_b`, display_name: `${tag} Beta` });
    const a = await createParameter(t, cast.admin, { name: `${tag}_a`, display_name: `${tag} alpha` });
    const c = await createParameter(t, cast.admin, { name: `${tag}_c`, display_name: `${tag} Gamma` });
    expectStatus(
      await t.http().patch(`/api/parameters/${c.id}/activation`).set(cast.admin.auth).send({ is_active: false }),
      200,
      'deactivate',
    );
    for (const user of [cast.none, cast.pcp]) {
      const res = await t
        .http()
        .get('/api/parameters')
        .query(filter({ q: tag }))
        .set(user.auth);
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual([a.id, b.id]);
      expect(res.headers['content-range']).toBe('parameters 0-1/2');
    }
    const inactive = await t
      .http()
      .get('/api/parameters')
      .query(filter({ q: tag, is_active: false }))
      .set(cast.pcp.auth);
    expect(ids(inactive.body)).toEqual([c.id]);
    const all = await t
      .http()
      .get('/api/parameters')
      .query(filter({ q: tag, is_active: 'all' }))
      .set(cast.pcp.auth);
    expect(ids(all.body)).toEqual([a.id, b.id, c.id]);
    // react-admin getMany: a deactivated parameter a rule points at must still resolve.
    const many = await t
      .http()
      .get('/api/parameters')
      .query(filter({ id: [a.id, c.id] }))
      .set(cast.pcp.auth);
    expect(ids(many.body).sort()).toEqual([a.id, c.id].sort());
    const one = await t.http().get(`/api/parameters/${c.id}`).set(cast.none.auth);
    expect(one.status).toBe(200);
    expect(one.body.is_active).toBe(false);
  });

  it('q matches display name or name, case-insensitively; category, data_type and is_template filter', async () => {
    const tag = uniqueName('Needle');
    const byName = await createParameter(t, cast.admin, {
      name: `${tag}_x`,
      display_name: 'Something else',
      category: 'vitals',
      data_type: 'vitals',
    });
    const byDisplay = await createParameter(t, cast.admin, {
      display_name: `Has ${tag.toUpperCase()} inside`,
      category: 'labs',
      data_type: 'lab_range',
    });
    const tpl = await createParameter(t, cast.admin, { name: `${tag}_tpl`, is_template: true, template_name: 'general', category: 'labs' });
    const q = await t
      .http()
      .get('/api/parameters')
      .query(filter({ q: tag.toLowerCase() }))
      .set(cast.admin.auth);
    expect(ids(q.body).sort()).toEqual([byName.id, byDisplay.id, tpl.id].sort());
    const vitals = await t
      .http()
      .get('/api/parameters')
      .query(filter({ q: tag, category: 'vitals' }))
      .set(cast.admin.auth);
    expect(ids(vitals.body)).toEqual([byName.id]);
    const labRange = await t
      .http()
      .get('/api/parameters')
      .query(filter({ q: tag, data_type: 'lab_range' }))
      .set(cast.admin.auth);
    expect(ids(labRange.body)).toEqual([byDisplay.id]);
    const templates = await t
      .http()
      .get('/api/parameters')
      .query(filter({ q: tag, is_template: true }))
      .set(cast.admin.auth);
    expect(ids(templates.body)).toEqual([tpl.id]);
    const sorted = await t
      .http()
      .get('/api/parameters')
      .query({ ...filter({ q: tag }), sort: '["name","DESC"]', range: '[0,0]' })
      .set(cast.admin.auth);
    expect(sorted.body).toHaveLength(1);
    expect(sorted.headers['content-range']).toBe('parameters 0-0/3');
  });

  it.each([
    [{ filter: '{"colour":"red"}' }],
    [{ filter: '{"category":"bones"}' }],
    [{ filter: '{"data_type":"integer"}' }],
    [{ filter: '{"is_active":"maybe"}' }],
    [{ filter: '{"q":5}' }],
    [{ filter: '{"id":["not-a-uuid"]}' }],
    [{ sort: '["validation_rules","ASC"]' }],
  ])('bad list parameters get 400 validation_failed (%j)', async (query) => {
    const res = await t.http().get('/api/parameters').query(query).set(cast.pcp.auth);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('an unknown or malformed id is 404', async () => {
    expect((await t.http().get('/api/parameters/00000000-0000-4000-8000-000000000000').set(cast.pcp.auth)).status).toBe(404);
    expect((await t.http().get('/api/parameters/hba1c').set(cast.pcp.auth)).status).toBe(404);
  });
});

describe('creating a custom parameter', () => {
  it('stores every field, starts at version 1, active, and records a created change in the history', async () => {
    const name = uniqueName('Wt_lb');
    const res = await t
      .http()
      .post('/api/parameters')
      .set(cast.admin.auth)
      .send({
        name,
        display_name: 'Weight',
        description: 'Body weight',
        data_type: 'number',
        category: 'vitals',
        units: 'lb',
        is_required: false,
        validation_rules: { min: 50, max: 700 },
        loinc_code: '29463-7',
        change_reason: 'Needed for BMI',
      });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name,
      display_name: 'Weight',
      description: 'Body weight',
      data_type: 'number',
      category: 'vitals',
      units: 'lb',
      is_required: false,
      is_template: false,
      template_name: null,
      is_diabetes_specific: false,
      version: 1,
      is_active: true,
      validation_rules: { min: 50, max: 700 },
      loinc_code: '29463-7',
      created_by: cast.admin.id,
      question_text: 'What is your weight?',
      question_override: null,
      polished_question: null,
      polished_provider: null,
      polished_input_hash: null,
      polished_at: null,
    });
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    const [change] = await changesOf(res.body.id);
    expect(change).toMatchObject({
      parameter_id: res.body.id,
      parameter_name: name,
      change_type: 'created',
      old_values: null,
      changed_by: cast.admin.id,
      changed_by_email: cast.admin.email,
      change_reason: 'Needed for BMI',
    });
    expect(change.new_values).toMatchObject({
      name,
      display_name: 'Weight',
      data_type: 'number',
      version: 1,
      is_active: true,
      loinc_code: '29463-7',
    });
  });

  it('defaults: required, not a template, empty validation rules; super_admin may create; calculated is a data type', async () => {
    const p = await createParameter(t, cast.super_admin, { data_type: 'calculated', category: 'vitals' });
    expect(p).toMatchObject({
      is_required: true,
      is_template: false,
      validation_rules: {},
      description: null,
      units: null,
      loinc_code: null,
      data_type: 'calculated',
    });
  });

  it.each([
    [{ display_name: 'X', data_type: 'number', category: 'labs' }, 'Parameter name is required.'],
    [{ name: '   ', display_name: 'X', data_type: 'number', category: 'labs' }, 'Parameter name is required.'],
    [{ name: 'x', data_type: 'number', category: 'labs' }, 'Display name is required.'],
    [{ name: 'x', display_name: 'X', category: 'labs' }, 'Data type must be one of'],
    [{ name: 'x', display_name: 'X', data_type: 'number' }, 'Category must be one of'],
    [{ name: 'x', display_name: 'X', data_type: 'integer', category: 'labs' }, 'Data type must be one of'],
    [{ name: 'x', display_name: 'X', data_type: 'number', category: 'bones' }, 'Category must be one of'],
    [{ name: 'x', display_name: 'X', data_type: 'number', category: 'labs', is_required: 'yes' }, 'is_required'],
    [{ name: 'x', display_name: 'X', data_type: 'number', category: 'labs', is_required: null }, 'is_required'],
    [{ name: 'x', display_name: 'X', data_type: 'number', category: 'labs', validation_rules: [1] }, 'validation_rules must be an object'],
    [
      { name: 'x', display_name: 'X', data_type: 'select', category: 'labs', validation_rules: { options: [{ value: 1 }] } },
      'validation_rules.options',
    ],
    [
      { name: 'x', display_name: 'X', data_type: 'number', category: 'labs', loinc_code: 'HBA1C' },
      'LOINC code "HBA1C" must look like 4548-4',
    ],
    [{ name: 'x', display_name: 'X', data_type: 'number', category: 'labs', question_override: 'q'.repeat(201) }, 'question_override'],
    [{ name: 'x'.repeat(101), display_name: 'X', data_type: 'number', category: 'labs' }, 'name'],
    [{ name: 'x', display_name: 'X', data_type: 'number', category: 'labs', version: 7 }, "Unknown field 'version'"],
    [{ name: 'x', display_name: 'X', data_type: 'number', category: 'labs', is_active: false }, "Unknown field 'is_active'"],
  ])('bad input gets 400 with the api.md body and writes nothing (%j)', async (body, message) => {
    const before = await counts(t, TABLES);
    const res = await t.http().post('/api/parameters').set(cast.admin.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'validation_failed' });
    expect(res.body.message).toContain(message);
    expect(Array.isArray(res.body.details)).toBe(true);
    expect(await counts(t, TABLES)).toEqual(before);
  });

  it('an active name already taken (in any case) is 409 and writes nothing; a deactivated one frees the name', async () => {
    const first = await createParameter(t, cast.admin, { name: uniqueName('TSH') });
    const before = await counts(t, TABLES);
    const res = await t
      .http()
      .post('/api/parameters')
      .set(cast.admin.auth)
      .send({ name: first.name.toUpperCase(), display_name: 'Again', data_type: 'number', category: 'labs' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ statusCode: 409, code: 'conflict' });
    expect(res.body.message).toContain('already exists');
    expect(await counts(t, TABLES)).toEqual(before);
    expectStatus(
      await t.http().patch(`/api/parameters/${first.id}/activation`).set(cast.admin.auth).send({ is_active: false }),
      200,
      'deactivate',
    );
    const again = await createParameter(t, cast.admin, { name: first.name });
    expect(again.id).not.toBe(first.id);
    // ...and the old one cannot come back while the new one holds the name.
    const back = await t.http().patch(`/api/parameters/${first.id}/activation`).set(cast.admin.auth).send({ is_active: true });
    expect(back.status).toBe(409);
  });

  it('pcp and role-less users cannot write, and nothing is written', async () => {
    const before = await counts(t, TABLES);
    for (const user of [cast.pcp, cast.none]) {
      const res = await t
        .http()
        .post('/api/parameters')
        .set(user.auth)
        .send({ name: 'x', display_name: 'X', data_type: 'number', category: 'labs' });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect(await counts(t, TABLES)).toEqual(before);
  });
});

describe('templates', () => {
  // Issue 20: the seed also creates the 15 templates the ADA 2026 content pack reads; the spec's six are unchanged.
  it('seeds the six spec diabetes templates (plus the ADA pack templates) with their validation rules and LOINC codes, once', async () => {
    const before = await counts(t, TABLES);
    const res = await t.http().post('/api/parameters/templates/seed').set(cast.admin.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 24, message: 'Created 24 diabetes parameter templates.' });
    const after = await counts(t, TABLES);
    expect(after.parameters - before.parameters).toBe(24);
    expect(after.parameter_changes - before.parameter_changes).toBe(24);

    const byName: Record<string, ParameterJson> = Object.fromEntries(res.body.templates.map((p: ParameterJson) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual([
      'a1c_diabetes_range_days',
      'a1c_in_last_3_years',
      'age',
      'asian_american',
      'blood_pressure_diastolic',
      'blood_pressure_systolic',
      'bmi',
      'classic_hyperglycemia_symptoms',
      'diabetes_diagnosed',
      'diabetes_risk_factor',
      'egfr',
      'egfr_below_60_days',
      'fasting_glucose',
      'fpg_diabetes_range_days',
      'hba1c',
      'hba1c_ifcc',
      'hemoglobin',
      'hyperglycemic_crisis',
      'microalbumin',
      'ogtt_2h_glucose',
      'pregnancy_status',
      'random_glucose',
      'recent_transfusion',
      'sex_assigned_at_birth',
    ]);
    // Issue 9: UCUM units, plausible limits, decimals, a source, and half-open bands (lower bound in, upper out).
    const bands = (p: ParameterJson, key = 'ranges') =>
      (p.validation_rules[key] as { name: string; min: number; max: number; min_inclusive: boolean; max_inclusive: boolean }[]).map(
        (r) => `${r.name} ${r.min_inclusive ? '[' : '('}${r.min}, ${r.max}${r.max_inclusive ? ']' : ')'}`,
      );
    expect(byName.hba1c).toMatchObject({
      data_type: 'lab_range',
      category: 'labs',
      units: '%',
      is_required: true,
      is_template: true,
      is_active: true,
      is_diabetes_specific: true,
      version: 1,
      loinc_code: '4548-4',
      validation_rules: {
        min: 3,
        max: 20,
        decimals: 1,
        units_accepted: [{ code: 'mmol/mol', factor: 0.09148, offset: 2.152 }],
        source: expect.stringContaining('ADA Standards of Care in Diabetes—2026, Section 2'),
        time_constraint: 'last_3_months',
      },
    });
    expect(bands(byName.hba1c)).toEqual(['normal [3, 5.7)', 'prediabetes [5.7, 6.5)', 'diabetes [6.5, 20]']);
    expect(byName.fasting_glucose).toMatchObject({
      units: 'mg/dL',
      loinc_code: '1558-6',
      validation_rules: { min: 20, max: 800, decimals: 0, units_accepted: [{ code: 'mmol/L', factor: 18 }] },
    });
    expect(bands(byName.fasting_glucose)).toEqual([
      'hypoglycemia [20, 70)',
      'normal [70, 100)',
      'prediabetes [100, 126)',
      'diabetes [126, 800]',
    ]);
    expect(byName.blood_pressure_systolic).toMatchObject({
      data_type: 'vitals',
      units: 'mm[Hg]',
      loinc_code: '8480-6',
      validation_rules: { decimals: 0, source: expect.stringContaining('ACC/AHA') },
    });
    expect(bands(byName.blood_pressure_systolic)).toEqual([
      'target [50, 130)',
      'stage_1_hypertension [130, 140)',
      'stage_2_hypertension [140, 180)',
      'crisis [180, 300]',
    ]);
    expect(byName.blood_pressure_diastolic).toMatchObject({ units: 'mm[Hg]', loinc_code: '8462-4' });
    expect(bands(byName.blood_pressure_diastolic)).toEqual([
      'target [20, 80)',
      'stage_1_hypertension [80, 90)',
      'stage_2_hypertension [90, 120)',
      'crisis [120, 200]',
    ]);
    expect(byName.bmi).toMatchObject({ data_type: 'calculated', units: 'kg/m2', loinc_code: '39156-5', validation_rules: { decimals: 1 } });
    expect(bands(byName.bmi)).toEqual(['underweight [10, 18.5)', 'normal [18.5, 25)', 'overweight [25, 30)', 'obese [30, 80]']);
    expect(bands(byName.bmi, 'asian_american_ranges')).toEqual([
      'underweight [10, 18.5)',
      'normal [18.5, 23)',
      'overweight [23, 27.5)',
      'obese [27.5, 80]',
    ]);
    expect(byName.microalbumin).toMatchObject({
      units: 'mg/g',
      loinc_code: '9318-7',
      validation_rules: { min: 0, max: 5000, decimals: 0 },
    });
    expect(bands(byName.microalbumin)).toEqual(['normal [0, 30)', 'moderately_increased [30, 300)', 'severely_increased [300, 5000]']);
    // Issue 20: the pack's numeric templates, with the SI cut-points the guideline publishes as equivalents.
    expect(byName.ogtt_2h_glucose).toMatchObject({
      units: 'mg/dL',
      loinc_code: '20438-8',
      validation_rules: {
        decimals: 0,
        units_accepted: [
          {
            code: 'mmol/L',
            factor: 18,
            equivalents: [
              [7.8, 140],
              [11.1, 200],
            ],
          },
        ],
      },
    });
    expect(bands(byName.ogtt_2h_glucose)).toEqual(['normal [20, 140)', 'prediabetes [140, 200)', 'diabetes [200, 1000]']);
    expect(byName.random_glucose).toMatchObject({
      loinc_code: '2345-7',
      validation_rules: {
        units_accepted: [
          {
            code: 'mmol/L',
            factor: 18,
            equivalents: [
              [3.0, 54],
              [3.9, 70],
              [11.1, 200],
            ],
          },
        ],
      },
    });
    expect(byName.egfr).toMatchObject({ loinc_code: '98979-8', units: 'mL/min/{1.73_m2}', validation_rules: { min: 0, max: 200 } });
    expect(bands(byName.egfr)).toEqual(['g5 [0, 15)', 'g4 [15, 30)', 'g3b [30, 45)', 'g3a [45, 60)', 'g2 [60, 90)', 'g1 [90, 200]']);
    expect(byName.hba1c_ifcc).toMatchObject({ loinc_code: '59261-8', units: 'mmol/mol' });
    expect(bands(byName.hba1c_ifcc)).toEqual(['normal [9, 39)', 'prediabetes [39, 48)', 'diabetes [48, 195]']);
    expect(byName.hemoglobin).toMatchObject({ loinc_code: '718-7', units: 'g/dL', validation_rules: { decimals: 1 } });
    expect(byName.pregnancy_status).toMatchObject({ loinc_code: '82810-3', data_type: 'boolean' });
    expect(byName.classic_hyperglycemia_symptoms).toMatchObject({ loinc_code: null, data_type: 'boolean', category: 'symptoms' });
    for (const p of Object.values(byName)) expect(p.validation_rules.source).toEqual(expect.any(String));

    const again = await t.http().post('/api/parameters/templates/seed').set(cast.super_admin.auth);
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(0);
    expect(again.body.message).toBe('All diabetes parameter templates already exist; none were created.');
    expect(await counts(t, TABLES)).toEqual(after);
  });

  it('every template band list has no gap and no overlap at the template precision, and covers min to max', async () => {
    const templates = await seedTemplates(t, cast.admin);
    const numeric = Object.values(templates).filter((p) => typeof p.validation_rules.decimals === 'number');
    expect(numeric.map((p) => p.name).sort()).toEqual([
      'a1c_diabetes_range_days',
      'age',
      'blood_pressure_diastolic',
      'blood_pressure_systolic',
      'bmi',
      'egfr',
      'egfr_below_60_days',
      'fasting_glucose',
      'fpg_diabetes_range_days',
      'hba1c',
      'hba1c_ifcc',
      'hemoglobin',
      'microalbumin',
      'ogtt_2h_glucose',
      'random_glucose',
    ]);
    for (const p of numeric) {
      const rules = p.validation_rules as { min: number; max: number; decimals: number } & Record<string, unknown>;
      const step = 10 ** -rules.decimals;
      for (const key of Object.keys(rules).filter((k) => k.endsWith('ranges'))) {
        const list = rules[key] as { name: string; min: number; max: number; min_inclusive: boolean; max_inclusive: boolean }[];
        // Every recorded value from min to max, at the declared decimals, is in exactly one band.
        const scale = 10 ** rules.decimals;
        for (let units = Math.round(rules.min * scale); units <= Math.round(rules.max * scale); units += 1) {
          const v = units / scale;
          const hits = list.filter(
            (r) => (r.min_inclusive ? v >= r.min - 1e-9 : v > r.min + 1e-9) && (r.max_inclusive ? v <= r.max + 1e-9 : v < r.max - 1e-9),
          );
          if (hits.length !== 1) throw new Error(`${p.name} ${key}: ${v} is in ${hits.map((h) => h.name).join(', ') || 'no band'}`);
        }
        expect(list[0].min).toBe(rules.min);
        expect(list[list.length - 1].max).toBe(rules.max);
        expect(step).toBeGreaterThan(0);
      }
      expect(Object.keys(rules).some((k) => k.endsWith('ranges'))).toBe(true);
    }
  });

  it.each([
    ['4548-5', 400],
    ['4548-4', 201],
    ['1558-7', 400],
  ])('LOINC %s on create is %i (format and mod-10 check digit)', async (loinc, status) => {
    const res = await t
      .http()
      .post('/api/parameters')
      .set(cast.admin.auth)
      .send({ name: uniqueName('loinc'), display_name: 'Lab', data_type: 'number', category: 'labs', loinc_code: loinc });
    expect(res.status).toBe(status);
    if (status === 400) {
      expect(res.body).toMatchObject({ statusCode: 400, code: 'validation_failed' });
      expect(res.body.message).toContain(`LOINC code "${loinc}" has a wrong check digit`);
    }
  });

  it('LOINC check digit on update too: 4548-5 is 400 and nothing changes', async () => {
    const p = await createParameter(t, cast.admin, { loinc_code: '4548-4' });
    const res = await t.http().put(`/api/parameters/${p.id}`).set(cast.admin.auth).send({ loinc_code: '4548-5' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('the code for 4548 ends in -4');
    expect((await t.http().get(`/api/parameters/${p.id}`).set(cast.admin.auth)).body.loinc_code).toBe('4548-4');
  });

  it('lists templates by display name, flagging the diabetes-specific ones', async () => {
    await seedTemplates(t, cast.admin);
    const general = await createParameter(t, cast.admin, {
      display_name: 'AAA General',
      is_template: true,
      template_name: 'general_vitals',
    });
    const res = await t.http().get('/api/parameters/templates').set(cast.pcp.auth);
    expect(res.status).toBe(200);
    const names = res.body.map((p: ParameterJson) => p.display_name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(res.body.every((p: ParameterJson) => p.is_template)).toBe(true);
    expect(res.body.find((p: ParameterJson) => p.id === general.id).is_diabetes_specific).toBe(false);
    expect(res.body.find((p: ParameterJson) => p.name === 'hba1c').is_diabetes_specific).toBe(true);
  });

  it('creates a parameter from a template: a copy with overrides, not a template, version 1, active', async () => {
    const { bmi } = await seedTemplates(t, cast.admin);
    const p = await createFromTemplate(t, cast.admin, bmi, {
      name: uniqueName('bmi_adult'),
      display_name: 'Adult BMI',
      units: 'kg/m2',
      validation_rules: { obese_range: { min: 30 } },
    });
    expect(p).toMatchObject({
      display_name: 'Adult BMI',
      units: 'kg/m2',
      validation_rules: { obese_range: { min: 30 } },
      data_type: 'calculated',
      category: 'vitals',
      description: bmi.description,
      loinc_code: '39156-5',
      // The template's own "Required" (BMI: No) carries over unless overridden (issue 23).
      is_required: false,
      is_template: false,
      version: 1,
      is_active: true,
      created_by: cast.admin.id,
    });
    expect(p.id).not.toBe(bmi.id);
    const [change] = await changesOf(p.id);
    expect(change).toMatchObject({ change_type: 'created', change_reason: 'Created from template "BMI"' });
    // The template itself is untouched.
    expect((await t.http().get(`/api/parameters/${bmi.id}`).set(cast.admin.auth)).body).toMatchObject({
      is_template: true,
      units: 'kg/m2',
      version: 1,
    });
  });

  it("the copy keeps the template's Required, both ways, unless the admin overrides it", async () => {
    const { bmi, hba1c } = await seedTemplates(t, cast.admin);
    expect([bmi.is_required, hba1c.is_required]).toEqual([false, true]);
    expect((await createFromTemplate(t, cast.admin, bmi, { name: uniqueName('bmi_req') })).is_required).toBe(false);
    expect((await createFromTemplate(t, cast.admin, hba1c, { name: uniqueName('hba1c_req') })).is_required).toBe(true);
    expect((await createFromTemplate(t, cast.admin, bmi, { name: uniqueName('bmi_over'), is_required: true })).is_required).toBe(true);
  });

  it('without overrides the copy keeps the template name; a second copy is 409 while the first is active', async () => {
    const { microalbumin } = await seedTemplates(t, cast.admin);
    const first = await createFromTemplate(t, cast.admin, microalbumin);
    expect(first).toMatchObject({ name: 'microalbumin', display_name: 'Microalbumin', is_template: false });
    const before = await counts(t, TABLES);
    const res = await t.http().post('/api/parameters/from-template').set(cast.admin.auth).send({ template_id: microalbumin.id });
    expect(res.status).toBe(409);
    expect(await counts(t, TABLES)).toEqual(before);
  });

  it.each([
    [{}, 400],
    [{ template_id: 'hba1c' }, 400],
    [{ template_id: '00000000-0000-4000-8000-000000000000' }, 404],
    [{ template_id: 'TEMPLATE', overrides: { data_type: 'text' } }, 400],
    [{ template_id: 'TEMPLATE', overrides: { name: '' } }, 400],
    [{ template_id: 'TEMPLATE', overrides: 'big' }, 400],
    [{ template_id: 'CUSTOM' }, 404],
  ])('from-template refuses bad input and writes nothing (%j)', async (body, status) => {
    const { hba1c } = await seedTemplates(t, cast.admin);
    const custom = await createParameter(t, cast.admin);
    const raw = JSON.stringify(body).replace('"TEMPLATE"', JSON.stringify(hba1c.id)).replace('"CUSTOM"', JSON.stringify(custom.id));
    const before = await counts(t, TABLES);
    const res = await t.http().post('/api/parameters/from-template').set(cast.admin.auth).set('Content-Type', 'application/json').send(raw);
    expect(res.status).toBe(status);
    expect(typeof res.body.code).toBe('string');
    expect(await counts(t, TABLES)).toEqual(before);
  });
});

describe('editing', () => {
  it('PUT bumps the version and records only what changed, old and new, with the reason', async () => {
    const p = await createParameter(t, cast.admin, { units: 'mg/dL', validation_rules: { max: 400 } });
    const res = await t
      .http()
      .put(`/api/parameters/${p.id}`)
      .set(cast.admin.auth)
      .send({
        display_name: 'Glucose (fasting)',
        units: 'mmol/L',
        validation_rules: { max: 22 },
        description: p.description,
        change_reason: 'SI units',
      });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ display_name: 'Glucose (fasting)', units: 'mmol/L', validation_rules: { max: 22 }, version: 2 });
    const [, change] = await changesOf(p.id);
    expect(change).toMatchObject({
      change_type: 'updated',
      change_reason: 'SI units',
      changed_by_email: cast.admin.email,
      old_values: { display_name: p.display_name, units: 'mg/dL', validation_rules: { max: 400 }, version: 1 },
      new_values: { display_name: 'Glucose (fasting)', units: 'mmol/L', validation_rules: { max: 22 }, version: 2 },
    });
    expect(Object.keys(change.new_values).sort()).toEqual(['display_name', 'units', 'validation_rules', 'version']);
    const again = await t
      .http()
      .put(`/api/parameters/${p.id}`)
      .set(cast.admin.auth)
      .send({ display_name: 'Glucose (fasting)', units: 'mmol/L' });
    expect(again.body.version).toBe(2);
    expect(await changesOf(p.id)).toHaveLength(2);
  });

  it('question_override (string or null, at most 200 characters) drives question_text', async () => {
    const p = await createParameter(t, cast.admin, { display_name: 'Fasting Glucose' });
    expect(p.question_text).toBe('What is your fasting glucose?');
    const set = await t
      .http()
      .put(`/api/parameters/${p.id}`)
      .set(cast.admin.auth)
      .send({ question_override: 'What was your glucose this morning, before eating?' });
    expect(set.body).toMatchObject({
      question_override: 'What was your glucose this morning, before eating?',
      question_text: 'What was your glucose this morning, before eating?',
      version: 2,
    });
    const cleared = await t.http().put(`/api/parameters/${p.id}`).set(cast.admin.auth).send({ question_override: null });
    expect(cleared.body).toMatchObject({ question_override: null, version: 3 });
    expect(cleared.body.question_text).toBe(cleared.body.polished_question ?? 'What is your fasting glucose?');
    const long = await t
      .http()
      .put(`/api/parameters/${p.id}`)
      .set(cast.admin.auth)
      .send({ question_override: 'x'.repeat(201) });
    expect(long.status).toBe(400);
  });

  it.each([
    [{ name: '' }, 400],
    [{ display_name: '  ' }, 400],
    [{ data_type: 'integer' }, 400],
    [{ is_required: 'no' }, 400],
    [{ validation_rules: null }, 400],
    [{ name: 'TAKEN' }, 409],
    // Read-only fields a client echoes back are ignored whatever their value (issue 23: react-admin
    // sends the record it loaded, which may be older than the stored one); they never change it.
    [{ version: 9 }, 200],
    [{ is_active: false }, 200],
    [{ is_template: true }, 200],
    [{ polished_question: 'Hi?' }, 200],
  ])('bad edits are refused, and read-only echoes ignored: nothing changes (%j)', async (body, status) => {
    const taken = await createParameter(t, cast.admin);
    const p = await createParameter(t, cast.admin);
    const raw = JSON.parse(JSON.stringify(body).replace('"TAKEN"', JSON.stringify(taken.name.toUpperCase())));
    const before = await counts(t, TABLES);
    const res = await t.http().put(`/api/parameters/${p.id}`).set(cast.admin.auth).send(raw);
    expect(res.status).toBe(status);
    expect(await counts(t, TABLES)).toEqual(before);
    expect(withoutPolish((await t.http().get(`/api/parameters/${p.id}`).set(cast.admin.auth)).body)).toEqual(withoutPolish(p));
  });

  it('an unknown parameter is 404', async () => {
    const res = await t.http().put('/api/parameters/00000000-0000-4000-8000-000000000000').set(cast.admin.auth).send({ units: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, code: 'not_found' });
  });
});

describe('cloning', () => {
  it('makes a real, independent copy under a new name', async () => {
    const source = await createParameter(t, cast.admin, {
      display_name: 'Thyroid Stimulating Hormone',
      data_type: 'lab_range',
      units: 'mIU/L',
      validation_rules: { normal_range: { min: 0.4, max: 4 } },
      loinc_code: '3016-3',
      question_override: 'What was the latest TSH?',
      is_required: false,
    });
    expectStatus(await t.http().put(`/api/parameters/${source.id}`).set(cast.admin.auth).send({ units: 'mU/L' }), 200, 'edit source');
    const name = uniqueName('TSH_copy');
    const res = await t.http().post(`/api/parameters/${source.id}/clone`).set(cast.admin.auth).send({ name });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name,
      display_name: 'Thyroid Stimulating Hormone (copy)',
      data_type: 'lab_range',
      category: 'labs',
      units: 'mU/L',
      validation_rules: { normal_range: { min: 0.4, max: 4 } },
      loinc_code: '3016-3',
      question_override: 'What was the latest TSH?',
      is_required: false,
      is_template: false,
      version: 1,
      is_active: true,
      created_by: cast.admin.id,
    });
    expect(res.body.id).not.toBe(source.id);
    expectStatus(
      await t.http().put(`/api/parameters/${res.body.id}`).set(cast.admin.auth).send({ units: 'pmol/L', validation_rules: {} }),
      200,
      'edit clone',
    );
    const sourceNow = (await t.http().get(`/api/parameters/${source.id}`).set(cast.admin.auth)).body;
    expect(sourceNow).toMatchObject({ units: 'mU/L', validation_rules: { normal_range: { min: 0.4, max: 4 } }, version: 2 });
    const [change] = await changesOf(res.body.id);
    expect(change).toMatchObject({ change_type: 'created', change_reason: `Cloned from "${source.name}"` });
    const named = await t
      .http()
      .post(`/api/parameters/${source.id}/clone`)
      .set(cast.admin.auth)
      .send({ name: uniqueName('tsh2'), display_name: 'TSH (paediatric)' });
    expect(named.body.display_name).toBe('TSH (paediatric)');
    const long = await createParameter(t, cast.admin, { display_name: 'd'.repeat(200) });
    const longCopy = await t
      .http()
      .post(`/api/parameters/${long.id}/clone`)
      .set(cast.admin.auth)
      .send({ name: uniqueName('long') });
    expect(longCopy.status).toBe(201);
    expect(longCopy.body.display_name).toBe(`${'d'.repeat(193)} (copy)`);
  });

  it.each([
    [{}, 400],
    [{ name: '  ' }, 400],
    [{ name: 'SOURCE' }, 409],
    [{ name: 'fresh_name', colour: 'red' }, 400],
  ])('refuses bad clones and writes nothing (%j)', async (body, status) => {
    const source = await createParameter(t, cast.admin);
    const raw = JSON.parse(
      JSON.stringify(body).replace('"SOURCE"', JSON.stringify(source.name)).replace('fresh_name', uniqueName('fresh')),
    );
    const before = await counts(t, TABLES);
    const res = await t.http().post(`/api/parameters/${source.id}/clone`).set(cast.admin.auth).send(raw);
    expect(res.status).toBe(status);
    expect(await counts(t, TABLES)).toEqual(before);
  });

  it('cloning an unknown parameter is 404', async () => {
    const res = await t
      .http()
      .post('/api/parameters/00000000-0000-4000-8000-000000000000/clone')
      .set(cast.admin.auth)
      .send({ name: uniqueName('x') });
    expect(res.status).toBe(404);
  });
});

describe('activation', () => {
  it('deactivates and activates, recording each change once', async () => {
    const p = await createParameter(t, cast.admin);
    const off = await t
      .http()
      .patch(`/api/parameters/${p.id}/activation`)
      .set(cast.admin.auth)
      .send({ is_active: false, change_reason: 'Retired' });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: p.id, is_active: false, version: 1 });
    const twice = await t.http().patch(`/api/parameters/${p.id}/activation`).set(cast.admin.auth).send({ is_active: false });
    expect(twice.status).toBe(200);
    const on = await t.http().patch(`/api/parameters/${p.id}/activation`).set(cast.admin.auth).send({ is_active: true });
    expect(on.body.is_active).toBe(true);
    const history = await changesOf(p.id);
    expect(history.map((c) => c.change_type)).toEqual(['created', 'deactivated', 'activated']);
    expect(history[1]).toMatchObject({ old_values: { is_active: true }, new_values: { is_active: false }, change_reason: 'Retired' });
    expect(history[2]).toMatchObject({ old_values: { is_active: false }, new_values: { is_active: true } });
  });

  it.each([[{}], [{ is_active: 'no' }], [{ is_active: null }], [{ is_active: true, reason: 'x' }]])(
    'bad bodies get 400 (%j)',
    async (body) => {
      const p = await createParameter(t, cast.admin);
      const before = await counts(t, TABLES);
      const res = await t.http().patch(`/api/parameters/${p.id}/activation`).set(cast.admin.auth).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(await counts(t, TABLES)).toEqual(before);
    },
  );
});

describe('deleting', () => {
  it('deletes an unused parameter; its history survives with a deleted entry', async () => {
    const p = await createParameter(t, cast.admin, { units: 'mg' });
    const res = await t.http().delete(`/api/parameters/${p.id}`).set(cast.admin.auth).send({ change_reason: 'Created by mistake' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: p.id, name: p.name });
    expect((await t.http().get(`/api/parameters/${p.id}`).set(cast.admin.auth)).status).toBe(404);
    const history = await changesOf(p.id);
    expect(history.map((c) => c.change_type)).toEqual(['created', 'deleted']);
    expect(history[1]).toMatchObject({
      parameter_name: p.name,
      new_values: null,
      change_reason: 'Created by mistake',
      old_values: { name: p.name, units: 'mg', version: 1 },
    });
    expect((await t.http().delete(`/api/parameters/${p.id}`).set(cast.admin.auth)).status).toBe(404);
  });
});

describe('parameters that rules use', () => {
  it('cannot be deleted (409 naming the rules, nothing written), even when the rule was soft-deleted; deactivating is allowed', async () => {
    const p = await createParameter(t, cast.admin, { display_name: 'HbA1c', data_type: 'lab_range' });
    const set = await createRuleSet(t, cast.admin);
    const rule = await createRule(t, cast.admin, set, {
      name: 'Diabetes range',
      conditions: [cond(p, '>=', 6.5)],
      actions: [action('Refer')],
    });
    const before = await counts(t, [...TABLES, 'rules']);
    const res = await t.http().delete(`/api/parameters/${p.id}`).set(cast.admin.auth);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      statusCode: 409,
      code: 'conflict',
      details: { rules: [{ id: rule.id, name: 'Diabetes range', rule_set_id: set.id }] },
    });
    expect(res.body.message).toBe('HbA1c is used by 1 rule ("Diabetes range"); deactivate it instead of deleting it.');
    expectStatus(await t.http().delete(`/api/rules/${rule.id}`).set(cast.admin.auth), 200, 'soft-delete rule');
    expect((await t.http().delete(`/api/parameters/${p.id}`).set(cast.admin.auth)).status).toBe(409);
    expect(await counts(t, [...TABLES, 'rules'])).toEqual(before);
    expect((await t.http().patch(`/api/parameters/${p.id}/activation`).set(cast.admin.auth).send({ is_active: false })).status).toBe(200);
  });

  it('cannot change data type while a rule uses it; other edits are fine', async () => {
    const used = await createParameter(t, cast.admin, { data_type: 'number' });
    const set = await createRuleSet(t, cast.admin);
    await createRule(t, cast.admin, set, { conditions: [cond(used, '>', 100)], actions: [action('High')] });
    const before = await counts(t, TABLES);
    const res = await t.http().put(`/api/parameters/${used.id}`).set(cast.admin.auth).send({ data_type: 'text' });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('cannot change while 1 rule');
    expect(await counts(t, TABLES)).toEqual(before);
    expect(
      (await t.http().put(`/api/parameters/${used.id}`).set(cast.admin.auth).send({ data_type: 'number', units: 'mg/dL' })).body.version,
    ).toBe(2);
    const unused = await createParameter(t, cast.admin, { data_type: 'number' });
    expect((await t.http().put(`/api/parameters/${unused.id}`).set(cast.admin.auth).send({ data_type: 'text' })).body).toMatchObject({
      data_type: 'text',
      version: 2,
    });
  });
});

describe('change history', () => {
  it('is admin-only', async () => {
    for (const user of [cast.pcp, cast.none]) expect((await t.http().get('/api/parameter-changes').set(user.auth)).status).toBe(403);
  });

  it('searches parameter name and changer, filters change type, newest first, and reads one by id', async () => {
    const p = await createParameter(t, cast.super_admin, { name: uniqueName('searchable') });
    await t.http().patch(`/api/parameters/${p.id}/activation`).set(cast.admin.auth).send({ is_active: false });
    const byName = await t
      .http()
      .get('/api/parameter-changes')
      .query(filter({ q: p.name.toUpperCase() }))
      .set(cast.admin.auth);
    expect(byName.body.map((c: { change_type: string }) => c.change_type)).toEqual(['deactivated', 'created']);
    expect(byName.headers['content-range']).toBe('parameter-changes 0-1/2');
    const byChanger = await t
      .http()
      .get('/api/parameter-changes')
      .query(filter({ q: cast.super_admin.email }))
      .set(cast.admin.auth);
    expect(byChanger.body.length).toBeGreaterThan(0);
    expect(byChanger.body.every((c: { changed_by_email: string }) => c.changed_by_email === cast.super_admin.email)).toBe(true);
    const typed = await t
      .http()
      .get('/api/parameter-changes')
      .query(filter({ q: p.name, change_type: 'deactivated' }))
      .set(cast.admin.auth);
    expect(typed.body).toHaveLength(1);
    expect(typed.body[0]).toMatchObject({ parameter_id: p.id, changed_by: cast.admin.id, changed_by_email: cast.admin.email });
    const one = await t.http().get(`/api/parameter-changes/${typed.body[0].id}`).set(cast.admin.auth);
    expect(one.body).toEqual(typed.body[0]);
    expect((await t.http().get('/api/parameter-changes/00000000-0000-4000-8000-000000000000').set(cast.admin.auth)).status).toBe(404);
  });

  it('filters by period: today, this week (last 7 days), this month (the calendar month)', async () => {
    const tag = uniqueName('period');
    const now = Date.now();
    const monthStart = (() => {
      const d = new Date(now);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    })();
    const todayStart = (() => {
      const d = new Date(now);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    })();
    const when: Record<string, number> = {
      now: now - 1000,
      threeDays: now - 3 * 86_400_000,
      tenDays: now - 10 * 86_400_000,
      monthStart: monthStart + 60_000,
      lastMonth: monthStart - 60_000,
    };
    const changeIds: Record<string, string> = {};
    for (const [key, at] of Object.entries(when)) {
      const p = await createParameter(t, cast.admin, { name: `${tag}_${key}` });
      const [c] = await changesOf(p.id);
      await t.db.query('UPDATE parameter_changes SET changed_at = $1 WHERE id = $2', [new Date(at), c.id]);
      changeIds[key] = c.id;
    }
    const expected = (since: number | null) =>
      Object.keys(when)
        .filter((k) => since === null || when[k] >= since)
        .map((k) => changeIds[k])
        .sort();
    for (const [period, since] of [
      ['all', null],
      ['today', todayStart],
      ['week', now - 7 * 86_400_000],
      ['month', monthStart],
    ] as const) {
      const res = await t
        .http()
        .get('/api/parameter-changes')
        .query({ ...filter({ q: tag, period }), range: '[0,99]' })
        .set(cast.admin.auth);
      expect(res.status).toBe(200);
      expect(ids(res.body).sort()).toEqual(expected(since));
    }
    // The month filter really filters: last month's change is left out.
    const month = await t
      .http()
      .get('/api/parameter-changes')
      .query(filter({ q: tag, period: 'month' }))
      .set(cast.admin.auth);
    expect(ids(month.body)).not.toContain(changeIds.lastMonth);
    expect(ids(month.body)).toContain(changeIds.monthStart);
  });

  it.each([
    [{ filter: '{"period":"year"}' }],
    [{ filter: '{"change_type":"renamed"}' }],
    [{ filter: '{"parameter_id":"hba1c"}' }],
    [{ filter: '{"who":"me"}' }],
    [{ sort: '["old_values","ASC"]' }],
  ])('bad list parameters get 400 (%j)', async (query) => {
    const res = await t.http().get('/api/parameter-changes').query(query).set(cast.admin.auth);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });
});
