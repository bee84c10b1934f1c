import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/app';
import { createCast, type TestUser } from '../support/factories';
import { action, cond, createParameter, createPublishedRuleSet, type ParameterJson } from '../support/clinical-factories';
import { startFhirServer, type FhirServer } from '../support/fhir-server';
import { recordHookCalls, registerCdsClient, startCdsClient, type Card, type CdsClientKeys } from '../support/cds-hooks';

/**
 * Issue 20: rules over the patient's history in a hook call. "Diabetes (confirmed)" needs two
 * abnormal A1C results on different days (ADA 2026 §2); the input "days with an A1C ≥ 6.5 % in the
 * last year" is read from the record by its criterion, through the prefetch and the FHIR server alike.
 */
const LOINC = 'http://loinc.org';
const FHIR_TOKEN = `fhir-${randomUUID()}`;
let t: TestApp;
let admin: TestUser;
let fhir: FhirServer;
let ehr: CdsClientKeys;
let days: ParameterJson;
let egfr: ParameterJson;

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
const a1c = (value: number, when: string, extra: Record<string, unknown> = {}) => ({
  resourceType: 'Observation',
  status: 'final',
  code: { coding: [{ system: LOINC, code: '4548-4' }] },
  effectiveDateTime: when,
  valueQuantity: { value, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
  ...extra,
});

let patient: ReturnType<typeof recordHookCalls>['patient'];
let cardsFor: ReturnType<typeof recordHookCalls>['cardsFor'];

const confirmed = (cards: Card[]) => cards.find((c) => c.summary.startsWith('Diabetes (confirmed)'));

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'error' });
  ({ admin } = await createCast(t));
  days = await createParameter(t, admin, {
    name: `a1c_abnormal_days_${randomUUID().slice(0, 6)}`,
    display_name: 'Days with an A1C ≥ 6.5 % in the last year',
    data_type: 'number',
    category: 'labs',
    validation_rules: {
      min: 0,
      max: 366,
      decimals: 0,
      criterion: {
        resource_type: 'Observation',
        codes: [`${LOINC}|4548-4`, `${LOINC}|59261-8`],
        window: { anchor: 'now', days: 365 },
        take: 'distinct_days',
        where: { operator: '>=', value: 6.5 },
        unit: '%',
        units_accepted: [{ code: 'mmol/mol', factor: 0.09148, offset: 2.152, equivalents: [[48, 6.5]] }],
      },
    },
  });
  egfr = await createParameter(t, admin, {
    name: `egfr_${randomUUID().slice(0, 6)}`,
    display_name: 'eGFR',
    data_type: 'lab_range',
    category: 'labs',
    units: 'mL/min/{1.73_m2}',
    loinc_code: '62238-1',
    validation_rules: { min: 0, max: 200, decimals: 0 },
  });
  await createPublishedRuleSet(
    t,
    admin,
    [
      {
        name: 'eGFR below 10',
        priority: 30,
        conditions: [cond(egfr, '<', 10)],
        actions: [action('Plan kidney replacement therapy', { severity: 'critical' })],
      },
      {
        name: 'Diabetes (confirmed)',
        priority: 20,
        conditions: [cond(days, '>=', 2)],
        actions: [action('Two abnormal A1C results on different days confirm diabetes: start diabetes care', { severity: 'high' })],
      },
    ],
    { name: 'History rules', source: 'ADA Standards of Care in Diabetes—2026, Section 2' },
  );
  fhir = await startFhirServer({ token: FHIR_TOKEN });
  ehr = await startCdsClient(`https://ehr.example.org/${randomUUID()}`);
  await registerCdsClient(t, admin, ehr, { allowed_fhir_servers: [`${fhir.url}/`] });
  ({ patient, cardsFor } = recordHookCalls(t, fhir, ehr, FHIR_TOKEN));
  await patient('egfr-reported-as-below-15', [
    {
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: LOINC, code: '62238-1' }] },
      effectiveDateTime: daysAgo(3),
      valueQuantity: { value: 15, comparator: '<', unit: 'mL/min/1.73m2' },
    },
  ]);
  await patient('two-abnormal-a1c-on-different-days', [a1c(6.7, daysAgo(60)), a1c(6.9, daysAgo(5)), a1c(5.4, daysAgo(400))]);
  await patient('one-abnormal-a1c', [a1c(6.6, daysAgo(5)), a1c(5.9, daysAgo(90))]);
  // At 08:00 and 09:00 (UTC) of one day: an hour after "now" minus 5 days would cross midnight when the suite runs after 23:00.
  const morning = (hour: string) => `${daysAgo(5).slice(0, 10)}T${hour}:00:00Z`;
  await patient('two-abnormal-a1c-the-same-morning', [a1c(6.8, morning('08')), a1c(6.6, morning('09'))]);
  await patient('second-abnormal-a1c-entered-in-error', [a1c(6.7, daysAgo(60)), a1c(7.1, daysAgo(5), { status: 'entered-in-error' })]);
  await patient('second-abnormal-a1c-in-an-unknown-unit', [
    a1c(6.7, daysAgo(60)),
    a1c(7.1, daysAgo(5), { valueQuantity: { value: 7.1, unit: 'g/dL' } }),
  ]);
}, 120_000);

