/**
 * npm run bench:cds:ab -- <git ref> — `bench:cds` of an earlier build and of this checkout, alternated in AB_PAIRS
 * (default 3) pairs, earlier build first, each build with its own bench as it was at that commit: what issue 22's
 * A/B was done by hand with (docs/benchmarks-archive.md). Every other variable (ROUNDS, JWT_ALG, DATABASE_URL,
 * REDIS_URL...) is passed to both alike; FHIR_ROUNDS defaults to 1 here (the call without prefetch is not what is
 * compared, and its FHIR server is the bench's own).
 *
 * The earlier build is extracted with `git archive` into the tmp dir (kept, and reused while its `.ab-built` marker
 * is there), given this checkout's node_modules as hard links when the lock files are the same (else `npm ci`), and
 * built. Both benches count PostgreSQL's CPU only for the server DATABASE_URL names: a preload narrows the /proc
 * walk of an old bench, which counted every postgres process, to that server's postmaster and its children.
 *
 * Per pair it prints calls/s, p95, p99 and the CPU per call of the API, PostgreSQL and the load generator, and two
 * ratios: calls/s (now ÷ before) and whole CPU per call (before ÷ now), the second much less moved by the host's
 * speed, which drifts within minutes on a shared VM.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { postmasterOf } from './bench-http';

const PAIRS = Number(process.env.AB_PAIRS ?? 3);
const ROOT = resolve(__dirname, '..', '..');
const WORKSPACES = ['packages/engine', 'packages/contracts', 'backend', 'frontend', 'benches'];
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** One scenario line of a bench:cds run, as both the old and the new bench print it. */
interface ScenarioFigures {
  p50: number;
  p95: number;
  p99: number;
  perSecond: number;
  /** CPU ms per call. */
  api: number;
  postgres: number;
  load: number;
  /** The API's CPU by thread, when the bench prints it. */
  threads: string | null;
}

const LINE =
  /p50 ([\d.]+) ms\s+p95 ([\d.]+) ms\s+p99 ([\d.]+) ms\s+(\d+) req\/s\s+CPU ms\/req: API ([\d.]+)(?: \(([^)]*)\))?, PostgreSQL ([\d.]+), load ([\d.]+)/;

/** The figures of `label`'s line in a bench:cds output (`patient-view, full prefetch`), or null when it is missing. */
function scenarioOf(output: string, label: string): ScenarioFigures | null {
  const line = output.split('\n').find((l) => l.startsWith(`${label}:`));
  const m = line && LINE.exec(line);
  if (!m) return null;
  const [p50, p95, p99, perSecond, api] = m.slice(1, 6).map(Number);
  return { p50, p95, p99, perSecond, api, threads: m[6] ?? null, postgres: Number(m[7]), load: Number(m[8]) };
}

/** Whole CPU per call: what the two cores are shared by. */
const wholeCpu = (f: ScenarioFigures) => f.api + f.postgres + f.load;

const PRELOAD = `// Written by cds-ab: narrows a bench's /proc walk for PostgreSQL's CPU to one postmaster and its children.
const fs = require('fs');
const pm = process.env.AB_POSTMASTER;
const readdir = fs.readdirSync;
fs.readdirSync = function (p, ...rest) {
  const r = readdir.call(this, p, ...rest);
  if (p !== '/proc' || !pm) return r;
  return r.filter((d) => {
    if (!/^\\d+$/.test(d)) return false;
    if (d === pm) return true;
    try {
      const s = fs.readFileSync('/proc/' + d + '/stat', 'utf8');
      return s.slice(s.lastIndexOf(')') + 2).split(' ')[1] === pm;
    } catch {
      return false;
    }
  });
};
`;

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
const run = (cwd: string, cmd: string, args: string[]) => execFileSync(cmd, args, { cwd, stdio: 'inherit' });

/** The earlier build, extracted and built once: its directory and its bench. */
function earlierBuild(sha: string): { dir: string; bench: string } {
  const dir = join(tmpdir(), `cds-ab-${sha.slice(0, 12)}`);
  const marker = join(dir, '.ab-built');
  if (!existsSync(marker)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git archive --format=tar ${sha} | tar -x -C ${JSON.stringify(dir)}`], { cwd: ROOT, stdio: 'inherit' });
    const sameLock = readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(ROOT, 'package-lock.json'), 'utf8');
    if (sameLock || process.env.AB_LINK_MODULES === '1') {
      // Workspace links in node_modules are relative: the copies point at the extracted build's own packages.
      run(dir, 'cp', ['-al', join(ROOT, 'node_modules'), join(dir, 'node_modules')]);
      for (const w of WORKSPACES)
        if (existsSync(join(ROOT, w, 'node_modules')) && existsSync(join(dir, w)))
          run(dir, 'cp', ['-al', join(ROOT, w, 'node_modules'), join(dir, w, 'node_modules')]);
    } else {
      console.log(`${sha.slice(0, 12)} has another package-lock.json: npm ci (AB_LINK_MODULES=1 links this checkout's instead)`);
      run(dir, 'npm', ['ci', '--no-audit', '--no-fund']);
    }
    const scripts = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    if (scripts['build:packages']) run(dir, 'npm', ['run', 'build:packages']);
    run(dir, 'npm', ['run', 'build', '-w', 'backend']);
    if (existsSync(join(dir, 'benches', 'src', 'cds-hooks.bench.ts'))) run(dir, 'npm', ['run', 'build', '-w', 'benches']);
    writeFileSync(marker, `${new Date().toISOString()}\n`);
  }
  const bench = ['benches/dist/cds-hooks.bench.js', 'backend/dist/bench/cds-hooks.bench.js'].find((b) => existsSync(join(dir, b)));
  if (!bench) throw new Error(`${sha.slice(0, 12)} has no built bench:cds (benches/ or backend/src/bench/)`);
  return { dir, bench };
}

