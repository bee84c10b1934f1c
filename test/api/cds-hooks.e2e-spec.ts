import { randomUUID } from 'node:crypto';
import type { Resource } from '@medplum/fhirtypes';
import { DataSource } from 'typeorm';
import { CdsHooksRepository } from '../../backend/src/modules/cds-hooks/cds-hooks.repository';
import { HookSnapshots } from '../../backend/src/modules/cds-hooks/hook-snapshot';
import { PATIENT_VIEW } from '../../backend/src/modules/cds-hooks/hook-request';
import { startTestApp, type TestApp } from '../support/app';
import { createCast, type TestUser } from '../support/factories';
import {
  action,
  adaCoreRules,
  cond,
  createFromTemplate,
  createParameter,
  createPublishedRuleSet,
  createRuleSet,
  expectStatus,
  seedTemplates,
  uniqueName,
  type ParameterJson,
} from '../support/clinical-factories';
import { startFhirServer, type FhirServer } from '../support/fhir-server';
import {
  expectCardsResponse,
  expectDiscovery,
  expectHookRequest,
  registerCdsClient,
  startCdsClient,
  type Card,
  type CdsClientKeys,
} from '../support/cds-hooks';

/**
 * An EHR calls the patient-view CDS Hooks service (issue 11): synthetic patients live on a real
 * FHIR R4 server (Medplum's router in-process), the EHR signs each call with a key from its own
 * JWKS endpoint, and the cards must be the findings an assessment would give.
 */
const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
/** Another origin this server is reached at (ALLOWED_ORIGINS), e.g. behind an internal proxy. */
const INTERNAL_ORIGIN = 'https://cds-internal.example.org';
const FHIR_TOKEN = `fhir-${randomUUID()}`;
const ADA_2 = 'ADA Standards of Care in Diabetes—2026, Section 2';

let t: TestApp;
let admin: TestUser;
let pcp: TestUser;
let fhir: FhirServer;
let ehr: CdsClientKeys;
let p: Record<string, ParameterJson>;
let adultCareSetId: string;
const patients: Record<string, string> = {};
let serviceUrl: string;

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

function observation(patientId: string, loinc: string, value: number, unit: string, when: string) {
  return {
    resourceType: 'Observation',
    status: 'final',
    subject: { reference: `Patient/${patientId}` },
    code: { coding: [{ system: LOINC, code: loinc }] },
    effectiveDateTime: when,
    valueQuantity: { value, unit, system: UCUM, code: unit },
  };
}

function bpPanel(patientId: string, systolic: number, diastolic: number, when: string) {
  const component = (code: string, value: number) => ({
    code: { coding: [{ system: LOINC, code }] },
    valueQuantity: { value, unit: 'mm[Hg]', system: UCUM, code: 'mm[Hg]' },
  });
  return {
    resourceType: 'Observation',
    status: 'final',
    subject: { reference: `Patient/${patientId}` },
    code: { coding: [{ system: LOINC, code: '85354-9' }] },
    effectiveDateTime: when,
    component: [component('8480-6', systolic), component('8462-4', diastolic)],
  };
}

type Obs = [loinc: string, value: number, unit: string, days: number];

async function patient(name: string, birthDate: string, obs: Obs[]): Promise<string> {
  const created = await fhir.create({ resourceType: 'Patient', name: [{ family: name }], birthDate });
  for (const [loinc, value, unit, days] of obs) await fhir.create(observation(created.id, loinc, value, unit, daysAgo(days)) as Resource);
  patients[name] = created.id;
  return created.id;
}

function hookRequest(patientId: string, extra: Record<string, unknown> = {}) {
  const body = { hook: 'patient-view', hookInstance: randomUUID(), context: { userId: 'Practitioner/example', patientId }, ...extra };
  expectHookRequest(body);
  return body;
}

/** What an EHR does: run each discovery prefetch template against its FHIR server. */
async function prefetchFor(patientId: string): Promise<Record<string, unknown>> {
  const discovery = await t.http().get('/api/cds-services');
  const templates = discovery.body.services[0].prefetch as Record<string, string>;
  const out: Record<string, unknown> = {};
  for (const [key, template] of Object.entries(templates)) {
    const res = await fetch(`${fhir.url}/${template.replace('{{context.patientId}}', patientId)}`, {
      headers: { authorization: `Bearer ${FHIR_TOKEN}` },
    });
    out[key] = res.ok ? await res.json() : null;
  }
  return out;
}

async function call(body: object, token?: string) {
  const jwt = token ?? (await ehr.sign(serviceUrl));
  return t.http().post('/api/cds-services/patient-view').set('Authorization', `Bearer ${jwt}`).send(body);
}

async function cardsWithPrefetch(name: string): Promise<Card[]> {
  const res = await call(hookRequest(patients[name], { prefetch: await prefetchFor(patients[name]) }));
  expectStatus(res, 200, `patient-view for ${name}`);
  return expectCardsResponse(res.body);
}

async function cardsFromServer(name: string): Promise<Card[]> {
  const res = await call(
    hookRequest(patients[name], {
      fhirServer: fhir.url,
      fhirAuthorization: {
        access_token: FHIR_TOKEN,
        token_type: 'Bearer',
        expires_in: 300,
        scope: 'patient/Observation.read patient/Patient.read',
        subject: 'cds-service',
      },
    }),
  );
  expectStatus(res, 200, `patient-view without prefetch for ${name}`);
  return expectCardsResponse(res.body);
}

const byRule = (cards: Card[], rule: string) => cards.find((c) => c.summary.startsWith(`${rule}:`));
const undetermined = (cards: Card[]) => cards.find((c) => / undetermined: /.test(c.summary));

beforeAll(async () => {
  expect(Number(process.version.slice(1).split('.')[0])).toBeGreaterThanOrEqual(22);
  t = await startTestApp({ ALLOWED_ORIGINS: INTERNAL_ORIGIN });
  ({ admin, pcp } = await createCast(t));
  serviceUrl = `${t.url}/api/cds-services/patient-view`;
  const templates = await seedTemplates(t, admin);
  const suffix = randomUUID().slice(0, 6);
  p = {};
  for (const name of ['hba1c', 'fasting_glucose', 'blood_pressure_systolic', 'blood_pressure_diastolic', 'bmi', 'microalbumin'])
    p[name] = await createFromTemplate(t, admin, templates[name], { name: `${name}_${suffix}` });

  const adultCare = await createPublishedRuleSet(
    t,
    admin,
    [
      ...adaCoreRules(p),
      {
        name: 'Stage 2 diastolic hypertension',
        priority: 15,
        conditions: [cond(p.blood_pressure_diastolic, '>=', 90)],
        actions: [action('Start or intensify antihypertensive therapy', { severity: 'high' })],
      },
      {
        name: 'Albuminuria',
        priority: 10,
        conditions: [cond(p.microalbumin, '>=', 30)],
        actions: [action('Start an ACE inhibitor or ARB', { severity: 'medium' })],
      },
      {
        name: 'Obesity',
        priority: 5,
        conditions: [cond(p.bmi, '>=', 30)],
        actions: [action('Offer weight-management support', { severity: 'low' })],
      },
    ],
    { name: 'ADA 2026 adult care', source: ADA_2 },
  );
  adultCareSetId = adultCare.ruleSet.id;

  fhir = await startFhirServer({ token: FHIR_TOKEN });
  ehr = await startCdsClient(`https://ehr.example.org/${randomUUID()}`);
  await registerCdsClient(t, admin, ehr, { allowed_fhir_servers: [`${fhir.url}/`] });

  await patient('a1c-diabetes', '1960-04-02', [['4548-4', 7.2, '%', 10]]);
  await patient('glucose-in-mmol', '1971-09-30', [['1558-6', 7.5, 'mmol/L', 3]]);
  await patient('glucose-normal-in-mmol', '1985-01-15', [['1558-6', 5.5, 'mmol/L', 3]]);
  await patient('stale-a1c', '1955-06-20', [['4548-4', 8.1, '%', 200]]);
  await patient('bp-crisis', '1949-12-01', [
    ['8480-6', 186, 'mm[Hg]', 1],
    ['8462-4', 96, 'mm[Hg]', 1],
  ]);
  await patient('a1c-in-mmol-mol', '1966-03-03', [['4548-4', 53, 'mmol/mol', 20]]);
  await patient('a1c-in-mmol-mol-below', '1966-03-03', [['4548-4', 46, 'mmol/mol', 20]]);
  await patient('uacr-in-mg-mmol', '1958-08-08', [['9318-7', 5, 'mg/mmol', 100]]);
  await patient('obese', '1990-02-28', [['39156-5', 32.4, 'kg/m2', 60]]);
  await patient('all-normal', '1980-05-05', [
    ['4548-4', 5.4, '%', 30],
    ['1558-6', 92, 'mg/dL', 30],
    ['8480-6', 118, 'mm[Hg]', 5],
    ['8462-4', 76, 'mm[Hg]', 5],
    ['39156-5', 23.1, 'kg/m2', 5],
    ['9318-7', 12, 'mg/g', 200],
  ]);
  await patient('no-data', '1975-07-07', []);
  await patient('newer-a1c-wins', '1962-10-10', [
    ['4548-4', 7.9, '%', 60],
    ['4548-4', 6.1, '%', 5],
  ]);
  await patient('a1c-in-mg-dl', '1970-01-01', [['4548-4', 120, 'mg/dL', 5]]);
  // Blood pressure recorded only as the panel 85354-9, with systolic and diastolic components.
  const panelOnly = await patient('bp-panel-only', '1952-11-11', []);
  await fhir.create(bpPanel(panelOnly, 184, 88, daysAgo(2)) as Resource);
}, 120_000);

