import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/app';
import { createCast, type TestUser } from '../support/factories';
import { action, cond, createParameter, createPublishedRuleSet, type ParameterJson } from '../support/clinical-factories';
import { startFhirServer, type FhirServer } from '../support/fhir-server';
import { recordHookCalls, registerCdsClient, startCdsClient, type Card, type CdsClientKeys } from '../support/cds-hooks';

/**
 * Issue 20: an input read from the record by a criterion that names a value set of Observations (CMS122's
 * "HbA1c Laboratory Test", VSAC 2.16.840.1.113883.3.464.1003.198.12.1013, shipped with the product) is
 * read in a hook call by the codes of that value set's expansion, through the prefetch and the FHIR
 * server alike; a value set the product does not hold leaves only the rules needing it undetermined.
 */
const LOINC = 'http://loinc.org';
const HBA1C_VS = 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.198.12.1013';
const HBA1C_KEY = 'hist-vs-cts.nlm.nih.gov-fhir-ValueSet-2.16.840.1.113883.3.464.1003.198.12.1013';
const MISSING_VS = 'http://example.org/fhir/ValueSet/diabetes-eye-exam-not-loaded';
const FHIR_TOKEN = `fhir-${randomUUID()}`;
let t: TestApp;
let admin: TestUser;
let fhir: FhirServer;
let ehr: CdsClientKeys;
let latestA1c: ParameterJson;
let eyeExam: ParameterJson;
let patient: ReturnType<typeof recordHookCalls>['patient'];
let cardsFor: ReturnType<typeof recordHookCalls>['cardsFor'];

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
const result = (code: string, value: number, when: string, unit = '%') => ({
  resourceType: 'Observation',
  status: 'final',
  code: { coding: [{ system: LOINC, code }] },
  effectiveDateTime: when,
  valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
});
const above9 = (cards: Card[]) => cards.find((c) => c.summary.startsWith('A1C above 9 %'));
const infoText = (cards: Card[]) =>
  cards
    .filter((c) => c.indicator === 'info')
    .map((c) => `${c.summary}\n${c.detail}`)
    .join('\n');

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'error' });
  ({ admin } = await createCast(t));
  latestA1c = await createParameter(t, admin, {
    name: `a1c_latest_vs_${randomUUID().slice(0, 6)}`,
    display_name: 'Latest A1C in the last year',
    data_type: 'number',
    category: 'labs',
    units: '%',
    validation_rules: {
      min: 3,
      max: 20,
      decimals: 1,
      criterion: { resource_type: 'Observation', value_sets: [HBA1C_VS], window: { anchor: 'now', days: 365 }, take: 'latest' },
    },
  });
  eyeExam = await createParameter(t, admin, {
    name: `eye_exam_${randomUUID().slice(0, 6)}`,
    display_name: 'Retinal exam in the last year',
    data_type: 'boolean',
    category: 'history',
    validation_rules: {
      criterion: { resource_type: 'Observation', value_sets: [MISSING_VS], window: { anchor: 'now', days: 365 }, take: 'exists' },
    },
  });
  await createPublishedRuleSet(
    t,
    admin,
    [
      {
        name: 'A1C above 9 %',
        priority: 20,
        conditions: [cond(latestA1c, '>', 9)],
        actions: [action('A1C above 9 %: intensify glucose-lowering treatment', { severity: 'high' })],
      },
      {
        name: 'Retinal exam due',
        priority: 10,
        conditions: [cond(eyeExam, '=', false)],
        actions: [action('No retinal exam in the last year: refer for one', { severity: 'medium' })],
      },
    ],
    { name: 'Value-set history rules', source: 'CMS122v12; ADA Standards of Care in Diabetes—2026, Sections 6 and 12' },
  );
  fhir = await startFhirServer({ token: FHIR_TOKEN });
  ehr = await startCdsClient(`https://ehr.example.org/${randomUUID()}`);
  await registerCdsClient(t, admin, ehr, { allowed_fhir_servers: [`${fhir.url}/`] });
  ({ patient, cardsFor } = recordHookCalls(t, fhir, ehr, FHIR_TOKEN));
  // 17856-6 is "Hemoglobin A1c/Hemoglobin.total in Blood by HPLC": in the value set, not the parameter's usual 4548-4.
  await patient('a1c-coded-only-by-a-value-set-member-code', [result('17856-6', 9.6, daysAgo(10))]);
  await patient('older-high-a1c-then-a-newer-lower-one-under-another-member-code', [
    result('17856-6', 9.8, daysAgo(100)),
    result('4548-4', 7.1, daysAgo(5)),
  ]);
  // 2345-7 (serum glucose) is not in the value set: never taken for an A1C, whatever its number.
  await patient('only-a-glucose-result', [result('2345-7', 9.9, daysAgo(3), 'mg/dL')]);
}, 120_000);

afterAll(async () => {
  await fhir?.close();
  await ehr?.close();
  await t?.close();
});

describe('Observations read by a value set in a hook call', () => {
  it("discovery asks for the value set's codes only, newest first and bounded, never all the patient's Observations", async () => {
    const prefetch = (await t.http().get('/api/cds-services')).body.services[0].prefetch as Record<string, string>;
    expect(prefetch[HBA1C_KEY]).toBe(
      `Observation?patient={{context.patientId}}&code=${['17855-8', '17856-6', '4548-4', '4549-2', '96595-4'].map((c) => `${LOINC}|${c}`).join(',')}` +
        '&status=final,amended,corrected&_sort=-date&_count=100',
    );
    // The value set the product does not hold has no search: there are no codes to ask for.
    expect(Object.values(prefetch).filter((q) => q.startsWith('Observation?') && !q.includes('code='))).toEqual([]);
  });

  it('an A1C coded only by a value-set member code is read in a hook call', async () => {
    const before = fhir.requests.length;
    const cards = await cardsFor('a1c-coded-only-by-a-value-set-member-code');
    const card = above9(cards);
    expect(card).toBeDefined();
    expect(card!.detail).toContain(daysAgo(10).slice(0, 10));
    // The FHIR-server path searched by the value set's codes.
    expect(fhir.requests.slice(before).some((r) => r.includes('code=http://loinc.org|17855-8,http://loinc.org|17856-6'))).toBe(true);
  });

  it('the latest result of any member code is the one taken: an older high A1C does not fire the rule', async () => {
    expect(above9(await cardsFor('older-high-a1c-then-a-newer-lower-one-under-another-member-code'))).toBeUndefined();
  });

  it('a result outside the value set is not taken for an A1C: the rule is undetermined, never a guess', async () => {
    const cards = await cardsFor('only-a-glucose-result');
    expect(above9(cards)).toBeUndefined();
    expect(infoText(cards)).toMatch(/A1C above 9 %/);
  });

  it('a value set the product does not hold leaves only the rule needing it undetermined, and the info card names it', async () => {
    const cards = await cardsFor('a1c-coded-only-by-a-value-set-member-code');
    expect(above9(cards)).toBeDefined();
    expect(cards.find((c) => c.summary.startsWith('Retinal exam due'))).toBeUndefined();
    const info = infoText(cards);
    expect(info).toMatch(/Retinal exam due/);
    expect(info).toContain(`Retinal exam in the last year not read: value set ${MISSING_VS} is neither stored nor shipped`);
  });
});
