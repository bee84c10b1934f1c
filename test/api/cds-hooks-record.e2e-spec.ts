import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Resource } from '@medplum/fhirtypes';
import { startTestApp, type TestApp } from '../support/app';
import { createCast, type TestUser } from '../support/factories';
import {
  action,
  adaCoreRules,
  cond,
  createFromTemplate,
  createParameter,
  createPublishedRuleSet,
  expectStatus,
  seedTemplates,
  type ParameterJson,
} from '../support/clinical-factories';
import { startFhirServer, type FhirServer } from '../support/fhir-server';
import {
  expectCardsResponse,
  expectHookRequest,
  registerCdsClient,
  startCdsClient,
  type Card,
  type CdsClientKeys,
} from '../support/cds-hooks';

/**
 * The patient's record as EHRs really send it (issue 20): mixed units and spellings, statuses,
 * comparators, several results per code, panels, future dates. Each situation is sent three ways:
 * the prefetch the discovery templates give (the EHR's server filters statuses and sorts), a raw
 * prefetch of every result (an EHR that ignores the filter), and no prefetch (the service fetches
 * from the FHIR server). The cards must be the same and right every way.
 */
const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const FHIR_TOKEN = `fhir-${randomUUID()}`;

let t: TestApp;
let admin: TestUser;
let pcp: TestUser;
let fhir: FhirServer;
let flaky: { url: string; close(): Promise<void> };
let ehr: CdsClientKeys;
let serviceUrl: string;
const patients: Record<string, string> = {};
const records: Record<string, Record<string, unknown>[]> = {};

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

type Quantity = { value: number; unit: string; comparator?: string; system?: string };

function observation(loinc: string, q: Quantity, when: string, status = 'final'): Record<string, unknown> {
  return {
    resourceType: 'Observation',
    status,
    code: { coding: [{ system: LOINC, code: loinc }] },
    effectiveDateTime: when,
    valueQuantity: { system: UCUM, code: q.unit, ...q },
  };
}

function bpPanel(systolic: number, diastolic: number, when: string, unit = 'mm[Hg]'): Record<string, unknown> {
  const component = (code: string, value: number) => ({
    code: { coding: [{ system: LOINC, code }] },
    valueQuantity: { value, unit, system: UCUM, code: unit },
  });
  return {
    resourceType: 'Observation',
    status: 'final',
    code: { coding: [{ system: LOINC, code: '85354-9' }] },
    effectiveDateTime: when,
    component: [component('8480-6', systolic), component('8462-4', diastolic)],
  };
}

async function patient(name: string, resources: Record<string, unknown>[]): Promise<void> {
  const created = await fhir.create({ resourceType: 'Patient', name: [{ family: name }], birthDate: '1961-05-05' });
  records[name] = [];
  for (const r of resources) {
    const stored = await fhir.create({ ...r, subject: { reference: `Patient/${created.id}` } } as Resource);
    records[name].push(stored as unknown as Record<string, unknown>);
  }
  patients[name] = created.id;
}

async function templates(): Promise<Record<string, string>> {
  return (await t.http().get('/api/cds-services')).body.services[0].prefetch as Record<string, string>;
}

/** The prefetch the discovery templates give, run against the EHR's FHIR server. */
async function prefetchFor(name: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [key, template] of Object.entries(await templates())) {
    const res = await fetch(`${fhir.url}/${template.replace('{{context.patientId}}', patients[name])}`, {
      headers: { authorization: `Bearer ${FHIR_TOKEN}` },
    });
    out[key] = res.ok ? await res.json() : null;
  }
  return out;
}

/** Every result of each template's codes, unsorted and unfiltered: an EHR that ignores status, sort and count. */
async function rawPrefetchFor(name: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [key, template] of Object.entries(await templates())) {
    if (key === 'patient') continue;
    const codes = [...template.matchAll(/loinc\.org\|([0-9-]+)/g)].map((m) => m[1]);
    const codesOf = (r: Record<string, unknown>) => {
      const own = (r.code as { coding: { code: string }[] }).coding.map((c) => c.code);
      const parts = ((r.component as { code: { coding: { code: string }[] } }[] | undefined) ?? []).flatMap((c) =>
        c.code.coding.map((x) => x.code),
      );
      return [...own, ...parts];
    };
    const entry = records[name].filter((r) => codesOf(r).some((c) => codes.includes(c))).map((resource) => ({ resource }));
    out[key] = { resourceType: 'Bundle', type: 'searchset', entry: [...entry].reverse() };
  }
  return out;
}