afterAll(async () => {
  await fhir?.close();
  await ehr?.close();
  await t?.close();
});

describe('discovery', () => {
  // A history per code, newest first and bounded (README "CDS Hooks"): not _count=1, so an invalid or future-dated latest result cannot hide a valid one.
  it('lists patient-view with a prefetch template per LOINC code in use, plus the Patient', async () => {
    const res = expectStatus(await t.http().get('/api/cds-services'), 200, 'discovery');
    expectDiscovery(res.body);
    const [service] = res.body.services;
    expect(service.id).toBe('patient-view');
    expect(service.hook).toBe('patient-view');
    // The shipped measures' inputs (gap-in-care cards) are asked for too: each a bounded search of this patient's record.
    const prefetch = service.prefetch as Record<string, string>;
    const measureKeys = Object.keys(prefetch).filter((k) => k.startsWith('hist-'));
    expect(measureKeys).toEqual(expect.arrayContaining(['hist-Condition', 'hist-Encounter', 'hist-Procedure']));
    for (const k of measureKeys) expect(prefetch[k]).toMatch(/^[A-Za-z]+\?patient=\{\{context\.patientId\}\}&.*_count=100$/);
    expect(Object.fromEntries(Object.entries(prefetch).filter(([k]) => !k.startsWith('hist-')))).toEqual({
      patient: 'Patient/{{context.patientId}}',
      'obs-1558-6':
        'Observation?patient={{context.patientId}}&code=http://loinc.org|1558-6&status=final,amended,corrected&_sort=-date&_count=10',
      'obs-39156-5':
        'Observation?patient={{context.patientId}}&code=http://loinc.org|39156-5&status=final,amended,corrected&_sort=-date&_count=10',
      // NGSP (%) and IFCC (mmol/mol) HbA1c are one search.
      'obs-4548-4':
        'Observation?patient={{context.patientId}}&code=http://loinc.org|4548-4,http://loinc.org|59261-8&status=final,amended,corrected&_sort=-date&_count=10',
      'obs-8462-4':
        'Observation?patient={{context.patientId}}&code=http://loinc.org|8462-4,http://loinc.org|85354-9&status=final,amended,corrected&_sort=-date&_count=10',
      'obs-8480-6':
        'Observation?patient={{context.patientId}}&code=http://loinc.org|8480-6,http://loinc.org|85354-9&status=final,amended,corrected&_sort=-date&_count=10',
      'obs-9318-7':
        'Observation?patient={{context.patientId}}&code=http://loinc.org|9318-7&status=final,amended,corrected&_sort=-date&_count=10',
    });
  });
});

describe('patient-view cards, as an EHR gets them', () => {
  it('an HbA1c of 7.2 % gives the diabetes card (warning) with its basis, rule set, version and citation', async () => {
    const cards = await cardsWithPrefetch('a1c-diabetes');
    const card = byRule(cards, 'Diabetes by HbA1c')!;
    expect(card).toBeDefined();
    expect(card.indicator).toBe('warning');
    expect(card.summary).toBe('Diabetes by HbA1c: Confirm the diagnosis and start diabetes care');
    expect(card.source.label).toBe(`ADA 2026 adult care v1 · ${ADA_2}`);
    expect(card.detail).toContain(`HbA1c ≥ 6.5 %: 7.2 %, Observation of ${daysAgo(10).slice(0, 10)}`);
    expect(card.detail).toContain('version 1');
    // The other rules lack their inputs: one info card names them.
    const info = undetermined(cards)!;
    expect(info.indicator).toBe('info');
    expect(info.detail).toContain('Fasting Glucose (no Observation found)');
    expect(cards.filter((c) => c.summary.includes('undetermined'))).toHaveLength(1);
  });

  it('a fasting glucose of 7.5 mmol/L is converted to 135 mg/dL and fires the glucose rule', async () => {
    const card = byRule(await cardsWithPrefetch('glucose-in-mmol'), 'Diabetes by fasting glucose')!;
    expect(card.indicator).toBe('warning');
    expect(card.detail).toContain('Fasting Glucose ≥ 126 mg/dL: 7.5 mmol/L (135 mg/dL)');
  });

  it('a fasting glucose of 5.5 mmol/L (99 mg/dL) fires nothing', async () => {
    const cards = await cardsWithPrefetch('glucose-normal-in-mmol');
    expect(byRule(cards, 'Diabetes by fasting glucose')).toBeUndefined();
    expect(undetermined(cards)!.detail).not.toContain('Fasting Glucose (');
  });

  it('an HbA1c older than 90 days counts as unknown: no diabetes card, the info card says it is stale', async () => {
    const cards = await cardsWithPrefetch('stale-a1c');
    expect(byRule(cards, 'Diabetes by HbA1c')).toBeUndefined();
    const info = undetermined(cards)!;
    expect(info.detail).toContain(
      `**Diabetes by HbA1c** (ADA 2026 adult care): needs HbA1c (latest Observation of ${daysAgo(200).slice(0, 10)} is older than 90 days)`,
    );
  });

  it('a systolic of 186 mmHg gives a critical card first, and the diastolic 96 a warning', async () => {
    const cards = await cardsWithPrefetch('bp-crisis');
    expect(cards[0].summary).toBe('Hypertensive crisis: Assess for target-organ damage today');
    expect(cards[0].indicator).toBe('critical');
    expect(cards[0].detail).toContain('Systolic Blood Pressure ≥ 180 mmHg: 186 mmHg');
    expect(byRule(cards, 'Stage 2 diastolic hypertension')!.indicator).toBe('warning');
  });

  it('HbA1c in IFCC units: 53 mmol/mol (7.0 %, as ADA publishes it) fires, 46 mmol/mol (6.4 %) does not', async () => {
    const high = byRule(await cardsWithPrefetch('a1c-in-mmol-mol'), 'Diabetes by HbA1c')!;
    // 53 × 0.09148 + 2.152 = 7.0004 %, shown to three places.
    expect(high.detail).toContain('HbA1c ≥ 6.5 %: 53 mmol/mol (7 %)');
    expect(byRule(await cardsWithPrefetch('a1c-in-mmol-mol-below'), 'Diabetes by HbA1c')).toBeUndefined();
  });

  // Read through KDIGO's published pairs (3 ↔ 30, 30 ↔ 300 mg/mmol ↔ mg/g), no longer × 8.84 (44.2): a value is in the same KDIGO category in either unit.
  it('UACR 5 mg/mmol is 50 mg/g on the KDIGO scale: albuminuria (info)', async () => {
    const card = byRule(await cardsWithPrefetch('uacr-in-mg-mmol'), 'Albuminuria')!;
    expect(card.indicator).toBe('info');
    expect(card.detail).toContain('Microalbumin ≥ 30 mg/g creatinine: 5 mg/mmol (50 mg/g creatinine)');
  });

  it('BMI 32.4 kg/m² gives the obesity card', async () => {
    expect(byRule(await cardsWithPrefetch('obese'), 'Obesity')!.indicator).toBe('info');
  });

  it('a patient with every value normal and recent gets no card at all', async () => {
    expect(await cardsWithPrefetch('all-normal')).toEqual([]);
  });

  it('a patient without Observations gets only the info card listing every missing input', async () => {
    const cards = await cardsWithPrefetch('no-data');
    expect(cards).toHaveLength(1);
    expect(cards[0].indicator).toBe('info');
    expect(cards[0].summary).toBe(
      '6 rules undetermined: missing Systolic Blood Pressure, HbA1c, Fasting Glucose, Diastolic Blood Pressure, Microalbumin, BMI',
    );
  });

  it('the latest HbA1c decides (the server sorts by date): 6.1 % five days ago, not 7.9 % before', async () => {
    expect(byRule(await cardsWithPrefetch('newer-a1c-wins'), 'Diabetes by HbA1c')).toBeUndefined();
  });

  it('without prefetch the service fetches from fhirServer with the fhirAuthorization token, and gives the same cards', async () => {
    for (const name of ['a1c-diabetes', 'glucose-in-mmol', 'stale-a1c', 'bp-crisis', 'no-data', 'all-normal']) {
      const before = fhir.tokensSeen.length;
      const fetched = await cardsFromServer(name);
      expect(fhir.tokensSeen.length).toBeGreaterThan(before);
      expect(fhir.tokensSeen.slice(before).every((tok) => tok === FHIR_TOKEN)).toBe(true);
      // Each call issues its own cards and tickets.
      const strip = (cards: Card[]) => cards.map(({ uuid: _uuid, links: _links, ...rest }) => rest);
      expect(strip(fetched)).toEqual(strip(await cardsWithPrefetch(name)));
    }
    expect(fhir.requests).toContain(
      `/Observation?patient=${patients['bp-crisis']}&code=http://loinc.org|8480-6,http://loinc.org|85354-9&status=final,amended,corrected&_sort=-date&_count=10`,
    );
  });

  it('a blood pressure recorded only as the panel 85354-9 is found by the templates and read from its components', async () => {
    for (const cards of [await cardsWithPrefetch('bp-panel-only'), await cardsFromServer('bp-panel-only')]) {
      expect(cards[0].summary).toBe('Hypertensive crisis: Assess for target-organ damage today');
      expect(cards[0].indicator).toBe('critical');
      expect(cards[0].detail).toContain(`Systolic Blood Pressure ≥ 180 mmHg: 184 mmHg, Observation of ${daysAgo(2).slice(0, 10)}`);
      // Diastolic 88 is below 90: no stage 2 card, and it is not listed as missing either.
      expect(byRule(cards, 'Stage 2 diastolic hypertension')).toBeUndefined();
      expect(undetermined(cards)!.detail).not.toContain('Diastolic Blood Pressure (');
    }
  });
});

