/**
 * npm run bench:jwt — what verifying a CDS Hooks client JWT costs per algorithm the service accepts
 * (CLIENT_JWT_ALGORITHMS: the spec's ES384 and RS384, and ES256, RS256, ES512), through the service's own
 * ClientJwtVerifier.verify with its key caches hit: a client registered with a public JWK (imported once),
 * and one registered with a JWKS URL (fetched once from a local endpoint, then jose's cached key set).
 * Baseline in the same process: HS256 (an HMAC, what the API's own access tokens use) through jose's
 * jwtVerify with the same claim checks. The service refuses HS256 client JWTs; it is only the yardstick.
 *
 * Each case runs VERIFIES (default 1000) verifications one at a time (wall µs each, which includes
 * WebCrypto's hop to the libuv pool), and again CONCURRENT (default 16) at a time (verifications per
 * second); CPU µs per verification is the process's user + system time (every thread) over both. The
 * cases alternate over ROUNDS (default 3) rounds and each figure is the median round, so a busy machine
 * disturbs every case alike: read the ratios to HS256.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { exportJWK, generateKeyPair, generateSecret, jwtVerify, SignJWT, type CryptoKey, type JWK } from 'jose';
import { ClientJwtVerifier } from '@cds/backend/dist/modules/cds-hooks/client-jwt';
import type { VerifiableClient } from '@cds/backend/dist/modules/cds-hooks/cds-hooks.repository';
import { CLIENT_JWT_ALGORITHMS } from '@cds/backend/dist/modules/cds-hooks/jwk-algorithm';

const VERIFIES = Number(process.env.VERIFIES ?? 1000);
const CONCURRENT = Number(process.env.CONCURRENT ?? 16);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
/** Distinct tokens per case, used in turn (a verification does not record the jti, so reuse costs the same). */
const TOKENS = 100;
const AUDIENCE = 'http://127.0.0.1/api/cds-services/patient-view';
const ISSUER = 'https://ehr.bench.example.org';

interface Case {
  label: string;
  verify(token: string): Promise<unknown>;
  /** Fresh tokens (a client JWT lives 5 minutes; a slow round outlives them), signed before each round. */
  sign(): Promise<string[]>;
  tokens: string[];
}
interface Figures {
  sequentialUs: number;
  perSecond: number;
  cpuUs: number;
}

const sign = (key: CryptoKey | Uint8Array, alg: string, kid: string) =>
  new SignJWT({})
    .setProtectedHeader({ alg, kid, typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject('bench-ehr')
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('5m')
    .setJti(randomUUID())
    .sign(key);

async function tokens(key: CryptoKey | Uint8Array, alg: string, kid: string): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < TOKENS; i++) out.push(await sign(key, alg, kid));
  return out;
}

/** A local JWKS endpoint serving `keys`, as the EHR's would be. */
async function jwksServer(keys: JWK[]) {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`, close: () => server.close() };
}

async function measure(c: Case): Promise<Figures> {
  c.tokens = await c.sign();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < VERIFIES; i++) await c.verify(c.tokens[i % TOKENS]);
  const sequentialUs = ((performance.now() - t0) * 1000) / VERIFIES;
  let next = 0;
  const t1 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      while (next < VERIFIES) await c.verify(c.tokens[next++ % TOKENS]);
    }),
  );
  const perSecond = VERIFIES / ((performance.now() - t1) / 1000);
  const cpu = process.cpuUsage(cpu0);
  return { sequentialUs, perSecond, cpuUs: (cpu.user + cpu.system) / (2 * VERIFIES) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const secret = await generateSecret('HS256');
  const cases: Case[] = [
    {
      label: 'HS256, jose jwtVerify (baseline)',
      sign: () => tokens(secret, 'HS256', 'hmac'),
      tokens: [],
      verify: (token) =>
        jwtVerify(token, secret, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          requiredClaims: ['iss', 'aud', 'exp', 'jti'],
          clockTolerance: 30,
        }),
    },
  ];
  const publicKeys: JWK[] = [];
  const byJwksUrl: { alg: string; sign(): Promise<string[]> }[] = [];
  // verify() reads only the client it is given; the clients service and repository serve verifyOnce and record.
  const verifier = new ClientJwtVerifier(null as never, null as never);
  for (const alg of CLIENT_JWT_ALGORITHMS) {
    const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
    const kid = `${alg}-${randomUUID()}`;
    const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
    publicKeys.push(jwk);
    const signed = () => tokens(privateKey, alg, kid);
    const client: VerifiableClient = { jwk, jwks_url: null, allowed_services: ['patient-view'], allowed_fhir_servers: [] };
    cases.push({
      label: `${alg}, registered JWK`,
      sign: signed,
      tokens: [],
      verify: (token) => verifier.verify(`Bearer ${token}`, 'patient-view', AUDIENCE, () => client),
    });
    byJwksUrl.push({ alg, sign: signed });
  }
  const jwks = await jwksServer(publicKeys);
  const viaUrl: VerifiableClient = { jwk: null, jwks_url: jwks.url, allowed_services: ['patient-view'], allowed_fhir_servers: [] };
  for (const { alg, sign: signed } of byJwksUrl)
    cases.push({
      label: `${alg}, JWKS URL (cached)`,
      sign: signed,
      tokens: [],
      verify: (token) => verifier.verify(`Bearer ${token}`, 'patient-view', AUDIENCE, () => viaUrl),
    });
  try {
    // Every case once before timing: keys imported, the JWKS fetched, the code warm.
    for (const c of cases) for (const token of (c.tokens = await c.sign())) await c.verify(token);
    const runs = new Map<Case, Figures[]>(cases.map((c) => [c, []]));
    for (let round = 0; round < ROUNDS; round++) for (const c of cases) runs.get(c)!.push(await measure(c));
    const figures = new Map(
      cases.map((c) => {
        const r = runs.get(c)!;
        return [
          c,
          {
            sequentialUs: median(r.map((f) => f.sequentialUs)),
            perSecond: median(r.map((f) => f.perSecond)),
            cpuUs: median(r.map((f) => f.cpuUs)),
          },
        ] as const;
      }),
    );
    const base = figures.get(cases[0])!;
    console.log(
      `bench:jwt — ${VERIFIES} verifications one at a time and ${CONCURRENT} at a time per case, ${ROUNDS} alternating rounds (median); ` +
        `Node ${process.version}; load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    );
    console.log('| case | µs per verification, one at a time | CPU µs per verification | × HS256 CPU | verifications/s, 16 at a time |');
    console.log('|---|---:|---:|---:|---:|');
    for (const c of cases) {
      const f = figures.get(c)!;
      console.log(
        `| ${c.label} | ${f.sequentialUs.toFixed(1)} | ${f.cpuUs.toFixed(1)} | ${(f.cpuUs / base.cpuUs).toFixed(1)} | ${f.perSecond.toFixed(0)} |`,
      );
    }
  } finally {
    jwks.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
