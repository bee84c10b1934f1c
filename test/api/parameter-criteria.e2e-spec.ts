import { startTestApp, type TestApp } from '../support/app';
import { createParameter } from '../support/clinical-factories';
import { counts, createCast } from '../support/factories';

// Issue 20: a parameter is bound to the patient's record by a criterion, kept in validation_rules.
let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
});
afterAll(async () => {
  await t?.close();
});

const ABNORMAL_A1C_DAYS = {
  resource_type: 'Observation',
  codes: ['http://loinc.org|4548-4', 'http://loinc.org|59261-8'],
  window: { anchor: 'now', days: 365 },
  take: 'distinct_days',
  where: { operator: '>=', value: 6.5 },
};

describe('a parameter read from the record by a criterion', () => {
  it('"days with an A1C ≥ 6.5 % in the last year" is stored and read back as written', async () => {
    const p = await createParameter(t, cast.admin, {
      data_type: 'number',
      validation_rules: { min: 0, max: 366, decimals: 0, criterion: ABNORMAL_A1C_DAYS },
    });
    const got = await t.http().get(`/api/parameters/${p.id}`).set(cast.admin.auth);
    expect(got.status).toBe(200);
    expect(got.body.validation_rules.criterion).toEqual(ABNORMAL_A1C_DAYS);
  });

  it.each([
    ['a code without its system', { ...ABNORMAL_A1C_DAYS, codes: ['4548-4'] }, 'validation_rules.criterion.codes'],
    ['an unknown take', { ...ABNORMAL_A1C_DAYS, take: 'average' }, 'validation_rules.criterion.take'],
    ['a filter on an Encounter', { ...ABNORMAL_A1C_DAYS, resource_type: 'Encounter', take: 'count' }, 'validation_rules.criterion.where'],
    [
      'a LOINC code with a wrong check digit (4548-5 for 4548-4)',
      { ...ABNORMAL_A1C_DAYS, codes: ['http://loinc.org|4548-5'] },
      'validation_rules.criterion.codes: LOINC code',
    ],
  ])('%s is refused with 400 naming the field, and nothing is stored', async (_name, criterion, field) => {
    const before = await counts(t, ['parameters']);
    const res = await t
      .http()
      .post('/api/parameters')
      .set(cast.admin.auth)
      .send({
        name: `crit_${Date.now()}`,
        display_name: 'Criterion',
        data_type: 'number',
        category: 'labs',
        validation_rules: { criterion },
      });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(JSON.stringify(res.body.details)).toContain(field);
    expect(await counts(t, ['parameters'])).toEqual(before);
  });

  it('a count of A1C results on a yes/no parameter is refused with 400 at the take, naming what fits; nothing is stored', async () => {
    const before = await counts(t, ['parameters']);
    const res = await t
      .http()
      .post('/api/parameters')
      .set(cast.admin.auth)
      .send({
        name: `crit_bool_${Date.now()}`,
        display_name: 'Had an abnormal A1C',
        data_type: 'boolean',
        category: 'history',
        validation_rules: { criterion: ABNORMAL_A1C_DAYS },
      });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      details: [
        {
          field: 'validation_rules.criterion.take',
          message:
            "distinct_days answers a number, but the parameter's answer is yes or no: take one of exists, latest_is, latest_without_value",
        },
      ],
    });
    expect(res.body.message).toMatch(/^validation_rules\.criterion\.take distinct_days answers a number/);
    expect(await counts(t, ['parameters'])).toEqual(before);
  });

  it('changing the data type under a criterion that no longer fits is refused; a fitting change is stored', async () => {
    const p = await createParameter(t, cast.admin, { data_type: 'number', validation_rules: { criterion: ABNORMAL_A1C_DAYS } });
    const refused = await t.http().put(`/api/parameters/${p.id}`).set(cast.admin.auth).send({ data_type: 'text' });
    expect(refused.status).toBe(400);
    expect(refused.body.details[0]).toMatchObject({ field: 'validation_rules.criterion' });
    const exists = { ...ABNORMAL_A1C_DAYS, take: 'exists' };
    const ok = await t
      .http()
      .put(`/api/parameters/${p.id}`)
      .set(cast.admin.auth)
      .send({ data_type: 'boolean', validation_rules: { criterion: exists } });
    expect(ok.status).toBe(200);
    expect(ok.body.validation_rules.criterion).toEqual(exists);
  });
});

describe('the value sets a criterion may name', () => {
  it('lists the shipped value sets by title, with URL, code count and code systems', async () => {
    const res = await t.http().get('/api/value-sets').set(cast.admin.auth);
    expect(res.status).toBe(200);
    const a1c = res.body.find((v: { title: string }) => v.title === 'HbA1c Laboratory Test');
    expect(a1c).toMatchObject({
      url: 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.198.12.1013',
      code_count: 5,
      systems: ['http://loinc.org'],
    });
    expect(['stored', 'shipped']).toContain(a1c.source);
    const titles = res.body.map((v: { title: string }) => v.title);
    expect(titles).toEqual([...titles].sort((a: string, b: string) => a.localeCompare(b)));
  });

  it('a value set loaded by an administrator is listed as stored', async () => {
    const url = `http://example.org/fhir/ValueSet/retinal-exam-${Date.now()}`;
    const stored = await t
      .http()
      .post('/api/fhir')
      .set(cast.admin.auth)
      .send({
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          {
            request: { method: 'POST', url: 'ValueSet' },
            resource: {
              resourceType: 'ValueSet',
              id: `retinal-${Date.now()}`,
              url,
              status: 'active',
              title: 'Retinal or dilated eye exam',
              expansion: {
                timestamp: '2026-01-01T00:00:00Z',
                contains: [
                  { system: 'http://snomed.info/sct', code: '252779009', display: 'Single bright white flash electroretinography' },
                ],
              },
            },
          },
        ],
      });
    expect(stored.status).toBe(200);
    const res = await t.http().get('/api/value-sets').set(cast.admin.auth);
    expect(res.body.find((v: { url: string }) => v.url === url)).toEqual({
      url,
      title: 'Retinal or dilated eye exam',
      version: null,
      code_count: 1,
      systems: ['http://snomed.info/sct'],
      source: 'stored',
    });
  });
});
