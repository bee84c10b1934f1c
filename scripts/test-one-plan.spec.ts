import { escapeRegExp, planTestRun, planTestRuns } from './test-one-plan.mjs';

// What `npm run test:one -- <path>` runs for each kind of path (scripts/test-one.mjs).
describe('test:one: path → runner', () => {
  const absolute = (rel: string) => `/work/repo/${rel}`;
  const matches = (pattern: string, rel: string) => new RegExp(pattern, 'i').test(absolute(rel));

  it('an API suite: Jest project api, in band, on a database', () => {
    const plan = planTestRun('test/api/auth.e2e-spec.ts');
    expect(plan).toEqual({
      runner: 'jest',
      project: 'api',
      args: ['--selectProjects', 'api', '--testPathPatterns', '/test/api/auth\\.e2e-spec\\.ts$', '--runInBand'],
      database: true,
      build: false,
    });
  });

  it('the pattern selects that file and no other with the same ending', () => {
    const pattern = planTestRun('test/api/auth.e2e-spec.ts').args[3];
    expect(matches(pattern, 'test/api/auth.e2e-spec.ts')).toBe(true);
    expect(matches(pattern, 'test/api/google-auth.e2e-spec.ts')).toBe(false);
    expect(matches(pattern, 'test/api/authxe2e-spec.ts')).toBe(false);
  });

  it('clinical and browser suites: their projects in band; a browser suite needs the build', () => {
    expect(planTestRun('test/clinical/ada-pack.clinical-spec.ts')).toMatchObject({ project: 'clinical', database: true, build: false });
    expect(planTestRun('test/browser/admin.browser-spec.ts')).toMatchObject({ project: 'browser', database: true, build: true });
    expect(planTestRun('test/browser/admin.browser-spec.ts').args).toContain('--runInBand');
  });

  it('unit specs under backend/src, packages/*/src and scripts: project unit, no database, not in band', () => {
    for (const rel of [
      'backend/src/node-flags.spec.ts',
      'packages/engine/src/evaluate.spec.ts',
      'packages/contracts/src/x/y.spec.ts',
      'scripts/test-one-plan.spec.ts',
    ]) {
      const plan = planTestRun(rel);
      expect(plan).toMatchObject({ runner: 'jest', project: 'unit', database: false, build: false });
      expect(plan.args).not.toContain('--runInBand');
    }
  });

  it('a frontend test: vitest with the path inside frontend/', () => {
    expect(planTestRun('frontend/src/App.test.tsx')).toEqual({ runner: 'vitest', args: ['src/App.test.tsx'] });
    expect(planTestRun('./frontend/src/api/errors.test.ts', { extra: ['-t', 'x'] })).toEqual({
      runner: 'vitest',
      args: ['src/api/errors.test.ts', '-t', 'x'],
    });
  });

  it('a folder: every suite under it, in its project', () => {
    const plan = planTestRun('test/api/', { isDirectory: true });
    expect(plan).toMatchObject({ project: 'api' });
    expect(matches(plan.args[3], 'test/api/rules.e2e-spec.ts')).toBe(true);
    expect(matches(plan.args[3], 'test/apix/rules.e2e-spec.ts')).toBe(false);
    expect(planTestRun('packages/engine/src', { isDirectory: true })).toMatchObject({ project: 'unit' });
  });

  it('further arguments follow the plan', () => {
    expect(planTestRun('test/api/auth.e2e-spec.ts', { extra: ['-t', 'sign in'] }).args.slice(-2)).toEqual(['-t', 'sign in']);
  });

  it('a path no runner takes is an error, not every suite', () => {
    for (const rel of [
      'README.md',
      'test/support/app.ts',
      'test/api/auth.clinical-spec.ts',
      'backend/src/main.ts',
      'frontend/src/App.tsx',
      'packages/engine/README.md',
      '../elsewhere/x.spec.ts',
      '',
    ]) {
      expect(planTestRun(rel)).toEqual({ error: expect.any(String) });
    }
  });

  it('several frontend tests: one vitest run of all of them', () => {
    expect(
      planTestRuns([{ rel: 'frontend/src/App.test.tsx' }, { rel: 'frontend/src/pages', isDirectory: true }], { extra: ['-t', 'x'] }),
    ).toEqual({ runner: 'vitest', args: ['src/App.test.tsx', 'src/pages', '-t', 'x'] });
  });

  it('several suites of one Jest project: one run selecting each, and no other', () => {
    const plan = planTestRuns([{ rel: 'test/api/auth.e2e-spec.ts' }, { rel: 'test/api/rules.e2e-spec.ts' }]);
    expect(plan).toMatchObject({ runner: 'jest', project: 'api', database: true, build: false });
    const patterns = plan.args.slice(3, 5);
    expect(plan.args.slice(0, 3)).toEqual(['--selectProjects', 'api', '--testPathPatterns']);
    expect(plan.args[5]).toBe('--runInBand');
    const selected = (rel: string) => patterns.some((p: string) => matches(p, rel));
    expect(selected('test/api/auth.e2e-spec.ts')).toBe(true);
    expect(selected('test/api/rules.e2e-spec.ts')).toBe(true);
    expect(selected('test/api/google-auth.e2e-spec.ts')).toBe(false);
  });

  it('paths of different runners are refused, naming both; a path no runner takes still is', () => {
    expect(planTestRuns([{ rel: 'test/api/auth.e2e-spec.ts' }, { rel: 'frontend/src/App.test.tsx' }])).toEqual({
      error: expect.stringContaining('Jest project api and vitest'),
    });
    expect(planTestRuns([{ rel: 'backend/src/node-flags.spec.ts' }, { rel: 'test/api/auth.e2e-spec.ts' }])).toEqual({
      error: expect.stringContaining('Jest project unit and Jest project api'),
    });
    expect(planTestRuns([{ rel: 'test/api/auth.e2e-spec.ts' }, { rel: 'README.md' }])).toEqual({ error: expect.any(String) });
  });

  it('escapes every regular-expression character', () => {
    const text = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o';
    expect(new RegExp(`^${escapeRegExp(text)}$`).test(text)).toBe(true);
  });
});
