import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/app';
import { createCast } from '../support/factories';
import { startFhirServer, type FhirServer } from '../support/fhir-server';
import { recordHookCalls, registerCdsClient, startCdsClient, type Card, type CdsClientKeys } from '../support/cds-hooks';
import { F, installAndPublishPack } from '../clinical/ada-pack';

/**
 * Issue 20: the shipped ADA 2026 pack reads the record over time in a hook call. EHR-shaped
 * histories (several results, mixed units, statuses, comparators) go through the prefetch and
 * through the FHIR server; both give the same cards.
 */
const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const FHIR_TOKEN = `fhir-${randomUUID()}`;
let t: TestApp;
let fhir: FhirServer;
let ehr: CdsClientKeys;

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
const day = (n: number) => daysAgo(n).slice(0, 10);
const lab = (code: string, value: number, unit: string, when: string, extra: Record<string, unknown> = {}) => ({
  resourceType: 'Observation',
  status: 'final',
  category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
  code: { coding: [{ system: LOINC, code }] },
  effectiveDateTime: when,
  valueQuantity: { value, unit, system: UCUM, code: unit },
  ...extra,
});
const a1c = (value: number, when: string, extra: Record<string, unknown> = {}) => lab('4548-4', value, '%', when, extra);
const ifcc = (value: number, when: string) => lab('59261-8', value, 'mmol/mol', when);
const fpgMmol = (value: number, when: string) => lab('14771-0', value, 'mmol/L', when);
const vital = (code: string, value: number, when: string) => ({
  ...lab(code, value, 'mm[Hg]', when),
  category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] }],
  valueQuantity: { value, unit: 'mmHg', system: UCUM, code: 'mm[Hg]' },
});
const bp = (sbp: number, dbp: number, when: string) => [vital('8480-6', sbp, when), vital('8462-4', dbp, when)];
const condition = (system: string, code: string, extra: Record<string, unknown> = {}) => ({
  resourceType: 'Condition',
  clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
  verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: 'confirmed' }] },
  category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'problem-list-item' }] }],
  code: { coding: [{ system, code }] },
  onsetDateTime: daysAgo(900),
  recordedDate: daysAgo(900),
  ...extra,
});
const ICD10 = 'http://hl7.org/fhir/sid/icd-10-cm';
const egfr = (value: number, when: string, extra: Record<string, unknown> = {}) => lab('98979-8', value, 'mL/min/{1.73_m2}', when, extra);

let patient: ReturnType<typeof recordHookCalls>['patient'];
let cardsFor: ReturnType<typeof recordHookCalls>['cardsFor'];

/** A finding's card (its summary begins with the finding's name; medium findings are info cards). */
const finding = (cards: Card[], name: string) => cards.find((c) => c.summary.startsWith(`${name}:`));
const undetermined = (cards: Card[]) => cards.find((c) => /^\d+ rules? undetermined/.test(c.summary))?.detail ?? '';
const setAside = (cards: Card[]) => cards.filter((c) => /set aside/.test(c.detail ?? '') && /^Set aside/.test(c.detail ?? ''));

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'error' });
  const { admin } = await createCast(t);
  await installAndPublishPack(t, admin);
  fhir = await startFhirServer({ token: FHIR_TOKEN });
  ehr = await startCdsClient(`https://ehr.example.org/${randomUUID()}`);
  await registerCdsClient(t, admin, ehr, { allowed_fhir_servers: [`${fhir.url}/`] });
  ({ patient, cardsFor } = recordHookCalls(t, fhir, ehr, FHIR_TOKEN));
  await patient('a1c-6.7-then-6.9-two-months-apart', [a1c(6.7, daysAgo(60)), a1c(6.9, daysAgo(5)), a1c(5.4, daysAgo(500))]);
  await patient('a1c-6.6-and-ifcc-49-mmol-mol-on-another-day', [ifcc(49, daysAgo(40)), a1c(6.6, daysAgo(5))]);
  await patient('a single a1c of 6.5', [a1c(6.5, daysAgo(5))]);
  await patient('a1c-6.8-and-a-fasting-glucose-of-7.0-mmol-l-weeks-apart', [a1c(6.8, daysAgo(5)), fpgMmol(7.0, daysAgo(30))]);
  await patient('a1c-7.0-then-5.5-twenty-days-later', [a1c(7.0, daysAgo(25)), a1c(5.5, daysAgo(5))]);
  await patient('second-abnormal-a1c-entered-in-error', [a1c(6.7, daysAgo(60)), a1c(7.1, daysAgo(5), { status: 'entered-in-error' })]);
  await patient('egfr-45-first-reduced-after-a-normal-year', [egfr(75, daysAgo(365)), egfr(45, daysAgo(5))]);
  await patient('egfr-52-then-48-four-months-apart', [egfr(52, daysAgo(125)), egfr(48, daysAgo(5))]);
  await patient('an-a1c-two-years-ago-in-ifcc-units', [ifcc(38, daysAgo(730))]);
  await patient('type-2-diabetes-on-the-problem-list-bp-134-78', [condition(ICD10, 'E11.9'), ...bp(134, 78, daysAgo(2))]);
  await patient('a-refuted-diabetes-diagnosis-bp-134-78', [
    condition(ICD10, 'E11.9', {
      verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: 'refuted' }] },
    }),
    ...bp(134, 78, daysAgo(2)),
  ]);
  await patient('aged-65-never-tested-no-diabetes-on-record', [condition('http://snomed.info/sct', '38341003')]);
  await patient('egfr-reported-below-15-on-a-first-result', [
    egfr(15, daysAgo(3), { valueQuantity: { value: 15, comparator: '<', unit: 'mL/min/1.73m2' } }),
  ]);
}, 180_000);