describe('card links: the assessment in this app, prefilled through a one-time ticket', () => {
  const redeem = (ticket: string, as: TestUser | null = pcp) => {
    const req = t.http().post('/api/cds-prefill/redeem');
    return (as ? req.set(as.auth) : req).send({ ticket });
  };
  const ticketOf = (card: Card) => new URL(card.links![0].url).searchParams.get('prefill')!;

  it('every card links (absolute) to /clinical-form with its own ticket and nothing about the patient', async () => {
    const cards = await cardsWithPrefetch('bp-crisis');
    expect(cards.length).toBeGreaterThanOrEqual(3);
    for (const c of cards) {
      expect(c.links).toHaveLength(1);
      expect(c.links![0].type).toBe('absolute');
      expect(c.links![0].url).toMatch(new RegExp(`^${t.url}/clinical-form\\?prefill=[A-Za-z0-9_-]{32}$`));
      expect(c.links![0].url).not.toContain(patients['bp-crisis']);
    }
    expect(new Set(cards.map(ticketOf)).size).toBe(cards.length);
  });

  it("a call's jti, cards and tickets are written in one statement: when any insert fails, or what it read has changed, none is kept", async () => {
    const repo = t.runtime.app.get(CdsHooksRepository);
    const card = (uuid: string) => ({ uuid, rule_set_id: null, rule_id: null, rule_version: null, rule_set_version: null });
    const ticket = { answers: [], expires_at: new Date(Date.now() + 60_000) };
    const [{ generation }] = await t.db.query(`SELECT generation::text AS generation FROM cds_hook_generation`);
    const callWith = (jti: string, gen = generation) => ({
      generation: gen,
      issuer: ehr.issuer,
      jti,
      jti_expires_at: new Date(Date.now() + 60_000),
    });
    const [cardA, cardB, cardC, cardD] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const [hashA, hashB, hashC, hashD] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const [jtiA, jtiB, jtiC, jtiD] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    expect(await repo.recordHookCall(callWith(jtiA), PATIENT_VIEW, [card(cardA)], [hashA], ticket, false)).toBe('recorded');
    const kept = async () => ({
      cards: (
        await t.db.query(`SELECT uuid FROM cds_cards WHERE uuid = ANY($1::uuid[]) ORDER BY uuid`, [[cardA, cardB, cardC, cardD]])
      ).map((r: { uuid: string }) => r.uuid),
      tickets: (
        await t.db.query(`SELECT token_hash FROM cds_prefill_tickets WHERE token_hash = ANY($1::text[])`, [[hashA, hashB, hashC, hashD]])
      ).map((r: { token_hash: string }) => r.token_hash),
      jtis: (await t.db.query(`SELECT jti FROM cds_seen_jtis WHERE jti = ANY($1::text[])`, [[jtiA, jtiB, jtiC, jtiD]])).map(
        (r: { jti: string }) => r.jti,
      ),
    });
    expect(await kept()).toEqual({ cards: [cardA], tickets: [hashA], jtis: [jtiA] });
    // A card already issued: its insert fails, and neither the new ticket nor the jti is kept.
    await expect(repo.recordHookCall(callWith(jtiB), PATIENT_VIEW, [card(cardB), card(cardA)], [hashB], ticket, true)).rejects.toThrow();
    // A ticket already issued: its insert fails, and neither the new card nor the jti is kept.
    await expect(repo.recordHookCall(callWith(jtiC), PATIENT_VIEW, [card(cardC)], [hashC, hashA], ticket, false)).rejects.toThrow();
    // Evaluated on an older generation: nothing is written, and the caller is told to evaluate again.
    expect(
      await repo.recordHookCall(callWith(jtiD, String(BigInt(generation) - 1n)), PATIENT_VIEW, [card(cardD)], [hashD], ticket, false),
    ).toBe('stale');
    // The same jti again: a replay, nothing written.
    expect(await repo.recordHookCall(callWith(jtiA), PATIENT_VIEW, [card(cardD)], [hashD], ticket, false)).toBe('replayed');
    expect(await kept()).toEqual({ cards: [cardA], tickets: [hashA], jtis: [jtiA] });
  });

  it("a call's record context is written once for all its tickets, and a later call's sweep forgets it with them once they are long expired", async () => {
    const repo = t.runtime.app.get(CdsHooksRepository);
    const [{ generation }] = await t.db.query(`SELECT generation::text AS generation FROM cds_hook_generation`);
    const call = () => ({ generation, issuer: ehr.issuer, jti: randomUUID(), jti_expires_at: new Date(Date.now() + 60_000) });
    const card = () => ({ uuid: randomUUID(), rule_set_id: null, rule_id: null, rule_version: null, rule_set_version: null });
    const context = {
      patient: { source: 'ehr' as const, reference: 'Patient/swept', name: null },
      history: { read_at: new Date().toISOString(), parameters: [] },
    };
    const ticket = { answers: [], context, expires_at: new Date(Date.now() + 60_000) };
    const old = [randomUUID(), randomUUID(), randomUUID()];
    expect(await repo.recordHookCall(call(), PATIENT_VIEW, [card(), card(), card()], old, ticket, false)).toBe('recorded');
    const contextsOf = async (hashes: string[]) =>
      (
        await t.db.query(
          `SELECT count(t.id)::int AS tickets, count(DISTINCT c.id)::int AS contexts
             FROM cds_prefill_tickets t LEFT JOIN cds_record_contexts c ON c.id = t.context_id WHERE t.token_hash = ANY($1::text[])`,
          [hashes],
        )
      )[0];
    expect(await contextsOf(old)).toEqual({ tickets: 3, contexts: 1 });
    // Expired, and past the time a redeemed ticket's context may still be taken.
    await t.db.query(
      `WITH t AS (UPDATE cds_prefill_tickets SET expires_at = now() - interval '2 hours' WHERE token_hash = ANY($1::text[]) RETURNING context_id)
       UPDATE cds_record_contexts SET expires_at = now() - interval '2 hours' WHERE id IN (SELECT context_id FROM t)`,
      [old],
    );
    const [{ id: oldContext }] = await t.db.query(`SELECT context_id AS id FROM cds_prefill_tickets WHERE token_hash = $1`, [old[0]]);
    const fresh = [randomUUID()];
    expect(await repo.recordHookCall(call(), PATIENT_VIEW, [card()], fresh, ticket, true)).toBe('recorded');
    expect(await contextsOf(old)).toEqual({ tickets: 0, contexts: 0 });
    expect(await t.db.query(`SELECT id FROM cds_record_contexts WHERE id = $1`, [oldContext])).toEqual([]);
    expect(await contextsOf(fresh)).toEqual({ tickets: 1, contexts: 1 });
  });

  it('the recording statement is prepared once per connection on PostgreSQL, and unnamed on the embedded database (one session behind every connection)', async () => {
    const repo = t.runtime.app.get(CdsHooksRepository);
    const db = t.runtime.app.get(DataSource);
    const [{ generation }] = await t.db.query(`SELECT generation::text AS generation FROM cds_hook_generation`);
    const record = () =>
      repo.recordHookCall(
        { generation, issuer: ehr.issuer, jti: randomUUID(), jti_expires_at: new Date(Date.now() + 60_000) },
        PATIENT_VIEW,
        [{ uuid: randomUUID(), rule_set_id: null, rule_id: null, rule_version: null, rule_set_version: null }],
        [randomUUID()],
        { answers: [], expires_at: new Date(Date.now() + 60_000) },
        false,
      );
    // Many at once, over several pool connections: each prepares the statement once, and none collides.
    expect(await Promise.all(Array.from({ length: 12 }, record))).toEqual(Array(12).fill('recorded'));
    expect(await record()).toBe('recorded');
    // The pool hands out the connection released last: the one that just recorded.
    const names = (await db.query(`SELECT name FROM pg_prepared_statements`)).map((r: { name: string }) => r.name);
    if (process.env.DATABASE_URL) expect(names).toContain('cds_record_hook_call');
    else expect(names).not.toContain('cds_record_hook_call');
  });

  it('a signed-in clinician redeems a ticket once: the values as observed, with unit and date', async () => {
    const [card] = await cardsWithPrefetch('glucose-in-mmol');
    const res = expectStatus(await redeem(ticketOf(card)), 200, 'redeem');
    expect(res.body.values).toEqual([
      {
        parameter_id: p.fasting_glucose.id,
        parameter_name: p.fasting_glucose.name,
        display_name: 'Fasting Glucose',
        value: 7.5,
        unit: 'mmol/L',
        observed_at: expect.stringMatching(new RegExp(`^${daysAgo(3).slice(0, 10)}`)),
        source: 'observation',
      },
    ]);
    const again = await redeem(ticketOf(card));
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 410, code: 'prefill_unavailable' });
  });

  it('an expired, unknown or malformed ticket, or no sign-in, gets no values', async () => {
    const cards = await cardsWithPrefetch('bp-crisis');
    await t.db.query(
      `UPDATE cds_prefill_tickets SET expires_at = now() - interval '1 second'
                       WHERE token_hash = encode(sha256($1::bytea), 'hex')`,
      [ticketOf(cards[0])],
    );
    expect((await redeem(ticketOf(cards[0]))).status).toBe(410);
    expect((await redeem('A'.repeat(32))).status).toBe(410);
    expect((await redeem('not a ticket')).body).toMatchObject({ statusCode: 400, code: 'validation_failed' });
    expect((await redeem(ticketOf(cards[1]), null)).status).toBe(401);
    // The refused anonymous call did not use the ticket up.
    expect((await redeem(ticketOf(cards[1]))).status).toBe(200);
  });
});

