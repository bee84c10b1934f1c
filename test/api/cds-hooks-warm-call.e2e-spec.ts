import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/app';
import { createCast, type TestUser } from '../support/factories';
import {
  action,
  cond,
  createFromTemplate,
  createPublishedRuleSet,
  expectStatus,
  seedTemplates,
  type ParameterJson,
} from '../support/clinical-factories';
import { startFhirServer, type FhirServer } from '../support/fhir-server';
import { statementsOf } from '../support/statements';
import { CdsHooksRepository } from '../../backend/src/modules/cds-hooks/cds-hooks.repository';
import { expectCardsResponse, recordHookCalls, startCdsClient, type Card, type CdsClientKeys } from '../support/cds-hooks';

/**
 * Issue 22: a patient-view call on a warm API process costs one statement (the one that records it and
 * checks the generation its copy of clients and published versions was read at), and what an
 * administrator changes through the API — a client deleted, a key rotated, a rule set published —
 * counts from the very next call.
 */
const FHIR_TOKEN = `fhir-${randomUUID()}`;
const LOINC = 'http://loinc.org';
let t: TestApp;
let admin: TestUser;
let fhir: FhirServer;
let ehr: CdsClientKeys;
let hba1c: ParameterJson;
let bmi: ParameterJson;
let hooks: ReturnType<typeof recordHookCalls>;
let serviceUrl: string;

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
const observation = (loinc: string, value: number, unit: string) => ({
  resourceType: 'Observation',
  status: 'final',
  code: { coding: [{ system: LOINC, code: loinc }] },
  effectiveDateTime: daysAgo(5),
  valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
});
const summaries = (cards: Card[]) => cards.map((c) => c.summary);

/** A patient-view call, signed and prefetched beforehand (discovery reads the database): only the call is left to send. */
async function prepared(patient: string, keys = ehr) {
  const jwt = await keys.sign(serviceUrl);
  const body = { hook: 'patient-view', hookInstance: randomUUID(), context: { userId: 'Practitioner/1', patientId: hooks.ids[patient] } };
  const prefetch = await hooks.prefetchFor(patient);
  return () =>
    t
      .http()
      .post('/api/cds-services/patient-view')
      .set('Authorization', `Bearer ${jwt}`)
      .send({ ...body, prefetch });
}

const hookCall = async (patient: string, keys = ehr) => (await prepared(patient, keys))();

const cardsOf = (res: Awaited<ReturnType<typeof hookCall>>) => expectCardsResponse(expectStatus(res, 200, 'patient-view').body);

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'error' });
  ({ admin } = await createCast(t));
  serviceUrl = `${t.url}/api/cds-services/patient-view`;
  const templates = await seedTemplates(t, admin);
  const suffix = randomUUID().slice(0, 6);
  hba1c = await createFromTemplate(t, admin, templates.hba1c, { name: `hba1c_${suffix}` });
  bmi = await createFromTemplate(t, admin, templates.bmi, { name: `bmi_${suffix}` });
  await createPublishedRuleSet(
    t,
    admin,
    [
      {
        name: 'Diabetes by HbA1c',
        priority: 20,
        conditions: [cond(hba1c, '>=', 6.5)],
        actions: [action('Confirm the diagnosis and start diabetes care', { severity: 'high' })],
      },
      // So the discovery asks for the BMI before the weight rule set is published.
      {
        name: 'Class 3 obesity',
        priority: 10,
        conditions: [cond(bmi, '>=', 40)],
        actions: [action('Discuss metabolic surgery', { severity: 'medium' })],
      },
    ],
    { name: 'Diagnosis' },
  );
  fhir = await startFhirServer({ token: FHIR_TOKEN });
  ehr = await startCdsClient(`https://ehr.example.org/${randomUUID()}`);
  expectStatus(
    await t
      .http()
      .post('/api/cds-clients')
      .set(admin.auth)
      .send({
        issuer: ehr.issuer,
        name: 'Example EHR',
        jwk: ehr.publicJwk,
        allowed_services: ['patient-view'],
        allowed_fhir_servers: [fhir.url],
      }),
    201,
    'register',
  );
  hooks = recordHookCalls(t, fhir, ehr, FHIR_TOKEN);
  await hooks.patient('diabetic-and-obese', [observation('4548-4', 7.4, '%'), observation('39156-5', 33.0, 'kg/m2')]);
}, 120_000);

