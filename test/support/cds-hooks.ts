import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { Resource } from '@medplum/fhirtypes';
import type { TestApp } from './app';
import { expectStatus } from './clinical-factories';
import type { TestUser } from './factories';
import type { FhirServer } from './fhir-server';

/**
 * The CDS Hooks 2.0 required fields (https://cds-hooks.hl7.org/2.0/), checked in one place for
 * every discovery answer, hook request and service response the tests see.
 */
export function expectDiscovery(body: unknown): void {
  const b = body as { services?: unknown };
  expect(Array.isArray(b.services)).toBe(true);
  for (const s of b.services as Record<string, unknown>[]) {
    for (const field of ['hook', 'description', 'id']) expect(typeof s[field]).toBe('string');
    if (s.prefetch !== undefined) {
      expect(typeof s.prefetch).toBe('object');
      for (const template of Object.values(s.prefetch as object)) expect(typeof template).toBe('string');
    }
  }
}

export function expectHookRequest(body: Record<string, unknown>): void {
  expect(typeof body.hook).toBe('string');
  expect(typeof body.hookInstance).toBe('string');
  expect(typeof body.context).toBe('object');
  if (body.fhirAuthorization !== undefined) {
    expect(typeof body.fhirServer).toBe('string');
    const a = body.fhirAuthorization as Record<string, unknown>;
    for (const field of ['access_token', 'token_type', 'scope', 'subject']) expect(typeof a[field]).toBe('string');
    expect(a.token_type).toBe('Bearer');
    expect(typeof a.expires_in).toBe('number');
  }
  if (body.hook === 'patient-view') {
    const c = body.context as Record<string, unknown>;
    expect(typeof c.userId).toBe('string');
    expect(typeof c.patientId).toBe('string');
  }
}

export interface Card {
  uuid?: string;
  summary: string;
  indicator: 'info' | 'warning' | 'critical';
  source: { label: string; url?: string };
  detail?: string;
  links?: { label: string; url: string; type: 'absolute' | 'smart' }[];
}

export function expectCardsResponse(body: unknown): Card[] {
  const b = body as { cards?: unknown };
  expect(Array.isArray(b.cards)).toBe(true);
  for (const c of b.cards as Record<string, unknown>[]) {
    expect(typeof c.summary).toBe('string');
    expect((c.summary as string).length).toBeLessThanOrEqual(140);
    expect(['info', 'warning', 'critical']).toContain(c.indicator);
    expect(typeof (c.source as { label?: unknown })?.label).toBe('string');
    if (c.detail !== undefined) expect(typeof c.detail).toBe('string');
    if (c.suggestions !== undefined) expect(typeof c.selectionBehavior).toBe('string');
    for (const l of (c.links as Record<string, unknown>[] | undefined) ?? []) {
      expect(typeof l.label).toBe('string');
      expect(typeof l.url).toBe('string');
      expect(['absolute', 'smart']).toContain(l.type);
    }
  }
  return b.cards as Card[];
}

/** An EHR as a CDS client: a key pair, its JWKS served over HTTP, and signed client JWTs. */
export interface CdsClientKeys {
  issuer: string;
  jwksUrl: string;
  publicJwk: JWK;
  sign(aud: string, overrides?: { exp?: number; iat?: number; jti?: string; iss?: string; alg?: string }): Promise<string>;
  close(): Promise<void>;
}

export async function startCdsClient(issuer: string, alg = 'ES384'): Promise<CdsClientKeys> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    issuer,
    jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    publicJwk,
    sign: (aud, o = {}) => signWith(privateKey, kid, o.alg ?? alg, o.iss ?? issuer, aud, o),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function signWith(
  key: CryptoKey,
  kid: string,
  alg: string,
  iss: string,
  aud: string,
  o: { exp?: number; iat?: number; jti?: string },
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg, kid, typ: 'JWT', jku: undefined })
    .setIssuer(iss)
    .setSubject('ehr-client')
    .setAudience(aud)
    .setIssuedAt(o.iat ?? now)
    .setExpirationTime(o.exp ?? now + 300)
    .setJti(o.jti ?? randomUUID())
    .sign(key);
}