describe('feedback: accepted and overridden cards, per rule version in the analytics', () => {
  const send = async (body: unknown, token?: string) =>
    t
      .http()
      .post('/api/cds-services/patient-view/feedback')
      .set('Authorization', `Bearer ${token ?? (await ehr.sign(serviceUrl))}`)
      .send(body as object);
  const at = new Date().toISOString();

  it('records outcomes with the override reason and comment; analytics show acceptance and override rates per rule version', async () => {
    const cards = await cardsWithPrefetch('bp-crisis');
    const crisis = byRule(cards, 'Hypertensive crisis')!;
    const stage2 = byRule(cards, 'Stage 2 diastolic hypertension')!;
    const res = await send({
      feedback: [
        { card: crisis.uuid, outcome: 'accepted', outcomeTimestamp: at },
        {
          card: stage2.uuid,
          outcome: 'overridden',
          overrideReason: {
            reason: { system: 'http://example.org/override-reasons', code: 'white-coat', display: 'White-coat effect' },
            userComment: 'Home readings are normal',
          },
          outcomeTimestamp: at,
        },
      ],
    });
    expect(expectStatus(res, 200, 'feedback').body).toEqual({});
    const [row] = await t.db.query(`SELECT outcome, override_reason, user_comment FROM cds_feedback WHERE card_uuid = $1`, [stage2.uuid]);
    expect(row).toEqual({
      outcome: 'overridden',
      override_reason: { system: 'http://example.org/override-reasons', code: 'white-coat', display: 'White-coat effect' },
      user_comment: 'Home readings are normal',
    });
    // The aud may also name the feedback URL itself.
    const again = await cardsWithPrefetch('bp-crisis');
    expectStatus(
      await send(
        { feedback: [{ card: byRule(again, 'Hypertensive crisis')!.uuid, outcome: 'accepted', outcomeTimestamp: at }] },
        await ehr.sign(`${serviceUrl}/feedback`),
      ),
      200,
      'feedback aud',
    );

    const analytics = expectStatus(await t.http().get(`/api/rule-sets/${adultCareSetId}/analytics`).set(admin.auth), 200, 'analytics').body;
    const of = (name: string) => analytics.cds_feedback.find((f: { rule_name: string }) => f.rule_name === name);
    expect(of('Hypertensive crisis')).toMatchObject({ rule_version: 1, accepted: 2, overridden: 0, acceptance_rate: 1, override_rate: 0 });
    expect(of('Hypertensive crisis').cards).toBeGreaterThanOrEqual(2);
    expect(of('Stage 2 diastolic hypertension')).toMatchObject({ rule_version: 1, accepted: 0, overridden: 1, override_rate: 1 });
    // Listed as the findings are ranked, like the hit-rate table: the crisis first.
    const listed = analytics.cds_feedback.map((f: { rule_name: string }) => f.rule_name);
    expect(listed).toEqual(analytics.totals.rules.map((r: { rule_name: string }) => r.rule_name).filter((n: string) => listed.includes(n)));
    expect(listed[0]).toBe('Hypertensive crisis');
  });

  it('a second feedback on a card is 409; a card never returned is 404; malformed feedback is 400; no client JWT is 401', async () => {
    const [card] = await cardsWithPrefetch('obese');
    const one = { feedback: [{ card: card.uuid, outcome: 'accepted', outcomeTimestamp: at }] };
    expectStatus(await send(one), 200, 'first');
    expect((await send(one)).body).toMatchObject({ statusCode: 409, code: 'conflict' });
    expect((await send({ feedback: [{ card: randomUUID(), outcome: 'accepted', outcomeTimestamp: at }] })).body).toMatchObject({
      statusCode: 404,
    });
    for (const bad of [
      {},
      { feedback: [] },
      { feedback: [{ card: 'x', outcome: 'accepted', outcomeTimestamp: at }] },
      { feedback: [{ card: card.uuid, outcome: 'ignored', outcomeTimestamp: at }] },
      { feedback: [{ card: card.uuid, outcome: 'accepted', outcomeTimestamp: 'yesterday' }] },
      { feedback: [{ card: card.uuid, outcome: 'accepted', outcomeTimestamp: at, overrideReason: { userComment: 'x' } }] },
      { feedback: [{ card: card.uuid, outcome: 'overridden', outcomeTimestamp: at, overrideReason: { reason: { display: 'no code' } } }] },
    ])
      expect((await send(bad)).body).toMatchObject({ statusCode: 400, code: 'invalid_feedback' });
    const anonymous = await t.http().post('/api/cds-services/patient-view/feedback').send(one);
    expect(anonymous.body).toMatchObject({ statusCode: 401, code: 'invalid_client_jwt' });
  });

  it('an outcomeTimestamp outside RFC 3339 or the years 1900-2200 is 400 naming the field, and the card stays open for feedback', async () => {
    const [card] = await cardsWithPrefetch('obese');
    for (const outcomeTimestamp of [
      '+275760-09-13T00:00:00Z',
      '-271821-04-20T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '1',
      '2026-11-02T10:15:00',
    ]) {
      const res = await send({ feedback: [{ card: card.uuid, outcome: 'accepted', outcomeTimestamp }] });
      expect({ outcomeTimestamp, status: res.status, code: res.body.code, field: res.body.details?.[0]?.field }).toEqual({
        outcomeTimestamp,
        status: 400,
        code: 'invalid_feedback',
        field: 'feedback[0].outcomeTimestamp',
      });
    }
    expectStatus(
      await send({ feedback: [{ card: card.uuid, outcome: 'accepted', outcomeTimestamp: '2026-11-02T11:15:00+01:00' }] }),
      200,
      'offset',
    );
    const [row] = await t.db.query(`SELECT outcome_at FROM cds_feedback WHERE card_uuid = $1`, [card.uuid]);
    expect(new Date(row.outcome_at).toISOString()).toBe('2026-11-02T10:15:00.000Z');
  });
});