function hookRequest(name: string, extra: Record<string, unknown> = {}) {
  const body = {
    hook: 'patient-view',
    hookInstance: randomUUID(),
    context: { userId: 'Practitioner/example', patientId: patients[name] },
    ...extra,
  };
  expectHookRequest(body);
  return body;
}

async function call(body: object) {
  return t
    .http()
    .post('/api/cds-services/patient-view')
    .set('Authorization', `Bearer ${await ehr.sign(serviceUrl)}`)
    .send(body);
}

const fromServer = (url: string) => ({
  fhirServer: url,
  fhirAuthorization: { access_token: FHIR_TOKEN, token_type: 'Bearer', expires_in: 300, scope: 'patient/*.read', subject: 'cds-service' },
});

async function cards(what: string, body: object): Promise<Card[]> {
  const res = await call(body);
  expectStatus(res, 200, what);
  return expectCardsResponse(res.body);
}

const strip = (list: Card[]) => list.map(({ uuid: _uuid, links: _links, ...rest }) => rest);

/** The cards for a patient, the same by each of the three ways an EHR may send the record. */
async function cardsFor(name: string): Promise<Card[]> {
  const prefetched = await cards(`${name} (prefetch)`, hookRequest(name, { prefetch: await prefetchFor(name) }));
  const raw = await cards(`${name} (raw prefetch)`, hookRequest(name, { prefetch: await rawPrefetchFor(name) }));
  const fetched = await cards(`${name} (FHIR server)`, hookRequest(name, fromServer(fhir.url)));
  expect(strip(raw)).toEqual(strip(prefetched));
  expect(strip(fetched)).toEqual(strip(prefetched));
  return prefetched;
}

const byRule = (list: Card[], rule: string) => list.find((c) => c.summary.startsWith(`${rule}:`));
const setAside = (list: Card[]) => list.find((c) => c.source.label === 'DiabetesCDS reading of the record');

let p: Record<string, ParameterJson>;