/** A searchset Bundle with one final Observation, as an EHR prefetches it. */
export function observationBundle(patientId: string, loinc: string, value: number, unit: string, when: string) {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    entry: [
      {
        resource: {
          resourceType: 'Observation',
          status: 'final',
          subject: { reference: `Patient/${patientId}` },
          code: { coding: [{ system: 'http://loinc.org', code: loinc }] },
          effectiveDateTime: when,
          valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
        },
      },
    ],
  };
}

/** Registers the EHR as a CDS client allowed to call patient-view (as an administrator, through the API). */
export async function registerCdsClient(t: TestApp, admin: TestUser, ehr: CdsClientKeys, extra: Record<string, unknown> = {}) {
  const res = await t
    .http()
    .post('/api/cds-clients')
    .set(admin.auth)
    .send({ issuer: ehr.issuer, name: 'Example EHR', jwks_url: ehr.jwksUrl, allowed_services: ['patient-view'], ...extra });
  return expectStatus(res, 201, 'register CDS client').body as { id: string };
}

/** What an EHR sends: patient-view for one patient with the given prefetch, signed for `aud` (default: the app's own URL). */
export async function callPatientView(
  t: TestApp,
  ehr: CdsClientKeys,
  patientId: string,
  prefetch: Record<string, unknown>,
  aud = `${t.url}/api/cds-services/patient-view`,
) {
  return t
    .http()
    .post('/api/cds-services/patient-view')
    .set('Authorization', `Bearer ${await ehr.sign(aud)}`)
    .send({ hook: 'patient-view', hookInstance: randomUUID(), context: { userId: 'Practitioner/1', patientId }, prefetch });
}

/**
 * EHR patients on a FHIR server and the cards a hook call gives for each, read twice: through the
 * prefetch the discovery asks for, and through the FHIR server; both paths must give the same cards.
 */
export function recordHookCalls(t: TestApp, fhir: FhirServer, ehr: CdsClientKeys, fhirToken: string) {
  const ids: Record<string, string> = {};
  const serviceUrl = `${t.url}/api/cds-services/patient-view`;

  async function patient(name: string, resources: Record<string, unknown>[], birthDate = '1961-05-05'): Promise<void> {
    const created = await fhir.create({ resourceType: 'Patient', name: [{ family: name }], birthDate });
    for (const r of resources) await fhir.create({ ...r, subject: { reference: `Patient/${created.id}` } } as Resource);
    ids[name] = created.id;
  }

  async function prefetchFor(name: string): Promise<Record<string, unknown>> {
    const templates = (await t.http().get('/api/cds-services')).body.services[0].prefetch as Record<string, string>;
    const out: Record<string, unknown> = {};
    for (const [key, template] of Object.entries(templates)) {
      const res = await fetch(`${fhir.url}/${template.replace('{{context.patientId}}', ids[name])}`, {
        headers: { authorization: `Bearer ${fhirToken}` },
      });
      out[key] = res.ok ? await res.json() : null;
    }
    return out;
  }

  async function call(name: string, extra: Record<string, unknown>): Promise<Card[]> {
    const res = await t
      .http()
      .post('/api/cds-services/patient-view')
      .set('Authorization', `Bearer ${await ehr.sign(serviceUrl)}`)
      .send({ hook: 'patient-view', hookInstance: randomUUID(), context: { userId: 'Practitioner/1', patientId: ids[name] }, ...extra });
    expectStatus(res, 200, name);
    return expectCardsResponse(res.body);
  }

  async function cardsFor(name: string): Promise<Card[]> {
    const prefetched = await call(name, { prefetch: await prefetchFor(name) });
    const fetched = await call(name, {
      fhirServer: fhir.url,
      fhirAuthorization: {
        access_token: fhirToken,
        token_type: 'Bearer',
        expires_in: 300,
        scope: 'patient/*.read',
        subject: 'cds-service',
      },
    });
    const strip = (list: Card[]) => list.map(({ uuid: _u, links: _l, ...rest }) => rest);
    expect(strip(fetched)).toEqual(strip(prefetched));
    return prefetched;
  }

  return { patient, cardsFor, prefetchFor, call, ids };
}
