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
});