beforeAll(async () => {
  expect(Number(process.version.slice(1).split('.')[0])).toBeGreaterThanOrEqual(22);
  t = await startTestApp();
  ({ admin, pcp } = await createCast(t));
  serviceUrl = `${t.url}/api/cds-services/patient-view`;
  const seeded = await seedTemplates(t, admin);
  const suffix = randomUUID().slice(0, 6);
  p = {};
  for (const name of ['hba1c', 'fasting_glucose', 'blood_pressure_systolic', 'blood_pressure_diastolic', 'microalbumin'])
    p[name] = await createFromTemplate(t, admin, seeded[name], { name: `${name}_${suffix}` });
  p.egfr = await createParameter(t, admin, {
    name: `egfr_${suffix}`,
    display_name: 'eGFR',
    data_type: 'lab_range',
    units: 'mL/min/{1.73_m2}',
    loinc_code: '62238-1',
    validation_rules: { min: 0, max: 200, decimals: 0 },
  });
  // A second parameter on the IFCC code: NGSP and IFCC HbA1c are one search, fetched once per call.
  p.a1c_ifcc = await createParameter(t, admin, {
    name: `a1c_ifcc_${suffix}`,
    display_name: 'HbA1c (IFCC)',
    data_type: 'lab_range',
    units: 'mmol/mol',
    loinc_code: '59261-8',
    validation_rules: {
      min: 9,
      max: 195,
      decimals: 0,
      units_accepted: [
        {
          code: '%',
          factor: 10.929,
          offset: -23.5,
          equivalents: [
            [5.7, 39],
            [6.5, 48],
            [7.0, 53],
          ],
        },
      ],
    },
  });
  await createPublishedRuleSet(
    t,
    admin,
    [
      ...adaCoreRules(p),
      {
        name: 'Diastolic crisis',
        priority: 29,
        conditions: [cond(p.blood_pressure_diastolic, '>=', 120)],
        actions: [action('Assess for target-organ damage today', { severity: 'critical' })],
      },
      {
        name: 'CKD stage G5',
        priority: 28,
        conditions: [cond(p.egfr, '<', 15)],
        actions: [action('Refer to nephrology now: kidney failure', { severity: 'critical' })],
      },
      {
        name: 'CKD stage G4',
        priority: 18,
        conditions: [cond(p.egfr, '<', 30), cond(p.egfr, '>=', 15)],
        actions: [action('Refer to nephrology', { severity: 'high' })],
      },
      {
        name: 'Albuminuria A2',
        priority: 10,
        conditions: [cond(p.microalbumin, '>=', 30)],
        actions: [action('Start an ACE inhibitor or ARB', { severity: 'medium' })],
      },
      {
        name: 'IFCC A1C at 53 or above',
        priority: 5,
        conditions: [cond(p.a1c_ifcc, '>=', 53)],
        actions: [action('Intensify glucose-lowering therapy', { severity: 'low' })],
      },
    ],
    { name: 'Record reading', source: 'ADA Standards of Care in Diabetes—2026' },
  );

  fhir = await startFhirServer({ token: FHIR_TOKEN });
  flaky = await startFlakyServer(fhir.url);
  ehr = await startCdsClient(`https://ehr.example.org/${randomUUID()}`);
  await registerCdsClient(t, admin, ehr, { allowed_fhir_servers: [`${fhir.url}/`, `${flaky.url}/`] });

  await patient('crisis-with-a1c-sent-as-48-percent', [
    observation('8480-6', { value: 200, unit: 'mm[Hg]' }, daysAgo(1)),
    observation('4548-4', { value: 48, unit: '%' }, daysAgo(3)),
  ]);
  await patient('ehr-spellings-mmHg-and-mg-dl', [
    observation('8480-6', { value: 186, unit: 'mmHg' }, daysAgo(1)),
    observation('1558-6', { value: 140, unit: 'mg/dl' }, daysAgo(2)),
  ]);
  await patient('latest-a1c-entered-in-error', [
    observation('4548-4', { value: 7.1, unit: '%' }, daysAgo(20)),
    observation('4548-4', { value: 5.2, unit: '%' }, daysAgo(2), 'entered-in-error'),
    observation('4548-4', { value: 5.3, unit: '%' }, daysAgo(1), 'preliminary'),
  ]);
  await patient('a1c-dated-2030', [
    observation('4548-4', { value: 5.4, unit: '%' }, daysAgo(10)),
    observation('4548-4', { value: 9.1, unit: '%' }, '2030-01-01T09:00:00Z'),
  ]);
  await patient('egfr-below-15', [observation('62238-1', { value: 15, comparator: '<', unit: 'mL/min/1.73m2' }, daysAgo(4))]);
  await patient('ifcc-a1c-48', [observation('59261-8', { value: 48, unit: 'mmol/mol' }, daysAgo(5))]);
  await patient('uacr-3-mg-mmol', [observation('9318-7', { value: 3.0, unit: 'mg/mmol' }, daysAgo(30))]);
  await patient('bp-panel-diastolic-above-systolic', [bpPanel(90, 150, daysAgo(1), 'mmHg')]);
  await patient('a1c-history-in-two-units', [
    observation('4548-4', { value: 6.0, unit: '%' }, daysAgo(80)),
    observation('59261-8', { value: 53, unit: 'mmol/mol' }, daysAgo(20)),
    observation('4548-4', { value: 5.9, unit: '%' }, daysAgo(1), 'preliminary'),
  ]);
  await patient('crisis-with-glucose-and-uacr', [
    observation('8480-6', { value: 190, unit: 'mm[Hg]' }, daysAgo(1)),
    observation('1558-6', { value: 130, unit: 'mg/dL' }, daysAgo(1)),
    observation('9318-7', { value: 45, unit: 'mg/g' }, daysAgo(1)),
  ]);
  // Hypertension (CMS165's initial population) and more blood-pressure results than one search returns: a panel a
  // minute this past hour and a half, and single readings before them, all this year.
  const thisYear = (msAgo: number) =>
    new Date(Math.max(Date.UTC(new Date().getUTCFullYear(), 0, 1, 0, 1), Date.now() - msAgo)).toISOString();
  await patient('hypertension-under-105-bp-panels', [
    {
      resourceType: 'Condition',
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
      code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'I10' }] },
      onsetDateTime: `${new Date().getUTCFullYear()}-01-01`,
    },
    {
      resourceType: 'Encounter',
      status: 'finished',
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
      type: [{ coding: [{ system: 'http://snomed.info/sct', code: '185460008' }] }],
      period: { start: thisYear(3 * 3_600_000), end: thisYear(3 * 3_600_000) },
    },
    ...Array.from({ length: 105 }, (_, i) => bpPanel(128, 78, thisYear(60_000 * (i + 1)))),
    observation('8480-6', { value: 126, unit: 'mm[Hg]' }, thisYear(2 * 3_600_000)),
    observation('8462-4', { value: 76, unit: 'mm[Hg]' }, thisYear(2 * 3_600_000)),
  ]);
}, 120_000);