afterAll(async () => {
  await fhir?.close();
  await ehr?.close();
  await t?.close();
});

describe('a patient-view call on a warm process', () => {
  it('is one statement: the one that records the call, its cards and tickets, and checks the generation', async () => {
    // The first call reads the copy (clients, published versions, LOINC codes) and the value sets.
    expect(summaries(cardsOf(await hookCall('diabetic-and-obese')))[0]).toMatch(/^Diabetes by HbA1c:/);
    for (let i = 0; i < 3; i++) {
      const { result, statements } = await statementsOf(await prepared('diabetic-and-obese'));
      expect(summaries(cardsOf(result))[0]).toMatch(/^Diabetes by HbA1c:/);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(
        /^WITH current AS \(SELECT generation FROM cds_hook_generation\), c AS \(SELECT \* FROM jsonb_to_recordset/,
      );
      expect(statements[0]).toContain('INSERT INTO cds_seen_jtis');
      expect(statements[0]).toContain('INSERT INTO cds_cards');
    }
  });
});

describe('what a call checks before it refuses or fetches: the generation alone, not the whole copy', () => {
  const GENERATION_ONLY = 'SELECT generation::text AS generation FROM cds_hook_generation';

  it('a token from an issuer no one registered, or signed with the wrong key, costs one statement and is refused', async () => {
    const stranger = await startCdsClient(`https://stranger.example.org/${randomUUID()}`, 'ES384');
    const impostor = await startCdsClient(ehr.issuer, 'ES384');
    try {
      await hookCall('diabetic-and-obese');
      for (const keys of [stranger, impostor]) {
        const { result, statements } = await statementsOf(await prepared('diabetic-and-obese', keys));
        expect({ status: result.status, code: result.body.code }).toEqual({ status: 401, code: 'invalid_client_jwt' });
        expect(result.body.message).toContain('registered, active CDS client');
        expect(statements).toEqual([GENERATION_ONLY]);
      }
    } finally {
      await stranger.close();
      await impostor.close();
    }
  });

  it('a call without prefetch confirms the generation before it asks the FHIR server, then records: two statements', async () => {
    const send = async () => {
      const jwt = await ehr.sign(serviceUrl);
      return () =>
        t
          .http()
          .post('/api/cds-services/patient-view')
          .set('Authorization', `Bearer ${jwt}`)
          .send({
            hook: 'patient-view',
            hookInstance: randomUUID(),
            context: { userId: 'Practitioner/1', patientId: hooks.ids['diabetic-and-obese'] },
            fhirServer: fhir.url,
            fhirAuthorization: {
              access_token: FHIR_TOKEN,
              token_type: 'Bearer',
              expires_in: 300,
              scope: 'patient/*.read',
              subject: 'cds-service',
            },
          });
    };
    await (
      await send()
    )();
    const { result, statements } = await statementsOf(await send());
    expect(summaries(cardsOf(result))[0]).toMatch(/^Diabetes by HbA1c:/);
    expect(statements).toHaveLength(2);
    expect(statements[0]).toBe(GENERATION_ONLY);
    expect(statements[1]).toMatch(/^WITH current AS \(SELECT generation FROM cds_hook_generation\)/);
  });
});

describe('what an administrator changes through the API counts from the next call', () => {
  it('a rule set published: the next call has its card, after one re-read of the copy', async () => {
    expect(summaries(cardsOf(await hookCall('diabetic-and-obese'))).some((s) => s.startsWith('Obesity:'))).toBe(false);
    // Prepared before the publish: discovery would read the copy afresh, and this call must find it stale itself.
    const next = await prepared('diabetic-and-obese');
    await createPublishedRuleSet(
      t,
      admin,
      [
        {
          name: 'Obesity',
          priority: 5,
          conditions: [cond(bmi, '>=', 30)],
          actions: [action('Offer weight-management support', { severity: 'low' })],
        },
      ],
      { name: 'Weight' },
    );
    const { result, statements } = await statementsOf(next);
    expect(summaries(cardsOf(result)).some((s) => s.startsWith('Obesity:'))).toBe(true);
    // Recorded on the stale copy (refused: the generation moved), the copy read again, recorded.
    const recordings = statements.filter((s) => s.startsWith('WITH current AS (SELECT generation FROM cds_hook_generation)'));
    expect(recordings).toHaveLength(2);
    expect(statements[0]).toMatch(/^WITH current AS \(SELECT generation FROM cds_hook_generation\)/);
    expect(statements.at(-1)).toMatch(/^WITH current AS \(SELECT generation FROM cds_hook_generation\)/);
    expect(statements.filter((s) => s.includes('FROM cds_hook_generation g'))).toHaveLength(1);
    // The next call is warm again.
    const again = await statementsOf(await prepared('diabetic-and-obese'));
    expect(summaries(cardsOf(again.result)).some((s) => s.startsWith('Obesity:'))).toBe(true);
    expect(again.statements).toHaveLength(1);
  });

  it('a key rotated: the next call signed with the new key is accepted, one signed with the old key refused', async () => {
    const issuer = `https://rotating.example.org/${randomUUID()}`;
    const [oldKey, newKey] = [await startCdsClient(issuer, 'ES384'), await startCdsClient(issuer, 'ES384')];
    try {
      const registered = expectStatus(
        await t
          .http()
          .post('/api/cds-clients')
          .set(admin.auth)
          .send({ issuer, name: 'Rotating EHR', jwk: oldKey.publicJwk, allowed_services: ['patient-view'] }),
        201,
        'register',
      ).body as { id: string };
      expect(summaries(cardsOf(await hookCall('diabetic-and-obese', oldKey)))[0]).toMatch(/^Diabetes by HbA1c:/);
      expect(summaries(cardsOf(await hookCall('diabetic-and-obese', oldKey)))[0]).toMatch(/^Diabetes by HbA1c:/);
      expectStatus(
        await t
          .http()
          .put(`/api/cds-clients/${registered.id}`)
          .set(admin.auth)
          .send({ issuer, name: 'Rotating EHR', jwk: newKey.publicJwk, allowed_services: ['patient-view'] }),
        200,
        'rotate key',
      );
      const old = await hookCall('diabetic-and-obese', oldKey);
      expect({ status: old.status, code: old.body.code }).toEqual({ status: 401, code: 'invalid_client_jwt' });
      expect(summaries(cardsOf(await hookCall('diabetic-and-obese', newKey)))[0]).toMatch(/^Diabetes by HbA1c:/);
    } finally {
      await oldKey.close();
      await newKey.close();
    }
  });

  it('a client deleted: its next call is refused as an unregistered one', async () => {
    const gone = await startCdsClient(`https://leaving.example.org/${randomUUID()}`, 'RS384');
    try {
      const registered = expectStatus(
        await t
          .http()
          .post('/api/cds-clients')
          .set(admin.auth)
          .send({ issuer: gone.issuer, name: 'Leaving EHR', jwk: gone.publicJwk, allowed_services: ['patient-view'] }),
        201,
        'register',
      ).body as { id: string };
      expect(summaries(cardsOf(await hookCall('diabetic-and-obese', gone)))[0]).toMatch(/^Diabetes by HbA1c:/);
      expect(summaries(cardsOf(await hookCall('diabetic-and-obese', gone)))[0]).toMatch(/^Diabetes by HbA1c:/);
      expectStatus(await t.http().delete(`/api/cds-clients/${registered.id}`).set(admin.auth), 204, 'delete client');
      const refused = await hookCall('diabetic-and-obese', gone);
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 401, code: 'invalid_client_jwt' });
      expect(refused.body.message).toContain('registered, active CDS client');
      // The others are unaffected.
      expect(summaries(cardsOf(await hookCall('diabetic-and-obese')))[0]).toMatch(/^Diabetes by HbA1c:/);
    } finally {
      await gone.close();
    }
  });
});