afterAll(async () => {
  await fhir?.close();
  await ehr?.close();
  await t?.close();
});

describe('rules over the history in a hook call', () => {
  it('discovery asks for the A1C history the criterion reads, newest first and bounded', async () => {
    const prefetch = (await t.http().get('/api/cds-services')).body.services[0].prefetch as Record<string, string>;
    expect(prefetch['hist-4548-4_59261-8']).toBe(
      'Observation?patient={{context.patientId}}&code=http://loinc.org|4548-4,http://loinc.org|59261-8&status=final,amended,corrected&_sort=-date&_count=100',
    );
  });

  it('two abnormal A1C results on different days confirm diabetes, and the card shows both dates', async () => {
    const card = confirmed(await cardsFor('two-abnormal-a1c-on-different-days'));
    expect(card).toBeDefined();
    expect(card!.detail).toContain(daysAgo(60).slice(0, 10));
    expect(card!.detail).toContain(daysAgo(5).slice(0, 10));
  });

  it('one abnormal A1C does not confirm diabetes', async () => {
    expect(confirmed(await cardsFor('one-abnormal-a1c'))).toBeUndefined();
  });

  it('two abnormal results drawn the same morning are one day: not confirmed this way', async () => {
    expect(confirmed(await cardsFor('two-abnormal-a1c-the-same-morning'))).toBeUndefined();
  });

  it('a result entered in error does not count', async () => {
    expect(confirmed(await cardsFor('second-abnormal-a1c-entered-in-error'))).toBeUndefined();
  });

  it('a result in a unit that cannot be read leaves the rule undetermined and is named, never a silent no', async () => {
    const cards = await cardsFor('second-abnormal-a1c-in-an-unknown-unit');
    expect(confirmed(cards)).toBeUndefined();
    const info = cards
      .filter((c) => c.indicator === 'info')
      .map((c) => `${c.summary}\n${c.detail}`)
      .join('\n');
    expect(info).toMatch(/Diabetes \(confirmed\)/);
    expect(info).toMatch(/set aside/);
  });

  it('an eGFR reported as "< 15" against a rule at 10 cannot be decided: said so, never a 500 or a guess', async () => {
    const cards = await cardsFor('egfr-reported-as-below-15');
    expect(cards.find((c) => c.summary.startsWith('eGFR below 10'))).toBeUndefined();
    expect(
      cards
        .filter((c) => c.indicator === 'info')
        .map((c) => c.detail)
        .join('\n'),
    ).toMatch(/eGFR below 10/);
  });
});