afterAll(async () => {
  await flaky?.close();
  await fhir?.close();
  await ehr?.close();
  await t?.close();
});

describe('one unreadable result sets aside only its input; every other card is returned', () => {
  it('SBP 200 with an A1C sent as 48 "%": the critical crisis card first, and one info card says the A1C was set aside and why', async () => {
    const list = await cardsFor('crisis-with-a1c-sent-as-48-percent');
    expect(list[0].summary).toBe('Hypertensive crisis: Assess for target-organ damage today');
    expect(list[0].indicator).toBe('critical');
    expect(byRule(list, 'Diabetes by HbA1c')).toBeUndefined();
    const aside = list.filter((c) => c.source.label === 'DiabetesCDS reading of the record');
    expect(aside).toHaveLength(1);
    expect(aside[0].indicator).toBe('info');
    // The IFCC parameter reads the same result (48 % is about 500 mmol/mol) and sets it aside too.
    expect(aside[0].summary).toMatch(/^2 results set aside from the record: HbA1c 48 % of \d{4}-\d{2}-\d{2} set aside: outside the plau/);
    expect(aside[0].detail).toMatch(/- HbA1c 48 % of \d{4}-\d{2}-\d{2} set aside: outside the plausible range 3 to 20 %\n/);
    // The rules that needed it say so.
    expect(list.find((c) => / undetermined: /.test(c.summary))!.detail).toContain(
      'HbA1c (set aside: outside the plausible range 3 to 20 %)',
    );
  });

  it('SBP coded mmHg and glucose in mg/dl (EHR spellings, not UCUM) are read through the alias list', async () => {
    const list = await cardsFor('ehr-spellings-mmHg-and-mg-dl');
    expect(byRule(list, 'Hypertensive crisis')!.indicator).toBe('critical');
    expect(byRule(list, 'Diabetes by fasting glucose')!.detail).toContain('Fasting Glucose ≥ 126 mg/dL: 140 mg/dL');
    expect(setAside(list)).toBeUndefined();
  });

  it('a blood-pressure panel with the diastolic (150) above the systolic (90): both set aside, no crisis card', async () => {
    const list = await cardsFor('bp-panel-diastolic-above-systolic');
    expect(byRule(list, 'Diastolic crisis')).toBeUndefined();
    expect(byRule(list, 'Hypertensive crisis')).toBeUndefined();
    expect(setAside(list)!.detail).toMatch(
      /- Systolic Blood Pressure 90 mmHg of \S+ and Diastolic Blood Pressure 150 mmHg of \S+ set aside: the diastolic pressure is not below the systolic/,
    );
  });
});