describe("the hook calls' generation and the answers' are two counters, because they follow different things", () => {
  const generations = async () => {
    const [row] = await t.db.query(
      `SELECT (SELECT generation FROM cds_hook_generation)::text AS hook, (SELECT generation FROM knowledge_generation WHERE id = 1)::text AS knowledge`,
    );
    return { hook: BigInt(row.hook), knowledge: BigInt(row.knowledge) };
  };

  it("a question's wording reworded moves only the answers' (a hook call never asks); a client's key moves only the hook calls'", async () => {
    const start = await generations();
    expectStatus(
      await t
        .http()
        .put(`/api/parameters/${hba1c.id}`)
        .set(admin.auth)
        .send({ question_override: 'What was the most recent HbA1c?', change_reason: 'Clearer wording' }),
      200,
      'reword',
    );
    const reworded = await generations();
    expect(reworded.knowledge).toBeGreaterThan(start.knowledge);
    expect(reworded.hook).toBe(start.hook);
    const rekeyed = await startCdsClient(ehr.issuer, 'ES384');
    try {
      const [{ id }] = await t.db.query(`SELECT id FROM cds_clients WHERE issuer = $1`, [ehr.issuer]);
      const edit = (jwk: unknown) =>
        t
          .http()
          .put(`/api/cds-clients/${id}`)
          .set(admin.auth)
          .send({ issuer: ehr.issuer, name: 'Example EHR', jwk, allowed_services: ['patient-view'], allowed_fhir_servers: [fhir.url] });
      expectStatus(await edit(rekeyed.publicJwk), 200, 'new key');
      const after = await generations();
      expect(after.hook).toBeGreaterThan(reworded.hook);
      expect(after.knowledge).toBe(reworded.knowledge);
      expectStatus(await edit(ehr.publicJwk), 200, 'key back');
    } finally {
      await rekeyed.close();
    }
  });
});

