/**
 * npm run bench:auth — sign-in throughput through the whole API (HTTP, validation,
 * rate limiter, database, argon2id, session + tokens), against the floor measured in
 * this same process: bare argon2id verifications with the same parameters and concurrency.
 * Uses DATABASE_URL when set, the embedded database otherwise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Algorithm, hash, verify } from '@node-rs/argon2';
import { loadConfig } from '@cds/backend/dist/config/app-config';
import { startRuntime } from '@cds/backend/dist/runtime';

const ARGON2 = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

async function during(seconds: number, concurrency: number, op: () => Promise<void>) {
  const until = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        await op();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / seconds,
    p50: latencies[Math.floor(latencies.length * 0.5)],
    p99: latencies[Math.floor(latencies.length * 0.99)],
  };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'cds-bench-auth-'));
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_IP: '100000000',
    AUTH_RATE_LIMIT_PER_EMAIL: '100000000',
  });
  const runtime = await startRuntime(config, { inMemory: true });
  try {
    const creds = { email: `bench.${Date.now()}@clinic.test`, password: 'correct horse battery staple' };
    const post = (path: string) =>
      fetch(`${runtime.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(creds) });
    if ((await post('/api/auth/signup')).status !== 201) throw new Error('sign-up failed');

    const digest = await hash(creds.password, ARGON2);
    const floor = await during(SECONDS, CONCURRENCY, async () => {
      await verify(digest, creds.password);
    });
    const api = await during(SECONDS, CONCURRENCY, async () => {
      const r = await post('/api/auth/token?grant_type=password');
      if (r.status !== 200) throw new Error(`sign-in ${r.status}`);
      await r.arrayBuffer();
    });
    console.log(`database: ${config.databaseMode}, concurrency ${CONCURRENCY}, ${SECONDS} s each`);
    console.log(
      `argon2id verify (floor):  ${floor.perSecond.toFixed(1)}/s  p50 ${floor.p50.toFixed(1)} ms  p99 ${floor.p99.toFixed(1)} ms`,
    );
    console.log(`API sign-in:              ${api.perSecond.toFixed(1)}/s  p50 ${api.p50.toFixed(1)} ms  p99 ${api.p99.toFixed(1)} ms`);
    console.log(`ratio API / floor: ${(api.perSecond / floor.perSecond).toFixed(2)}`);
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