describe('the latest valid, non-future result decides', () => {
  it('an entered-in-error (and a preliminary) latest A1C no longer hides the valid 7.1 % before it', async () => {
    const card = byRule(await cardsFor('latest-a1c-entered-in-error'), 'Diabetes by HbA1c')!;
    expect(card.detail).toContain('HbA1c ≥ 6.5 %: 7.1 %');
  });

  it('an A1C dated 2030 is not the latest: the 5.4 % decides, and the card detail lists the future-dated result', async () => {
    const list = await cardsFor('a1c-dated-2030');
    expect(byRule(list, 'Diabetes by HbA1c')).toBeUndefined();
    const aside = setAside(list)!;
    expect(aside.indicator).toBe('info');
    expect(aside.detail).toContain('Results dated in the future, not used as the latest:');
    expect(aside.detail).toContain('HbA1c 9.1 % dated 2030-01-01');
    // Listed once, though the IFCC parameter reads it too.
    expect(aside.detail).not.toContain('HbA1c (IFCC) 9.1 %');
  });

  it('an A1C history in % and mmol/mol: the latest final one (53 mmol/mol = 7.0 %) decides, the preliminary 5.9 % does not', async () => {
    const list = await cardsFor('a1c-history-in-two-units');
    expect(byRule(list, 'Diabetes by HbA1c')!.detail).toContain('HbA1c ≥ 6.5 %: 53 mmol/mol (7 %)');
    expect(byRule(list, 'IFCC A1C at 53 or above')!.detail).toContain('HbA1c (IFCC) ≥ 53 mmol/mol: 53 mmol/mol');
  });
});

describe('comparators and guideline units', () => {
  it('eGFR "< 15" is an interval: the critical G5 card fires, not the G4 warning', async () => {
    const list = await cardsFor('egfr-below-15');
    const g5 = byRule(list, 'CKD stage G5')!;
    expect(g5.indicator).toBe('critical');
    // Markdown: "<" is escaped in the detail.
    expect(g5.detail).toContain('- eGFR \\< 15 mL/min/1.73 m²: \\< 15 mL/min/1.73 m², Observation of');
    expect(byRule(list, 'CKD stage G4')).toBeUndefined();
  });

  it('an IFCC A1C of 48 mmol/mol (LOINC 59261-8) is read for HbA1c: exactly 6.5 %, diabetes', async () => {
    const card = byRule(await cardsFor('ifcc-a1c-48'), 'Diabetes by HbA1c')!;
    expect(card.detail).toContain('HbA1c ≥ 6.5 %: 48 mmol/mol (6.5 %)');
  });

  it('UACR 3.0 mg/mmol is KDIGO A2 (30 mg/g), not 26.5 mg/g', async () => {
    const card = byRule(await cardsFor('uacr-3-mg-mmol'), 'Albuminuria A2')!;
    expect(card.detail).toContain('Microalbumin ≥ 30 mg/g creatinine: 3 mg/mmol (30 mg/g creatinine)');
  });
});

