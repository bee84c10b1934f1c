import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Issue 23: no source file over 450 lines outside tests and benches, counted as `wc -l` counts them.
const LIMIT = 450;
const root = join(__dirname, '..');
const ROOTS = ['packages', 'backend/src', 'frontend/src'];
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'build', 'coverage']);
const SOURCE = /\.(ts|tsx|js|jsx|mjs|cjs)$/;

/** Tests, their fixtures and helpers, and benches: the limit is for the code the product runs. */
function isTestOrBench(path: string): boolean {
  return (
    /\.(spec|test|e2e-spec|bench)\.[a-z]+$/.test(path) || /(^|\/)(test|testing|__tests__|bench)\//.test(path) || path.endsWith('.d.ts')
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_DIRECTORIES.has(entry.name) ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) && !isTestOrBench(path) ? [path] : [];
  });
}

const lines = (path: string) => readFileSync(join(root, path), 'utf8').split('\n').length - 1;

describe('source file length', () => {
  it('leaves tests and benches out, and nothing else', () => {
    expect(isTestOrBench('backend/src/modules/measures/panel.spec.ts')).toBe(true);
    expect(isTestOrBench('frontend/src/pcp/Panel.test.tsx')).toBe(true);
    expect(isTestOrBench('frontend/src/test/helpers.tsx')).toBe(true);
    expect(isTestOrBench('packages/engine/src/testing/builders.ts')).toBe(true);
    expect(isTestOrBench('benches/src/engine.bench.ts')).toBe(true);
    expect(isTestOrBench('backend/src/modules/measures/measures.service.ts')).toBe(false);
    expect(isTestOrBench('frontend/src/pcp/panel/PanelPlots.tsx')).toBe(false);
    expect(isTestOrBench('backend/src/modules/rules/content/ada-2026-kidney.ts')).toBe(false);
  });

  it(`keeps every source file of packages/, backend/src and frontend/src within ${LIMIT} lines`, () => {
    const files = ROOTS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(300);
    const over = files.filter((f) => lines(f) > LIMIT).map((f) => `${f}: ${lines(f)} lines`);
    expect(over).toEqual([]);
  });
});
