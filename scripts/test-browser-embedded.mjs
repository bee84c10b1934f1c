// The browser pass on the embedded defaults (`npm run test:embedded`): the suites whose journeys run
// through what differs between the embedded database and in-process jobs and PostgreSQL with Redis (one
// PGlite session behind every connection, unnamed statements, jobs on the API's event loop, first run).
// Every browser suite has already run on PostgreSQL in `npm run test:browser`, and every API and clinical
// suite runs again on the embedded database; a screen that only shows what the API returns gains nothing
// from a second pass (it cost 14.5 of CI's ~55 minutes when every suite ran twice).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleBuild } from './stale-build.mjs';

export const EMBEDDED_BROWSER_SUITES = [
  // npm start on a machine with nothing but Node: first sign-up, sign-in, the first screens.
  'test/browser/fresh-machine.browser-spec.ts',
  // The polish worker in-process, assessments and the chat end to end.
  'test/browser/assessment-and-chat.browser-spec.ts',
  'test/browser/clinical-truth.browser-spec.ts',
  // Publish: the impact preview's transaction and progress (a table lock held one PGlite session).
  'test/browser/admin-publish-gate.browser-spec.ts',
  // Installing the ADA pack: many writes in one transaction.
  'test/browser/admin-content-pack.browser-spec.ts',
  // Imports as jobs (BullMQ or in-process), then the Panel, measures and decks from stored records.
  'test/browser/record-imports-admin.browser-spec.ts',
  'test/browser/pcp-panel.browser-spec.ts',
  'test/browser/measure-conformance-admin.browser-spec.ts',
  'test/browser/measure-designer-admin.browser-spec.ts',
  // Hook calls (the recording statement is unnamed on PGlite) and their prefill tickets.
  'test/browser/cds-hooks-prefill.browser-spec.ts',
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const missing = EMBEDDED_BROWSER_SUITES.filter((suite) => !existsSync(join(root, suite)));
  if (missing.length) {
    console.error(`test-browser-embedded: listed suites not found: ${missing.join(', ')}`);
    process.exit(2);
  }
  const bin = join(root, 'node_modules', '.bin');
  const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const why = staleBuild(root);
  if (why) {
    console.error(`test-browser-embedded: building first (${why})`);
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, env, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  env.NODE_OPTIONS = [process.env.NODE_OPTIONS, '--experimental-vm-modules'].filter(Boolean).join(' ');
  const node = existsSync(join(bin, 'node')) ? join(bin, 'node') : process.execPath;
  const jest = createRequire(join(root, 'package.json')).resolve('jest/bin/jest');
  const run = spawnSync(node, [jest, '--selectProjects', 'browser', '--runInBand', '--runTestsByPath', ...EMBEDDED_BROWSER_SUITES], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}