describe('prefetch asks for a bounded, sorted history; the FHIR server is asked once per code and bounded', () => {
  it('the templates ask for valid statuses, newest first, at most 10 results; NGSP and IFCC HbA1c are one search', async () => {
    const list = await templates();
    expect(list['obs-4548-4']).toBe(
      'Observation?patient={{context.patientId}}&code=http://loinc.org|4548-4,http://loinc.org|59261-8&status=final,amended,corrected&_sort=-date&_count=10',
    );
    expect(list).not.toHaveProperty('obs-59261-8');
  });

  it('one fetch per search per call, however many parameters read it', async () => {
    const before = fhir.requests.length;
    await cards('one fetch per code', hookRequest('a1c-history-in-two-units', fromServer(fhir.url)));
    const observations = fhir.requests.slice(before).filter((r) => r.startsWith('/Observation'));
    // The HbA1c parameters' latest ten are read from CMS122's search of its value set, asked for the IFCC code too: one search.
    const a1c = observations.filter((r) => r.includes('4548-4'));
    expect(a1c).toHaveLength(1);
    expect(a1c[0]).toContain('59261-8');
    expect(a1c[0]).toContain('_count=100');
    expect(new Set(observations).size).toBe(observations.length);
  });

  it('more blood-pressure panels than one search returns: the latest systolic and CMS165 read from one search of 8480-6 and its panel', async () => {
    const name = 'hypertension-under-105-bp-panels';
    // (A raw prefetch of every result is larger than a hook request may be; the templates' prefetch is over 100 kB.)
    const prefetched = await cards(`${name} (prefetch)`, hookRequest(name, { prefetch: await prefetchFor(name) }));
    // CMS165 reads the newest pressure, a panel's components (128/78): controlled, no gap card.
    expect(prefetched.filter((c) => c.summary.startsWith('Gap in care:') && c.source.label.startsWith('CMS165'))).toEqual([]);
    const before = fhir.requests.length;
    const fetched = await cards(`${name} (FHIR server)`, hookRequest(name, fromServer(fhir.url)));
    expect(strip(fetched)).toEqual(strip(prefetched));
    const systolic = fhir.requests.slice(before).filter((r) => r.startsWith('/Observation') && r.includes('8480-6'));
    // The systolic parameter's latest ten and CMS165's readings ask for the same codes (8480-6 and the panel that
    // carries it): one search of a hundred answers both.
    expect(systolic.map((r) => new URL(r, 'http://x').searchParams.get('code'))).toEqual([`${LOINC}|8480-6,${LOINC}|85354-9`]);
    expect(systolic[0]).toContain('_count=100');
  });

  it('a FHIR server failing one code (500), answering over 2 MB for another and never answering a third: only those inputs are set aside', async () => {
    const list = await cards('flaky server', hookRequest('crisis-with-glucose-and-uacr', fromServer(flaky.url)));
    expect(byRule(list, 'Hypertensive crisis')!.indicator).toBe('critical');
    expect(byRule(list, 'Diabetes by fasting glucose')).toBeUndefined();
    expect(byRule(list, 'Albuminuria A2')).toBeUndefined();
    const aside = setAside(list)!;
    expect(aside.detail).toContain('Fasting Glucose not read: the FHIR server answered 500');
    expect(aside.detail).toContain("Microalbumin not read: the FHIR server's answer is larger than 2 MB");
    expect(aside.detail).toContain('eGFR not read: the FHIR server did not answer within 5 s');
    // The same patient from the healthy server: both cards.
    const healthy = await cards('healthy server', hookRequest('crisis-with-glucose-and-uacr', fromServer(fhir.url)));
    expect(byRule(healthy, 'Diabetes by fasting glucose')).toBeDefined();
    expect(byRule(healthy, 'Albuminuria A2')).toBeDefined();
  });

  it('a server that answers nothing at all is still 412 fhir_data_unavailable (no data is not a patient without findings)', async () => {
    const res = await call(
      hookRequest('crisis-with-glucose-and-uacr', {
        ...fromServer(fhir.url),
        fhirAuthorization: { ...fromServer(fhir.url).fhirAuthorization, access_token: 'wrong' },
      }),
    );
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 412, code: 'fhir_data_unavailable' });
  });
});

describe('typed answers are read by the same rules', () => {
  /** Answers the clinical form's questions from `given` (by parameter id; anything else Not available) until one is refused. */
  async function answerUntilRefused(given: Record<string, { value: unknown; unit?: string }>) {
    let a = expectStatus(await t.http().post('/api/assessments').set(pcp.auth).send({ mode: 'clinical' }), 201, 'start').body;
    for (let guard = 0; !a.is_completed && guard < 30; guard++) {
      const id: string = a.current_parameter_id;
      const answer = given[id] ?? { value: 'unknown' };
      const res = await t
        .http()
        .post(`/api/assessments/${a.id}/answers`)
        .set(pcp.auth)
        .send({ parameter_id: id, ...answer, step: a.step });
      if (res.status !== 200) return res;
      a = res.body;
    }
    return { status: 200, body: a };
  }

  it('SBP 90 and DBP 150 typed in one assessment: the second is refused 422 naming both', async () => {
    const res = await answerUntilRefused({
      [p.blood_pressure_systolic.id]: { value: 90 },
      [p.blood_pressure_diastolic.id]: { value: 150 },
    });
    expect({ status: res.status, code: res.body.code, statusCode: res.body.statusCode }).toEqual({
      status: 422,
      code: 'out_of_range',
      statusCode: 422,
    });
    expect(res.body.message).toMatch(/Diastolic Blood Pressure \(150 mmHg\) must be below Systolic Blood Pressure \(90 mmHg\)/);
    expect(res.body.details).toEqual([{ field: 'value', message: res.body.message }]);
  });

  it('an HbA1c of 7.2 % typed as observed in 2019 is stale: refused 422 naming the date, no current "Diabetes" finding', async () => {
    const res = await answerUntilRefused({ [p.hba1c.id]: { value: 7.2, observed_at: '2019-03-01' } as { value: unknown } });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'out_of_range' });
    expect(res.body.details).toEqual([
      { field: 'observed_at', message: 'HbA1c observed on 2019-03-01 is older than 90 days: enter a current value, or Not available' },
    ]);
  });

  it('SBP typed with the unit "mmHg" and UACR 3.0 typed in mg/mmol (30 mg/g, KDIGO A2) are accepted and read as the hook reads them', async () => {
    const res = await answerUntilRefused({
      [p.blood_pressure_systolic.id]: { value: 186, unit: 'mmHg' },
      [p.microalbumin.id]: { value: 3.0, unit: 'mg/mmol' },
    });
    expect(res.status).toBe(200);
    const names = (res.body.findings as { rule_name: string }[]).map((f) => f.rule_name);
    expect(names).toEqual(expect.arrayContaining(['Hypertensive crisis', 'Albuminuria A2']));
  });
});

