import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The engine is pure: every file imports only from inside packages/engine/src (architecture guide). */
describe('The engine imports nothing outside itself', () => {
  const root = resolve(__dirname);
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    );
  // Specs may use node's own modules (like this one) and the property-testing library; engine code may not.
  const allowedInSpecs = /^(node:|fast-check$)/;
  const importSpecifiers =
    /^\s*(?:import|export)\b[^;]*?\bfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\b(?:import|require|requireActual(?:<[^>\n]*>)?)\s*\(\s*['"]([^'"]+)['"]/gms;

  it.each(files(root).map((f) => [f.slice(root.length + 1), f]))('%s', (_name, file) => {
    const source = readFileSync(file, 'utf8');
    const specifiers = [...source.matchAll(importSpecifiers)].map((m) => m[1] ?? m[2] ?? m[3]);
    const isSpec = file.endsWith('.spec.ts');
    for (const specifier of specifiers) {
      if (isSpec && allowedInSpecs.test(specifier)) continue;
      expect(specifier.startsWith('./') || specifier.startsWith('../') ? resolve(file, '..', specifier).startsWith(root) : specifier).toBe(
        true,
      );
    }
  });

  it('finds the engine files and their imports', () => {
    expect(files(root).length).toBeGreaterThan(20);
    const index = readFileSync(join(root, 'index.ts'), 'utf8');
    expect([...index.matchAll(importSpecifiers)].length).toBeGreaterThan(10);
  });

  it('would catch an import from outside', () => {
    const bad = "import { x } from '@nestjs/common';\nimport type {\n  Y,\n} from '../../../backend/src/y';";
    expect([...bad.matchAll(importSpecifiers)].map((m) => m[1])).toEqual(['@nestjs/common', '../../../backend/src/y']);
  });
});