/** The postmaster of the server DATABASE_URL names (from a backend's parent pid), when it runs on this machine. */
async function postmaster(): Promise<number | undefined> {
  const client = new Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return postmasterOf(rows[0].pid);
  } finally {
    await client.end();
  }
}

function benchRun(dir: string, bench: string, preload: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['-r', preload, bench], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(out) : fail(new Error(`${bench} in ${dir} exited with ${code}:\n${out.slice(-3000)}`))));
  });
}

const fmt = (f: ScenarioFigures) =>
  `${f.perSecond} calls/s, p95 ${f.p95} / p99 ${f.p99} ms, CPU ms per call: API ${f.api.toFixed(2)}${f.threads ? ` (${f.threads})` : ''}, PostgreSQL ${f.postgres.toFixed(2)}, load ${f.load.toFixed(2)}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function main() {
  const ref = process.argv[2];
  if (!ref) throw new Error('usage: npm run bench:cds:ab -- <git ref of the earlier build>');
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const now = git('rev-parse', '--short=12', 'HEAD');
  const before = earlierBuild(sha);
  const after = { dir: ROOT, bench: 'benches/dist/cds-hooks.bench.js' };
  const preload = join(tmpdir(), 'cds-ab-postgres-only.cjs');
  writeFileSync(preload, PRELOAD);
  const pm = await postmaster();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FHIR_ROUNDS: process.env.FHIR_ROUNDS ?? '1',
    DATABASE_URL,
    AB_POSTMASTER: pm === undefined ? '' : String(pm),
  };
  console.log(
    `bench:cds A/B: before ${sha.slice(0, 12)} (${before.dir}), now ${now}${git('status', '--porcelain') ? ' with uncommitted changes' : ''}; ` +
      `${PAIRS} pairs; ROUNDS=${env.ROUNDS ?? 'its default'}, JWT_ALG=${env.JWT_ALG ?? 'its default'}; PostgreSQL ${pm === undefined ? 'every postgres process' : `postmaster ${pm} and its children`}`,
  );
  const ratios: { calls: number; cpu: number; lowerTails: boolean }[] = [];
  for (let pair = 1; pair <= PAIRS; pair++) {
    const figures: ScenarioFigures[] = [];
    for (const [side, build] of [
      ['before', before],
      ['now', after],
    ] as const) {
      const started = new Date().toISOString().slice(11, 19);
      const load = loadavg()
        .map((l) => l.toFixed(2))
        .join(' ');
      const out = await benchRun(build.dir, build.bench, preload, env);
      const f = scenarioOf(out, 'patient-view, full prefetch');
      if (!f) throw new Error(`no "patient-view, full prefetch" line in the ${side} run:\n${out.slice(-3000)}`);
      console.log(`pair ${pair} ${side.padEnd(6)} started ${started} (load ${load}): ${fmt(f)}`);
      figures.push(f);
    }
    const [b, n] = figures;
    const r = { calls: n.perSecond / b.perSecond, cpu: wholeCpu(b) / wholeCpu(n), lowerTails: n.p95 < b.p95 && n.p99 < b.p99 };
    ratios.push(r);
    console.log(
      `pair ${pair}: calls/s ${r.calls.toFixed(2)}x, whole CPU per call ${wholeCpu(b).toFixed(2)} -> ${wholeCpu(n).toFixed(2)} ms (${r.cpu.toFixed(2)}x), p95 and p99 ${r.lowerTails ? 'lower' : 'not both lower'}`,
    );
  }
  const calls = ratios.map((r) => r.calls);
  const cpu = ratios.map((r) => r.cpu);
  console.log(
    `over ${PAIRS} pairs: calls/s ${Math.min(...calls).toFixed(2)}-${Math.max(...calls).toFixed(2)}x (median ${median(calls).toFixed(2)}), ` +
      `whole CPU per call ${Math.min(...cpu).toFixed(2)}-${Math.max(...cpu).toFixed(2)}x (median ${median(cpu).toFixed(2)}); ` +
      `p95 and p99 lower in ${ratios.filter((r) => r.lowerTails).length} of ${PAIRS}`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