describe('a unit conversion with guideline equivalents is validated', () => {
  it.each([
    [
      'decreasing',
      [
        [7.0, 126],
        [5.6, 100],
      ],
    ],
    ['not pairs', [[5.6]]],
    ['not finite', [[5.6, 'a hundred']]],
    ['empty', []],
  ])('equivalents %s: 400 validation_failed, nothing created', async (_what, equivalents) => {
    const res = await t
      .http()
      .post('/api/parameters')
      .set(admin.auth)
      .send({
        name: `glucose_${randomUUID().slice(0, 8)}`,
        display_name: 'Glucose',
        data_type: 'lab_range',
        category: 'labs',
        units: 'mg/dL',
        validation_rules: { min: 20, max: 800, units_accepted: [{ code: 'mmol/L', factor: 18, equivalents }] },
      });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'validation_failed' });
    expect(JSON.stringify(res.body.details)).toContain('units_accepted[0]');
  });

  it('the seeded templates carry the ADA and KDIGO pairs', async () => {
    const seeded = await seedTemplates(t, admin);
    const pairs = (name: string) => (seeded[name].validation_rules.units_accepted as { equivalents?: unknown }[])[0].equivalents;
    expect(pairs('hba1c')).toEqual([
      [39, 5.7],
      [48, 6.5],
      [53, 7],
      [64, 8],
      [75, 9],
    ]);
    expect(pairs('fasting_glucose')).toEqual(
      expect.arrayContaining([
        [5.6, 100],
        [7.0, 126],
      ]),
    );
    expect(pairs('microalbumin')).toEqual([
      [3, 30],
      [30, 300],
    ]);
  });
});

/**
 * The EHR's FHIR server on a bad day: 500 for fasting glucose, a 3 MB answer streamed without
 * Content-Length for UACR, no answer at all for eGFR; anything else is passed through to the real server.
 */
async function startFlakyServer(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').replace(/^\/fhir\/R4/, '');
    if (path.includes('1558-6')) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('boom');
      return;
    }
    if (path.includes('62238-1')) return; // never answers
    if (path.includes('9318-7')) {
      res.writeHead(200, { 'content-type': 'application/fhir+json' });
      const filler = JSON.stringify({ resource: { resourceType: 'Observation', status: 'final', note: [{ text: 'x'.repeat(1000) }] } });
      res.write('{"resourceType":"Bundle","type":"searchset","entry":[');
      let sent = 0;
      const more = () => {
        while (sent < 3000) {
          sent++;
          if (!res.write(`${sent > 1 ? ',' : ''}${filler}`)) return void res.once('drain', more);
        }
        res.end(']}');
      };
      res.on('error', () => undefined);
      more();
      return;
    }
    void fetch(`${upstream}${path}`, { headers: { authorization: req.headers.authorization ?? '' } }).then(async (r) => {
      res.writeHead(r.status, { 'content-type': 'application/fhir+json' });
      res.end(Buffer.from(await r.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/fhir/R4`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
