/**
 * npm run bench:startup — embedded mode: cold start (new DATA_DIR) and restart to a
 * healthy /api/health, against the floor measured in this same process: PGlite alone
 * creating, then reopening, a data directory.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '@cds/backend/dist/database/embedded';

// The API as `npm start` runs it: the backend's build.
const MAIN = require.resolve('@cds/backend/dist/main');

async function timeToHealthy(dataDir: string, port: number): Promise<number> {
  const t0 = performance.now();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [MAIN], { env, stdio: 'ignore' });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200) return performance.now() - t0;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 50));
      if (performance.now() - t0 > 120_000) throw new Error('not healthy within 120 s');
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

async function pgliteFloor(dir: string): Promise<number> {
  const t0 = performance.now();
  const db = await startEmbeddedPostgres(dir);
  const ms = performance.now() - t0;
  await db.close();
  return ms;
}

async function main() {
  const runs = Number(process.env.RUNS ?? 3);
  const rows: Array<{ cold: number; restart: number; floorCold: number; floorReopen: number }> = [];
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'cds-bench-'));
    const floorDir = mkdtempSync(join(tmpdir(), 'cds-bench-floor-'));
    try {
      const floorCold = await pgliteFloor(join(floorDir, 'pg'));
      const floorReopen = await pgliteFloor(join(floorDir, 'pg'));
      const port = 3800 + i;
      const cold = await timeToHealthy(dir, port);
      const restart = await timeToHealthy(dir, port);
      rows.push({ cold, restart, floorCold, floorReopen });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(floorDir, { recursive: true, force: true });
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const m = (k: keyof (typeof rows)[number]) => median(rows.map((r) => r[k]));
  const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`runs: ${runs} (median)`);
  console.log(
    `cold start to healthy:   ${fmt(m('cold'))}   floor (PGlite new data dir): ${fmt(m('floorCold'))}   ratio ${(m('cold') / m('floorCold')).toFixed(2)}x   goal <= 10 s`,
  );
  console.log(
    `restart to healthy:      ${fmt(m('restart'))}   floor (PGlite reopen):       ${fmt(m('floorReopen'))}   ratio ${(m('restart') / m('floorReopen')).toFixed(2)}x   goal <= 3 s`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