// Issue 24: without PUBLIC_URL the aud and the card links follow the server's own origins, never the Host a caller sends.
describe('without PUBLIC_URL: aud and card links name only the origins the server is configured with', () => {
  const send = async (aud: string, headers: Record<string, string> = {}) => {
    let req = t.http().post('/api/cds-services/patient-view');
    for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
    return req
      .set('Authorization', `Bearer ${await ehr.sign(aud)}`)
      .send(hookRequest(patients['a1c-diabetes'], { prefetch: await prefetchFor(patients['a1c-diabetes']) }));
  };
  const forged = { Host: 'evil.example', 'X-Forwarded-Proto': 'https' };

  it("a token minted for another site, sent with that site's Host and X-Forwarded-Proto, is refused", async () => {
    const res = await send('https://evil.example/api/cds-services/patient-view', forged);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'invalid_client_jwt' });
    expect(res.body.message).toContain('aud');
  });

  it('a valid token sent with a forged Host is answered with links to the first configured origin, never the forged one', async () => {
    const [card] = expectCardsResponse(expectStatus(await send(serviceUrl, forged), 200, 'forged Host').body);
    expect(card.links![0].url).toMatch(new RegExp(`^${INTERNAL_ORIGIN}/clinical-form\\?prefill=`));
    const [local] = expectCardsResponse(expectStatus(await send(serviceUrl), 200, 'local Host').body);
    expect(local.links![0].url).toMatch(new RegExp(`^${t.url}/clinical-form\\?prefill=`));
  });

  it('ALLOWED_ORIGINS and 127.0.0.1 on the listening port are accepted as aud; links follow the allowed origin the request arrived on', async () => {
    const internal = await send(`${INTERNAL_ORIGIN}/api/cds-services/patient-view`, {
      Host: new URL(INTERNAL_ORIGIN).host,
      'X-Forwarded-Proto': 'https',
    });
    expect(expectCardsResponse(expectStatus(internal, 200, 'allowed origin').body)[0].links![0].url).toMatch(
      new RegExp(`^${INTERNAL_ORIGIN}/clinical-form\\?prefill=`),
    );
    const loopback = serviceUrl.replace('//localhost:', '//127.0.0.1:');
    expectStatus(await send(loopback), 200, '127.0.0.1 aud');
  });
});

