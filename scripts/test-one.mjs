// `npm run test:one -- <path> [more paths] [more Jest or vitest arguments]`: one suite (or a folder of suites,
// or several of either that one runner takes) with the runner and the database its project needs. The path →
// runner mapping is test-one-plan.mjs.
// Jest gets NODE_OPTIONS=--experimental-vm-modules, as the npm scripts give it; the database suites use
// DATABASE_URL and REDIS_URL when set, else the embedded PostgreSQL broker that Jest's global setup starts.
// A browser suite drives the built app: `npm run build` runs first when a dist is missing or older than
// the sources.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleBuild } from './stale-build.mjs';
import { planTestRuns } from './test-one-plan.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
if (!argv.length || argv[0] === '--help' || argv[0] === '-h') {
  console.error(
    'usage: npm run test:one -- <test file or folder> [more of them] [more jest/vitest arguments, e.g. -t "part of a test name"]',
  );
  process.exit(2);
}

// npm runs scripts from the root; a path typed in a sub-folder is relative to where npm was called.
const here = process.env.INIT_CWD ?? process.cwd();
// The paths are the leading arguments: the first whatever it is, the next ones while they name a file or folder, or
// look like one (a mistyped second path is refused below, not handed to the runner as a filter).
const looksLikePath = (a) => a.includes('/') || /\.[cm]?[jt]sx?$/.test(a);
let count = 1;
while (count < argv.length && !argv[count].startsWith('-') && (existsSync(resolve(here, argv[count])) || looksLikePath(argv[count])))
  count++;
const targets = [];
for (const target of argv.slice(0, count)) {
  const absolute = resolve(here, target);
  if (!existsSync(absolute)) {
    console.error(`test:one: ${target} does not exist (looked for ${absolute})`);
    process.exit(2);
  }
  targets.push({ rel: relative(root, absolute).split(sep).join('/'), isDirectory: statSync(absolute).isDirectory() });
}
const plan = planTestRuns(targets, { extra: argv.slice(count) });
if (plan.error) {
  console.error(`test:one: ${plan.error}`);
  process.exit(2);
}

// The pinned Node 22 (the `node` devDependency) first on the PATH, as npm scripts have it, for the
// runner and for anything the suites spawn.
const bin = join(root, 'node_modules', '.bin');
const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
const node = existsSync(join(bin, 'node')) ? join(bin, 'node') : process.execPath;

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
    const why = staleBuild(root);
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