afterAll(async () => {
  await fhir?.close();
  await ehr?.close();
  await t?.close();
});

describe('the ADA 2026 pack over the record in a hook call', () => {
  it('discovery asks for each history the pack reads, newest first, final statuses only, bounded', async () => {
    const prefetch = (await t.http().get('/api/cds-services')).body.services[0].prefetch as Record<string, string>;
    const history = Object.entries(prefetch).filter(([k]) => k.startsWith('hist-'));
    expect(history.map(([k]) => k).sort()).toEqual(
      expect.arrayContaining(['hist-14771-0_1558-6', 'hist-17856-6_4548-4_59261-8', 'hist-62238-1_98979-8', 'hist-Condition']),
    );
    // Observations by code, newest first; other types (the pack's Conditions, the shipped measures' Encounters,
    // Procedures and requests for gap cards) whole, bounded.
    for (const [key, q] of history)
      if (q.startsWith('Observation?')) expect(q).toMatch(/&status=final,amended,corrected&_sort=-date&_count=100$/);
      else expect(q).toBe(`${key.slice('hist-'.length)}?patient={{context.patientId}}&_count=100`);
    expect(prefetch['hist-Condition']).toBe('Condition?patient={{context.patientId}}&_count=100');
  });

  it('A1C 6.7 % then 6.9 % two months apart: diabetes confirmed, both dates in the card', async () => {
    const cards = await cardsFor('a1c-6.7-then-6.9-two-months-apart');
    const card = finding(cards, F.confirmed);
    expect(card?.indicator).toBe('warning');
    expect(card!.detail).toContain(day(60));
    expect(card!.detail).toContain(day(5));
  });

  it('an IFCC A1C of 49 mmol/mol and an A1C of 6.6 % on another day confirm diabetes', async () => {
    expect(finding(await cardsFor('a1c-6.6-and-ifcc-49-mmol-mol-on-another-day'), F.confirmed)).toBeDefined();
  });

  it('a single A1C of 6.5 % needs confirmation and is not diabetes', async () => {
    const cards = await cardsFor('a single a1c of 6.5');
    expect(finding(cards, F.confirmed)).toBeUndefined();
    expect(finding(cards, F.a1c)).toBeDefined();
  });

  it('an abnormal A1C and a fasting glucose of 7.0 mmol/L weeks apart confirm diabetes (ADA cut-point in mmol/L)', async () => {
    expect(finding(await cardsFor('a1c-6.8-and-a-fasting-glucose-of-7.0-mmol-l-weeks-apart'), F.confirmed)).toBeDefined();
  });

  it('A1C 7.0 % then 5.5 % twenty days later: discordant over time, no diabetes, not silence', async () => {
    const cards = await cardsFor('a1c-7.0-then-5.5-twenty-days-later');
    expect(finding(cards, F.discordantOverTime)).toBeDefined();
    expect(cards.filter((c) => c.summary.startsWith('Diabetes'))).toEqual([]);
  });

  it('a second abnormal A1C entered in error does not confirm; the valid older one still counts once', async () => {
    const cards = await cardsFor('second-abnormal-a1c-entered-in-error');
    expect(finding(cards, F.confirmed)).toBeUndefined();
    expect(finding(cards, F.a1c)).toBeDefined();
  });

  it('a first reduced eGFR of 45 after a normal year: persistence not yet shown, no CKD stage', async () => {
    const cards = await cardsFor('egfr-45-first-reduced-after-a-normal-year');
    expect(finding(cards, F.egfrUnconfirmed)).toBeDefined();
    expect(finding(cards, F.g3a)).toBeUndefined();
  });

  it('eGFR 52 then 48 four months apart: CKD stage G3a', async () => {
    const cards = await cardsFor('egfr-52-then-48-four-months-apart');
    expect(finding(cards, F.g3a)).toBeDefined();
    expect(finding(cards, F.egfrUnconfirmed)).toBeUndefined();
  });

  it('an A1C two years ago (IFCC units) is a test in the last 3 years: screening is not due, nothing set aside', async () => {
    const cards = await cardsFor('an-a1c-two-years-ago-in-ifcc-units');
    expect(finding(cards, F.screen)).toBeUndefined();
    expect(undetermined(cards)).not.toContain(F.screen);
    expect(setAside(cards)).toEqual([]);
  });

  it('diabetes on the problem list (ICD-10-CM E11.9) with BP 134/78: above the < 130/80 target in diabetes', async () => {
    const cards = await cardsFor('type-2-diabetes-on-the-problem-list-bp-134-78');
    expect(finding(cards, F.bpTarget)).toBeDefined();
    expect(finding(cards, F.bpTarget)!.detail).toMatch(/Diagnosed diabetes[^\n]*yes \(from the record: /);
  });

  it('a refuted diabetes diagnosis is not diabetes: BP 134/78 is stage 1 only', async () => {
    const cards = await cardsFor('a-refuted-diabetes-diagnosis-bp-134-78');
    expect(finding(cards, F.bpTarget)).toBeUndefined();
    expect(undetermined(cards)).not.toContain(F.bpTarget);
    expect(finding(cards, F.stage1)).toBeDefined();
  });

  it('aged 65, no A1C or glucose test in 3 years, no diabetes on the record: screen for diabetes', async () => {
    const cards = await cardsFor('aged-65-never-tested-no-diabetes-on-record');
    expect(finding(cards, F.screen)).toBeDefined();
  });

  it('an eGFR reported as "< 15" on a first result is CKD stage G5 at once: critical', async () => {
    const cards = await cardsFor('egfr-reported-below-15-on-a-first-result');
    expect(finding(cards, F.g5)?.indicator).toBe('critical');
  });
});