describe('fhirServer allow-list', () => {
  it('a fhirServer not registered for the client is 403 and is never called', async () => {
    const other = await startFhirServer();
    try {
      const res = await call(hookRequest(patients['a1c-diabetes'], { fhirServer: other.url }));
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'fhir_server_not_allowed' });
      expect(res.body.statusCode).toBe(403);
      // Refused even when the prefetch is complete: the client named a server it may not name.
      const full = await call(
        hookRequest(patients['a1c-diabetes'], { fhirServer: other.url, prefetch: await prefetchFor(patients['a1c-diabetes']) }),
      );
      expect(full.status).toBe(403);
      expect(other.requests).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('bad input: a 4xx with a clear code, never a 500 or a wrong card', () => {
  const expectError = (res: { status: number; body: Record<string, unknown> }, status: number, code: string) => {
    expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    expect(res.body.statusCode).toBe(status);
    expect(typeof res.body.message).toBe('string');
  };

  it.each([
    ['not an object', []],
    ['no hookInstance', { hook: 'patient-view', context: { userId: 'Practitioner/1', patientId: 'x' } }],
    ['no context', { hook: 'patient-view', hookInstance: 'a' }],
    [
      'a patientId that is not a FHIR id',
      { hook: 'patient-view', hookInstance: 'a', context: { userId: 'Practitioner/1', patientId: 'a b/../c' } },
    ],
    [
      'fhirAuthorization without fhirServer',
      {
        hook: 'patient-view',
        hookInstance: 'a',
        context: { userId: 'Practitioner/1', patientId: 'x' },
        fhirAuthorization: { access_token: 'x', token_type: 'Bearer' },
      },
    ],
    [
      'prefetch that is a list',
      { hook: 'patient-view', hookInstance: 'a', context: { userId: 'Practitioner/1', patientId: 'x' }, prefetch: [] },
    ],
  ])('a malformed hook request (%s) is 400 invalid_hook_request', async (_what, body) => {
    expectError(await call(body), 400, 'invalid_hook_request');
  });

  it('another hook sent to patient-view is 400 unknown_hook; an unknown service is 404', async () => {
    expectError(await call({ ...hookRequest('x'), hook: 'order-sign' }), 400, 'unknown_hook');
    const jwt = await ehr.sign(`${t.url}/api/cds-services/order-sign`);
    expectError(
      await t.http().post('/api/cds-services/order-sign').set('Authorization', `Bearer ${jwt}`).send(hookRequest('x')),
      404,
      'unknown_service',
    );
  });

  it('prefetch with the wrong resource types is 400 invalid_prefetch', async () => {
    const id = patients['a1c-diabetes'];
    const good = await prefetchFor(id);
    const patientBundle = { resourceType: 'Bundle', type: 'searchset', entry: [{ resource: { resourceType: 'Patient', id } }] };
    expectError(await call(hookRequest(id, { prefetch: { ...good, 'obs-4548-4': patientBundle } })), 400, 'invalid_prefetch');
    expectError(
      await call(hookRequest(id, { prefetch: { ...good, 'obs-4548-4': { resourceType: 'Observation' } } })),
      400,
      'invalid_prefetch',
    );
    expectError(
      await call(hookRequest(id, { prefetch: { ...good, patient: { resourceType: 'Practitioner', id } } })),
      400,
      'invalid_prefetch',
    );
    // Another patient's record in this patient's prefetch.
    const other = await prefetchFor(patients['bp-crisis']);
    expectError(await call(hookRequest(id, { prefetch: { ...good, 'obs-8480-6': other['obs-8480-6'] } })), 400, 'invalid_prefetch');
  });

  // Was 422 unit_not_accepted for the whole call (issue 20): one unreadable result now sets aside only its input.
  it('an Observation in a unit that cannot be converted is set aside, not the call: 200 with an info card saying why', async () => {
    const cards = await cardsWithPrefetch('a1c-in-mg-dl');
    const aside = cards.find((c) => c.summary.includes('set aside'))!;
    expect(aside.indicator).toBe('info');
    expect(aside.summary).toMatch(/^HbA1c 120 mg\/dL of \d{4}-\d{2}-\d{2} set aside: a unit that cannot be converted to %$/);
    expect(byRule(cards, 'Diabetes by HbA1c')).toBeUndefined();
  });

  it('missing prefetch without fhirServer, or a FHIR server refusing the token, is 412 fhir_data_unavailable', async () => {
    expectError(await call(hookRequest(patients['a1c-diabetes'])), 412, 'fhir_data_unavailable');
    const res = await call(
      hookRequest(patients['a1c-diabetes'], {
        fhirServer: fhir.url,
        fhirAuthorization: { access_token: 'wrong-token', token_type: 'Bearer', expires_in: 300, scope: 'patient/*.read', subject: 'cds' },
      }),
    );
    expectError(res, 412, 'fhir_data_unavailable');
    expect(JSON.stringify(res.body)).not.toContain('wrong-token');
  });
});

describe('client JWT (CDS Hooks security)', () => {
  const body = () => hookRequest(patients['a1c-diabetes'], { prefetch: {} });
  const refused = async (token: string | undefined) => {
    let req = t.http().post('/api/cds-services/patient-view');
    if (token !== undefined) req = req.set('Authorization', token);
    const res = await req.send(body());
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 'invalid_client_jwt' });
    expect(res.body.statusCode).toBe(401);
    return res.body.message as string;
  };

  it('no token, a malformed one, or a user access token is refused', async () => {
    await refused(undefined);
    await refused('Bearer not-a-jwt');
    await refused(`Bearer ${admin.access_token}`);
  });

  it('an unregistered issuer, a wrong key, a wrong aud, an expired or too long-lived token are refused', async () => {
    const stranger = await startCdsClient('https://stranger.example.org');
    try {
      const unregistered = await refused(`Bearer ${await stranger.sign(serviceUrl)}`);
      expect(unregistered).toContain('registered, active CDS client');
      // Signed by another key while claiming the registered issuer: the same answer, so issuers cannot be enumerated.
      expect(await refused(`Bearer ${await stranger.sign(serviceUrl, { iss: ehr.issuer })}`)).toBe(unregistered);
    } finally {
      await stranger.close();
    }
    expect(await refused(`Bearer ${await ehr.sign(`${t.url}/api/cds-services`)}`)).toContain('aud');
    const now = Math.floor(Date.now() / 1000);
    expect(await refused(`Bearer ${await ehr.sign(serviceUrl, { iat: now - 900, exp: now - 600 })}`)).toContain('expired');
    expect(await refused(`Bearer ${await ehr.sign(serviceUrl, { exp: now + 600 })}`)).toContain('5 minutes');
  });

  it('a token issued an hour from now is refused; one issued within the 30 s clock skew is accepted', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await refused(`Bearer ${await ehr.sign(serviceUrl, { iat: now + 3600, exp: now + 300 })}`)).toContain('iat');
    expect(await refused(`Bearer ${await ehr.sign(serviceUrl, { iat: now + 120, exp: now + 300 })}`)).toContain('iat');
    const skewed = await call(
      hookRequest(patients['a1c-diabetes'], { prefetch: await prefetchFor(patients['a1c-diabetes']) }),
      await ehr.sign(serviceUrl, { iat: now + 15 }),
    );
    expectStatus(skewed, 200, 'iat within the clock skew');
  });

  it('a replayed jti is refused', async () => {
    const jti = randomUUID();
    const first = await call(
      hookRequest(patients['a1c-diabetes'], { prefetch: await prefetchFor(patients['a1c-diabetes']) }),
      await ehr.sign(serviceUrl, { jti }),
    );
    expect(first.status).toBe(200);
    expect(await refused(`Bearer ${await ehr.sign(serviceUrl, { jti })}`)).toContain('replayed');
  });

  it('a client not allowed the service, or deactivated, is refused; one registered with a public JWK is accepted', async () => {
    const limited = await startCdsClient(`https://limited.example.org/${randomUUID()}`);
    const direct = await startCdsClient(`https://direct.example.org/${randomUUID()}`, 'RS384');
    try {
      const limitedBody = { issuer: limited.issuer, name: 'Limited', jwks_url: limited.jwksUrl };
      // A client able to call nothing is not saved (at least one service)...
      expect(
        (
          await t
            .http()
            .post('/api/cds-clients')
            .set(admin.auth)
            .send({ ...limitedBody, allowed_services: [] })
        ).status,
      ).toBe(400);
      const reg = expectStatus(
        await t
          .http()
          .post('/api/cds-clients')
          .set(admin.auth)
          .send({ ...limitedBody, allowed_services: ['patient-view'] }),
        201,
        'register limited',
      ).body;
      expect(
        (
          await t
            .http()
            .put(`/api/cds-clients/${reg.id}`)
            .set(admin.auth)
            .send({ ...limitedBody, allowed_services: [] })
        ).status,
      ).toBe(400);
      // ...but a row stored before that rule may still hold none: it is refused.
      await t.db.query(`UPDATE cds_clients SET allowed_services = '{}' WHERE id = $1`, [reg.id]);
      expect(await refused(`Bearer ${await limited.sign(serviceUrl)}`)).toContain('may not call');
      expectStatus(
        await t
          .http()
          .put(`/api/cds-clients/${reg.id}`)
          .set(admin.auth)
          .send({
            issuer: limited.issuer,
            name: 'Limited',
            jwks_url: limited.jwksUrl,
            allowed_services: ['patient-view'],
            is_active: false,
          }),
        200,
        'deactivate',
      );
      expect(await refused(`Bearer ${await limited.sign(serviceUrl)}`)).toContain('registered, active CDS client');

      expectStatus(
        await t
          .http()
          .post('/api/cds-clients')
          .set(admin.auth)
          .send({ issuer: direct.issuer, name: 'Direct', jwk: direct.publicJwk, allowed_services: ['patient-view'] }),
        201,
        'register with JWK',
      );
      const res = await call(
        hookRequest(patients['bp-crisis'], { prefetch: await prefetchFor(patients['bp-crisis']) }),
        await direct.sign(serviceUrl),
      );
      expect(expectCardsResponse(expectStatus(res, 200, 'JWK client').body)[0].indicator).toBe('critical');
    } finally {
      await limited.close();
      await direct.close();
    }
  });

  it('a JWK without alg: an EC key is used with the algorithm its curve fixes; an RSA key is refused at registration naming jwk.alg', async () => {
    const p256 = await startCdsClient(`https://p256.example.org/${randomUUID()}`, 'ES256');
    const rsa = await startCdsClient(`https://rsa.example.org/${randomUUID()}`, 'RS384');
    try {
      const { alg: _ec, ...ecJwk } = p256.publicJwk;
      expectStatus(
        await t
          .http()
          .post('/api/cds-clients')
          .set(admin.auth)
          .send({ issuer: p256.issuer, name: 'P-256', jwk: ecJwk, allowed_services: ['patient-view'] }),
        201,
        'register EC JWK without alg',
      );
      const res = await call(
        hookRequest(patients['bp-crisis'], { prefetch: await prefetchFor(patients['bp-crisis']) }),
        await p256.sign(serviceUrl),
      );
      expect(expectCardsResponse(expectStatus(res, 200, 'EC key without alg').body)[0].indicator).toBe('critical');

      const { alg: _rsa, ...rsaJwk } = rsa.publicJwk;
      const refusedRsa = await t
        .http()
        .post('/api/cds-clients')
        .set(admin.auth)
        .send({ issuer: rsa.issuer, name: 'RSA', jwk: rsaJwk, allowed_services: ['patient-view'] });
      expect({ status: refusedRsa.status, code: refusedRsa.body.code, field: refusedRsa.body.details?.[0]?.field }).toEqual({
        status: 400,
        code: 'validation_failed',
        field: 'jwk.alg',
      });
      // An EC key whose alg contradicts its curve is no usable key either.
      const { alg: _x, ...otherEc } = p256.publicJwk;
      const mismatched = await t
        .http()
        .post('/api/cds-clients')
        .set(admin.auth)
        .send({ issuer: `${rsa.issuer}/ec`, name: 'EC', jwk: { ...otherEc, alg: 'ES384' }, allowed_services: ['patient-view'] });
      expect(mismatched.status).toBe(400);
    } finally {
      await p256.close();
      await rsa.close();
    }
  });

  it('an issuer or name of only spaces is 400 naming the field, on register and on edit', async () => {
    const post = (b: object) => t.http().post('/api/cds-clients').set(admin.auth).send(b);
    const base = {
      issuer: `https://spaces.example.org/${randomUUID()}`,
      name: 'Spaces',
      jwks_url: ehr.jwksUrl,
      allowed_services: ['patient-view'],
    };
    const fieldOf = (res: { status: number; body: { code?: string; details?: { field: string }[] } }) => ({
      status: res.status,
      code: res.body.code,
      fields: res.body.details?.map((d) => d.field),
    });
    expect(fieldOf(await post({ ...base, issuer: ' ' }))).toEqual({ status: 400, code: 'validation_failed', fields: ['issuer'] });
    expect(fieldOf(await post({ ...base, name: '\t ' }))).toEqual({ status: 400, code: 'validation_failed', fields: ['name'] });
    const { id } = expectStatus(await post(base), 201, 'register').body;
    const put = await t
      .http()
      .put(`/api/cds-clients/${id}`)
      .set(admin.auth)
      .send({ ...base, issuer: '   ' });
    expect(fieldOf(put)).toEqual({ status: 400, code: 'validation_failed', fields: ['issuer'] });
  });

  it('client registration refuses a private key, both key sources, an unknown service and a duplicate issuer', async () => {
    const post = (b: object) => t.http().post('/api/cds-clients').set(admin.auth).send(b);
    const base = { issuer: `https://x.example.org/${randomUUID()}`, name: 'X', allowed_services: ['patient-view'] };
    expect((await post({ ...base, jwk: { kty: 'EC', crv: 'P-384', x: 'a', y: 'b', d: 'secret' } })).status).toBe(400);
    expect((await post({ ...base, jwk: ehr.publicJwk, jwks_url: ehr.jwksUrl })).status).toBe(400);
    expect((await post(base)).status).toBe(400);
    expect((await post({ ...base, jwks_url: ehr.jwksUrl, allowed_services: ['order-sign'] })).status).toBe(400);
    expect((await post({ ...base, issuer: ehr.issuer, jwks_url: ehr.jwksUrl })).status).toBe(409);
    expect((await post({ ...base, jwks_url: ehr.jwksUrl, allowed_fhir_servers: ['file:///etc/passwd'] })).status).toBe(400);
    const res = expectStatus(await t.http().get('/api/cds-clients').set(admin.auth), 200, 'list');
    expect(res.body.map((c: { issuer: string }) => c.issuer)).toContain(ehr.issuer);
    expect(res.headers['content-range']).toBe(`cds-clients 0-${res.body.length - 1}/${res.body.length}`);
    expect(res.body.find((c: { issuer: string }) => c.issuer === ehr.issuer).allowed_fhir_servers).toEqual([fhir.url]);
  });
});