/**
 * Group commit: hook calls that arrive while two are being recorded are recorded together, one statement and one commit
 * (docs/benchmarks.md). Each call stays its own: its jti, its generation check, its outcome.
 */
describe('hook calls recorded at the same moment', () => {
  const repo = () => t.runtime.app.get(CdsHooksRepository);
  const generationNow = async () =>
    ((await t.db.query('SELECT generation::text AS generation FROM cds_hook_generation')) as { generation: string }[])[0].generation;
  const record = (jti: string, generation: string) =>
    repo().recordHookCall(
      { generation, issuer: 'https://ehr.example.org', jti, jti_expires_at: new Date(Date.now() + 300_000) },
      'diabetes-patient-view',
      [],
      [],
      { answers: [], expires_at: new Date(Date.now() + 600_000) },
      false,
    );

  it('calls arriving while two are recorded go in one statement; a call on a copy since replaced is refused alone', async () => {
    const now = await generationNow();
    const before = String(BigInt(now) - 1n);
    const id = randomUUID();
    const { result, statements } = await statementsOf(() =>
      Promise.all([record(`${id}-1`, now), record(`${id}-2`, now), record(`${id}-3`, now), record(`${id}-4`, before)]),
    );
    expect(statements.filter((s) => s.startsWith('WITH current AS (SELECT generation FROM cds_hook_generation)'))).toHaveLength(3);
    expect(result).toEqual(['recorded', 'recorded', 'recorded', 'stale']);
  });

  it('one jti sent twice at once (a replay racing its original): one is recorded, the other refused as a replay', async () => {
    const now = await generationNow();
    const id = randomUUID();
    const result = await Promise.all([record(`${id}-1`, now), record(`${id}-2`, now), record(`${id}-3`, now), record(`${id}-3`, now)]);
    expect(result.slice(0, 2)).toEqual(['recorded', 'recorded']);
    expect([...result.slice(2)].sort()).toEqual(['recorded', 'replayed']);
    const seen = await t.db.query('SELECT count(*)::int AS n FROM cds_seen_jtis WHERE jti = $1', [`${id}-3`]);
    expect(seen[0].n).toBe(1);
  });
});
