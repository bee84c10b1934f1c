// `npm run test:one -- <path> [more Jest or vitest arguments]`: one suite (or a folder of suites) with
// the runner and the database its project needs. The path → runner mapping is test-one-plan.mjs.
// Jest gets NODE_OPTIONS=--experimental-vm-modules, as the npm scripts give it; the database suites use
// DATABASE_URL and REDIS_URL when set, else the embedded PostgreSQL broker that Jest's global setup starts.
// A browser suite drives the built app: `npm run build` runs first when a dist is missing or older than
// the sources.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planTestRun } from './test-one-plan.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [target, ...extra] = process.argv.slice(2);
if (!target || target === '--help' || target === '-h') {
  console.error('usage: npm run test:one -- <test file or folder> [more jest/vitest arguments, e.g. -t "part of a test name"]');
  process.exit(2);
}

// npm runs scripts from the root; a path typed in a sub-folder is relative to where npm was called.
const absolute = resolve(process.env.INIT_CWD ?? process.cwd(), target);
if (!existsSync(absolute)) {
  console.error(`test:one: ${target} does not exist (looked for ${absolute})`);
  process.exit(2);
}
const rel = relative(root, absolute).split(sep).join('/');
const plan = planTestRun(rel, { isDirectory: statSync(absolute).isDirectory(), extra });
if (plan.error) {
  console.error(`test:one: ${plan.error}`);
  process.exit(2);
}

// The pinned Node 22 (the `node` devDependency) first on the PATH, as npm scripts have it, for the
// runner and for anything the suites spawn.
const bin = join(root, 'node_modules', '.bin');
const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
const node = existsSync(join(bin, 'node')) ? join(bin, 'node') : process.execPath;

/** The newest modification time of a file, or of the files under a folder (0 when there is none). */
function newest(path) {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  if (!statSync(full).isDirectory()) return statSync(full).mtimeMs;
  let time = 0;
  for (const entry of readdirSync(full, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) time = Math.max(time, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return time;
}

/** Why the built app is out of date, or undefined when it is not. */
function staleBuild() {
  const packages = ['packages/engine/src', 'packages/contracts/src'];
  const builds = [
    // tsc writes what changed; Vite rewrites the whole dist, which compiles the packages from source.
    { output: 'packages/engine/dist', sources: ['packages/engine/src'] },
    { output: 'packages/contracts/dist', sources: ['packages/contracts/src'] },
    { output: 'backend/dist', sources: ['backend/src'] },
    {
      output: 'frontend/dist',
      sources: ['frontend/src', 'frontend/public', 'frontend/index.html', 'frontend/vite.config.ts', ...packages],
    },
  ];
  for (const { output, sources } of builds) {
    const built = newest(output);
    if (!built) return `${output} is missing`;
    const changed = sources.find((source) => newest(source) > built);
    if (changed) return `${changed} changed since ${output} was built`;
  }
  return undefined;
}

function run(command, args, options = {}) {
  console.error(`> ${command === node ? 'node' : command} ${args.map((a) => (/^[\w./:=@-]+$/.test(a) ? a : `'${a}'`)).join(' ')}`);
  const child = spawn(command, args, { cwd: root, env, stdio: 'inherit', ...options });
  // Ctrl-C reaches the runner through the terminal; leave when it does.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (plan.runner === 'vitest') {
  run('npm', ['run', 'test', '-w', 'frontend', '--', ...plan.args]);
} else {
  if (plan.build) {
    const why = staleBuild();
    if (why) {
      console.error(`test:one: building first (${why})`);
      const build = spawnSync('npm', ['run', 'build'], { cwd: root, env, stdio: 'inherit' });
      if (build.status !== 0) process.exit(build.status ?? 1);
    }
  }
  if (plan.database) {
    const db = process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL (DATABASE_URL unset)';
    const queue = process.env.REDIS_URL ? 'REDIS_URL' : 'in-process job runner (REDIS_URL unset)';
    console.error(`test:one: database ${db}, queue ${queue}`);
  }
  env.NODE_OPTIONS = [process.env.NODE_OPTIONS, '--experimental-vm-modules'].filter(Boolean).join(' ');
  const jest = createRequire(join(root, 'package.json')).resolve('jest/bin/jest');
  run(node, [jest, ...plan.args]);
}