// Each API process keeps a copy of clients, published versions and LOINC codes, and checks it in the
// statement that records the call. Changes written straight to the database here stand for another
// process's: nothing tells this process, so only that check can catch them.
describe("a process's copy of clients and published versions is checked on every call", () => {
  const cardsOf = (res: Awaited<ReturnType<typeof call>>) => expectCardsResponse(expectStatus(res, 200, 'patient-view').body);

  const generation = async () => BigInt((await t.db.query(`SELECT generation::text AS g FROM cds_hook_generation`))[0].g);

  it('a change a hook call reads moves the generation, once per transaction; a rolled-back one does not', async () => {
    const start = await generation();
    const code = p.hba1c.loinc_code;
    // A published parameter's LOINC code (kept on the parameter, not in the version): changed and put back.
    await t.db.transaction(async (m) => {
      await m.query(`UPDATE parameters SET loinc_code = '17856-6' WHERE id = $1`, [p.hba1c.id]);
      await m.query(`UPDATE parameters SET loinc_code = $2 WHERE id = $1`, [p.hba1c.id, code]);
    });
    expect(await generation()).toBe(start + 1n);
    await t.db.transaction(async (m) => {
      await m.query(`UPDATE cds_clients SET allowed_fhir_servers = allowed_fhir_servers || '{https://x.example.org}' WHERE issuer = $1`, [
        ehr.issuer,
      ]);
      await m.query(
        `UPDATE cds_clients SET allowed_fhir_servers = array_remove(allowed_fhir_servers, 'https://x.example.org') WHERE issuer = $1`,
        [ehr.issuer],
      );
    });
    expect(await generation()).toBe(start + 2n);
    await expect(
      t.db.transaction(async (m) => {
        await m.query(`UPDATE rule_sets SET is_active = false WHERE id = $1`, [adultCareSetId]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await generation()).toBe(start + 2n);
  });

  it('a change no hook call reads leaves the generation: a parameter no published version uses, a draft, wording, units, a name', async () => {
    const unused = await createParameter(t, admin, { loinc_code: '2345-7', units: 'mg/dL' });
    const draft = await createRuleSet(t, admin, { name: uniqueName('Draft') });
    const start = await generation();
    await t.db.transaction(async (m) => {
      await m.query(`UPDATE parameters SET loinc_code = '2339-0', display_name = 'Glucose (random)' WHERE id = $1`, [unused.id]);
      // Units and wording of a published parameter: a call reads them from the published version, frozen.
      await m.query(`UPDATE parameters SET units = 'mmol/mol', question_override = 'What was the last HbA1c?' WHERE id = $1`, [p.hba1c.id]);
      await m.query(`UPDATE parameters SET units = $2, question_override = NULL WHERE id = $1`, [p.hba1c.id, p.hba1c.units]);
      await m.query(`UPDATE rule_sets SET name = name || ' (renamed)', is_active = false WHERE id = $1`, [draft.id]);
      await m.query(`UPDATE rule_sets SET description = 'Reviewed', updated_at = now() WHERE id = $1`, [adultCareSetId]);
      await m.query(`UPDATE cds_clients SET name = name || ' (renamed)', updated_at = now() WHERE issuer = $1`, [ehr.issuer]);
    });
    expectStatus(await t.http().delete(`/api/parameters/${unused.id}`).set(admin.auth).send({ change_reason: 'Unused' }), 200, 'delete');
    expect(await generation()).toBe(start);
  });

  it('administrators editing parameters no published rule uses, a draft rule set and wording, beside 60 hook calls: every call answers at once, none evaluates again', async () => {
    const unused = await Promise.all([1, 2, 3].map(() => createParameter(t, admin, { loinc_code: '2345-7', units: 'mg/dL' })));
    const draft = await createRuleSet(t, admin, { name: uniqueName('Draft') });
    const write = (n: number) =>
      n % 4 === 3
        ? t
            .http()
            .put(`/api/rule-sets/${draft.id}`)
            .set(admin.auth)
            .send({ name: `Draft ${n}` })
        : t
            .http()
            .put(`/api/parameters/${unused[n % 3].id}`)
            .set(admin.auth)
            .send(
              n % 4 === 0
                ? { loinc_code: n % 8 ? '2345-7' : '2339-0', change_reason: 'Churn' }
                : n % 4 === 1
                  ? { question_override: `What was the glucose, ${n}?`, change_reason: 'Churn' }
                  : { display_name: `Glucose ${n}`, change_reason: 'Churn' },
            );
    const prefetch = await prefetchFor(patients['a1c-diabetes']);
    const refreshed = jest.spyOn(t.runtime.app.get(HookSnapshots), 'refreshed');
    const start = await generation();
    const calls: number[] = [];
    const writes: number[] = [];
    try {
      // Rounds of four calls and four writes at once.
      for (let round = 0; round < 15; round++) {
        const [c, w] = await Promise.all([
          Promise.all([0, 1, 2, 3].map(async () => (await call(hookRequest(patients['a1c-diabetes'], { prefetch }))).status)),
          Promise.all([0, 1, 2, 3].map(async (i) => (await write(round * 4 + i)).status)),
        ]);
        calls.push(...c);
        writes.push(...w);
      }
      expect({ calls: calls.filter((s) => s !== 200), writes: writes.filter((s) => s !== 200) }).toEqual({ calls: [], writes: [] });
      expect(calls).toHaveLength(60);
      expect(refreshed).not.toHaveBeenCalled();
      expect(await generation()).toBe(start);
    } finally {
      refreshed.mockRestore();
    }
  });

  it('a rule set deactivated in another process after this one read its copy: the very next call has no card from it', async () => {
    const prefetch = await prefetchFor(patients['a1c-diabetes']);
    const body = () => hookRequest(patients['a1c-diabetes'], { prefetch });
    expect(byRule(cardsOf(await call(body())), 'Diabetes by HbA1c')).toBeDefined();
    await t.db.query(`UPDATE rule_sets SET is_active = false WHERE id = $1`, [adultCareSetId]);
    try {
      const cards = cardsOf(await call(body()));
      expect(byRule(cards, 'Diabetes by HbA1c')).toBeUndefined();
      expect(cards.map((c) => c.source.label).join('\n')).not.toContain('ADA 2026 adult care');
    } finally {
      await t.db.query(`UPDATE rule_sets SET is_active = true WHERE id = $1`, [adultCareSetId]);
    }
    expect(byRule(cardsOf(await call(body())), 'Diabetes by HbA1c')).toBeDefined();
  });

  it('a client re-keyed in another process is accepted with its new key at once, and refused with the old one; deactivated, refused at once', async () => {
    const issuer = `https://rekeyed.example.org/${randomUUID()}`;
    const [oldKey, newKey] = [await startCdsClient(issuer, 'RS384'), await startCdsClient(issuer, 'RS384')];
    try {
      expectStatus(
        await t
          .http()
          .post('/api/cds-clients')
          .set(admin.auth)
          .send({ issuer, name: 'Re-keyed', jwk: oldKey.publicJwk, allowed_services: ['patient-view'] }),
        201,
        'register',
      );
      const body = hookRequest(patients['bp-crisis'], { prefetch: await prefetchFor(patients['bp-crisis']) });
      expect(cardsOf(await call(body, await oldKey.sign(serviceUrl)))[0].indicator).toBe('critical');
      await t.db.query(`UPDATE cds_clients SET jwk = $2::jsonb WHERE issuer = $1`, [issuer, JSON.stringify(newKey.publicJwk)]);
      expect(cardsOf(await call(body, await newKey.sign(serviceUrl)))[0].indicator).toBe('critical');
      const old = await call(body, await oldKey.sign(serviceUrl));
      expect({ status: old.status, code: old.body.code }).toEqual({ status: 401, code: 'invalid_client_jwt' });
      await t.db.query(`UPDATE cds_clients SET is_active = false WHERE issuer = $1`, [issuer]);
      const gone = await call(body, await newKey.sign(serviceUrl));
      expect({ status: gone.status, code: gone.body.code }).toEqual({ status: 401, code: 'invalid_client_jwt' });
      expect(gone.body.message).toContain('registered, active CDS client');
    } finally {
      await oldKey.close();
      await newKey.close();
    }
  });

  it('a FHIR server taken off the allow-list in another process is never called from the stale copy', async () => {
    const issuer = `https://allow-list.example.org/${randomUUID()}`;
    const client = await startCdsClient(issuer);
    const server = await startFhirServer({ token: FHIR_TOKEN });
    try {
      await registerCdsClient(t, admin, client, { allowed_fhir_servers: [server.url] });
      const prefetch = await prefetchFor(patients['a1c-diabetes']);
      // The copy now holds the client with the server allowed.
      expectStatus(await call(hookRequest(patients['a1c-diabetes'], { prefetch }), await client.sign(serviceUrl)), 200, 'warm');
      await t.db.query(`UPDATE cds_clients SET allowed_fhir_servers = '{}' WHERE issuer = $1`, [issuer]);
      const res = await call(
        hookRequest(patients['a1c-diabetes'], {
          fhirServer: server.url,
          fhirAuthorization: { access_token: FHIR_TOKEN, token_type: 'Bearer', expires_in: 300, scope: 'patient/*.read', subject: 'cds' },
        }),
        await client.sign(serviceUrl),
      );
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'fhir_server_not_allowed' });
      expect(server.requests).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a call whose rules keep changing while it is evaluated is 503 with Retry-After, writes nothing, and its token stays good', async () => {
    const snapshots = t.runtime.app.get(HookSnapshots);
    const real = await snapshots.current();
    // Every copy it gets is of a generation already gone, as when publishes keep landing during the call.
    const gone = { ...real, generation: '0' };
    const current = jest.spyOn(snapshots, 'current').mockResolvedValue(gone);
    const refreshed = jest.spyOn(snapshots, 'refreshed').mockResolvedValue(gone);
    const jti = randomUUID();
    const token = await ehr.sign(serviceUrl, { jti });
    const body = hookRequest(patients['a1c-diabetes'], { prefetch: await prefetchFor(patients['a1c-diabetes']) });
    try {
      const res = await call(body, token);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'service_unavailable' });
      expect(res.headers['retry-after']).toBeDefined();
      expect(refreshed).toHaveBeenCalledTimes(3);
      expect(await t.db.query(`SELECT 1 FROM cds_seen_jtis WHERE jti = $1`, [jti])).toEqual([]);
    } finally {
      current.mockRestore();
      refreshed.mockRestore();
    }
    expect(
      byRule(expectCardsResponse(expectStatus(await call(body, token), 200, 'the same call again').body), 'Diabetes by HbA1c'),
    ).toBeDefined();
  });

  it('a call that fails after its token was verified still spends the jti, and a replay is refused as such whatever its body', async () => {
    const jti = randomUUID();
    const bad = await call({ hook: 'patient-view' }, await ehr.sign(serviceUrl, { jti }));
    expect(bad.status).toBe(400);
    const again = await call(
      hookRequest(patients['a1c-diabetes'], { prefetch: await prefetchFor(patients['a1c-diabetes']) }),
      await ehr.sign(serviceUrl, { jti }),
    );
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 401, code: 'invalid_client_jwt' });
    expect(again.body.message).toContain('replayed');
  });
});

