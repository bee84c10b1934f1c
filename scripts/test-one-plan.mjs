// Which runner runs one test file (or a folder of them) for `npm run test:one` (scripts/test-one.mjs).
// Pure: no file system, no process; the unit project tests it (scripts/test-one-plan.spec.ts).

/** The Jest projects of jest.config.js, by where their suites live and how their files are named. */
const JEST_PLACES = [
  { dir: 'test/api/', suffix: '.e2e-spec.ts', project: 'api', inBand: true, database: true },
  { dir: 'test/clinical/', suffix: '.clinical-spec.ts', project: 'clinical', inBand: true, database: true },
  { dir: 'test/browser/', suffix: '.browser-spec.ts', project: 'browser', inBand: true, database: true, build: true },
  { dir: 'backend/src/', suffix: '.spec.ts', project: 'unit' },
  { dir: /^packages\/[^/]+\/src\//, suffix: '.spec.ts', project: 'unit' },
  { dir: 'scripts/', suffix: '.spec.ts', project: 'unit' },
];
const VITEST_FILE = /^src\/.*\.test\.tsx?$/;

/** A string matched literally inside a regular expression. */
export function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function placeOf(rel, place) {
  if (typeof place.dir === 'string') return rel === place.dir.slice(0, -1) || rel.startsWith(place.dir);
  return place.dir.test(rel) || place.dir.test(`${rel}/`);
}

/**
 * The run for one path relative to the repository root (forward slashes; `isDirectory` when it names a
 * folder). Returns { runner: 'jest', project, args, database, build } or { runner: 'vitest', args }
 * (vitest's arguments after `vitest run`, relative to frontend/), or { error } for a path no runner takes.
 * `extra` (further Jest or vitest arguments, e.g. -t 'name') is appended as given.
 */
export function planTestRun(rel, { isDirectory = false, extra = [] } = {}) {
  return planTestRuns([{ rel, isDirectory }], { extra });
}

/**
 * The run for several paths at once (`npm run test:one -- a.spec.ts b.spec.ts`): one run of one runner, so
 * every path must belong to the same one (vitest, or one Jest project); else { error }. Each path is selected
 * as it would be alone.
 */
export function planTestRuns(targets, { extra = [] } = {}) {
  const places = [];
  for (const { rel, isDirectory = false } of targets) {
    const place = placeOfPath(rel, isDirectory);
    if (place.error) return place;
    places.push(place);
  }
  const [first] = places;
  const other = places.find((p) => p.runner !== first.runner || p.project !== first.project);
  if (other) {
    const name = (p) => (p.runner === 'vitest' ? 'vitest' : `Jest project ${p.project}`);
    return { error: `${first.rel} and ${other.rel} are run by ${name(first)} and ${name(other)}: run them one at a time` };
  }
  if (first.runner === 'vitest') return { runner: 'vitest', args: [...places.flatMap((p) => p.selection), ...extra] };
  const args = ['--selectProjects', first.project, '--testPathPatterns', ...places.flatMap((p) => p.selection)];
  if (first.inBand) args.push('--runInBand');
  return {
    runner: 'jest',
    project: first.project,
    args: [...args, ...extra],
    database: places.some((p) => p.database),
    build: places.some((p) => p.build),
  };
}

/** Which runner takes one path, and how it selects it (a vitest path, or a Jest path pattern). */
function placeOfPath(rel, isDirectory) {
  const path = rel.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
  if (path === '' || path.startsWith('../') || path.startsWith('/')) {
    return { error: `${rel} is not inside the repository` };
  }
  if (path === 'frontend' || path.startsWith('frontend/')) {
    const inFrontend = path.slice('frontend/'.length);
    if (isDirectory ? inFrontend === '' || inFrontend === 'src' || inFrontend.startsWith('src/') : VITEST_FILE.test(inFrontend)) {
      return { rel, runner: 'vitest', selection: inFrontend ? [inFrontend] : [] };
    }
    return { error: `${rel}: the frontend's tests are src/**/*.test.ts(x) (vitest)` };
  }
  for (const place of JEST_PLACES) {
    if (!placeOf(path, place)) continue;
    if (!isDirectory && !path.endsWith(place.suffix)) {
      return { error: `${rel}: Jest project ${place.project} runs only *${place.suffix} files there` };
    }
    // Jest matches the pattern against the absolute path: anchor on the separator before the
    // relative path, and at the end for a file, so auth.e2e-spec.ts does not also run google-auth.e2e-spec.ts.
    return {
      rel,
      runner: 'jest',
      project: place.project,
      selection: [`/${escapeRegExp(path)}${isDirectory ? '/' : '$'}`],
      inBand: !!place.inBand,
      database: !!place.database,
      build: !!place.build,
    };
  }
  return {
    error:
      `${rel}: no test runner for this path. test:one takes test/api/**/*.e2e-spec.ts, test/clinical/**/*.clinical-spec.ts, ` +
      'test/browser/**/*.browser-spec.ts, backend/src/**/*.spec.ts, packages/*/src/**/*.spec.ts, scripts/**/*.spec.ts ' +
      'or frontend/src/**/*.test.ts(x) (or a folder of them)',
  };
}