describe('LOINC codes as stored now', () => {
  it("an administrator's edit of a parameter's LOINC code applies at the next hook call and the next discovery", async () => {
    expect(byRule(await cardsWithPrefetch('obese'), 'Obesity')).toBeDefined();
    const edit = async (loinc_code: string) =>
      expectStatus(
        await t.http().put(`/api/parameters/${p.bmi.id}`).set(admin.auth).send({ loinc_code, change_reason: 'LOINC code check' }),
        200,
        `LOINC code ${loinc_code}`,
      );
    await edit('2345-7');
    try {
      const templates = (await t.http().get('/api/cds-services')).body.services[0].prefetch as Record<string, string>;
      expect(templates['obs-2345-7']).toBe(
        'Observation?patient={{context.patientId}}&code=http://loinc.org|2345-7&status=final,amended,corrected&_sort=-date&_count=10',
      );
      expect(templates).not.toHaveProperty('obs-39156-5');
      // The patient's BMI Observation (39156-5) no longer answers the parameter: the rule is undetermined.
      const cards = await cardsWithPrefetch('obese');
      expect(byRule(cards, 'Obesity')).toBeUndefined();
      expect(undetermined(cards)!.detail).toMatch(/\*\*Obesity\*\* \(ADA 2026 adult care\): needs .*\(no Observation found\)/);
    } finally {
      await edit('39156-5');
    }
    expect(byRule(await cardsWithPrefetch('obese'), 'Obesity')).toBeDefined();
  });
});

// Last: publishing another rule set changes every later card list.
describe('age from the Patient resource', () => {
  it('a rule on a parameter named "age" reads whole years from Patient.birthDate; no Patient means unknown', async () => {
    const age = expectStatus(
      await t
        .http()
        .post('/api/parameters')
        .set(admin.auth)
        .send({ name: 'age', display_name: 'Age', data_type: 'number', category: 'demographics', units: 'a' }),
      201,
      'age parameter',
    ).body;
    await createPublishedRuleSet(
      t,
      admin,
      [
        {
          name: 'Screen adults 35 and over',
          priority: 1,
          conditions: [cond(age, '>=', 35)],
          actions: [action('Screen for diabetes every 3 years')],
        },
      ],
      {
        name: 'ADA 2026 screening',
      },
    );
    await patient('young-adult', '2000-06-15', []);
    expect(byRule(await cardsWithPrefetch('a1c-diabetes'), 'Screen adults 35 and over')).toBeDefined();
    expect(byRule(await cardsWithPrefetch('young-adult'), 'Screen adults 35 and over')).toBeUndefined();
    expect(byRule(await cardsFromServer('a1c-diabetes'), 'Screen adults 35 and over')).toBeDefined();
    const id = patients['a1c-diabetes'];
    const res = await call(hookRequest(id, { prefetch: { ...(await prefetchFor(id)), patient: null } }));
    const cards = expectCardsResponse(expectStatus(res, 200, 'no patient').body);
    expect(byRule(cards, 'Screen adults 35 and over')).toBeUndefined();
    expect(undetermined(cards)!.detail).toContain('**Screen adults 35 and over** (ADA 2026 screening): needs Age');
  });

  it('a rule on sex reads Patient.gender into the matching option; "other" or "unknown" leave it unknown; the link carries both', async () => {
    const sex = expectStatus(
      await t
        .http()
        .post('/api/parameters')
        .set(admin.auth)
        .send({
          name: 'sex',
          display_name: 'Sex',
          data_type: 'select',
          category: 'demographics',
          validation_rules: {
            options: [
              { value: 'F', label: 'Female' },
              { value: 'M', label: 'Male' },
            ],
          },
        }),
      201,
      'sex parameter',
    ).body;
    await createPublishedRuleSet(
      t,
      admin,
      [
        {
          name: 'Gestational diabetes history',
          priority: 1,
          conditions: [cond(sex, '==', 'F')],
          actions: [action('Ask about gestational diabetes')],
        },
      ],
      { name: 'ADA 2026 women' },
    );
    const woman = await patient('woman', '1980-03-03', [['4548-4', 5.1, '%', 5]]);
    await fhir.repo.updateResource({ ...(await fhir.repo.readResource('Patient', woman)), gender: 'female' } as Resource);
    const man = await patient('man', '1980-03-03', []);
    await fhir.repo.updateResource({ ...(await fhir.repo.readResource('Patient', man)), gender: 'male' } as Resource);
    const other = await patient('other-gender', '1980-03-03', []);
    await fhir.repo.updateResource({ ...(await fhir.repo.readResource('Patient', other)), gender: 'other' } as Resource);

    const cards = await cardsWithPrefetch('woman');
    const card = byRule(cards, 'Gestational diabetes history')!;
    expect(card.detail).toContain('Sex = "F": F');
    expect(byRule(await cardsFromServer('woman'), 'Gestational diabetes history')).toBeDefined();
    expect(byRule(await cardsWithPrefetch('man'), 'Gestational diabetes history')).toBeUndefined();
    const unknown = await cardsWithPrefetch('other-gender');
    expect(byRule(unknown, 'Gestational diabetes history')).toBeUndefined();
    expect(undetermined(unknown)!.detail).toContain('needs Sex (not available from the EHR)');

    const ticket = new URL(card.links![0].url).searchParams.get('prefill')!;
    const values = expectStatus(await t.http().post('/api/cds-prefill/redeem').set(pcp.auth).send({ ticket }), 200, 'redeem').body.values;
    expect(values).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ parameter_name: 'sex', value: 'F', unit: null, observed_at: null, source: 'patient' }),
        expect.objectContaining({ parameter_name: 'age', value: expect.any(Number), source: 'patient' }),
        expect.objectContaining({ parameter_name: p.hba1c.name, value: 5.1, unit: '%', source: 'observation' }),
      ]),
    );
  });
});
