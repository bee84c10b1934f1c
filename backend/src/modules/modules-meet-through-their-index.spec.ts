import { join, relative, sep } from 'node:path';
import { MODULES, moduleSources } from './testing/module-sources';

/**
 * "A module uses another only through that module's index.ts" (docs/architecture.md, issue 12),
 * checked on the import lines of every file under backend/src/modules. The one exception is
 * another module's entity class: the schema is one, and reaching an entity through an index
 * creates require cycles while the classes are being decorated (polish ↔ parameters did). A module may
 * also offer a `content.ts` beside its index: pure content and functions, no Nest classes, for a module
 * its own module depends on (cds-hooks reads the measures' content; the measures module imports
 * CdsHooksModule, so the measures index would be a cycle).
 */
/** Imports of another module's inner file: `from '../users/users.service'`, not `from '../users'`. */
export function reachesInside(file: string, text: string): string[] {
  const own = relative(MODULES, file).split(sep)[0];
  const found: string[] = [];
  for (const [, specifier] of text.matchAll(/from\s+'([^']+)'/g)) {
    if (!specifier.startsWith('.')) continue;
    const target = relative(MODULES, join(file, '..', specifier)).split(sep);
    if (target[0] === '..' || target[0] === own || target.length < 2) continue;
    if (specifier.endsWith('.entity')) continue;
    if (target.length === 2 && target[1] === 'content') continue;
    found.push(specifier);
  }
  return found;
}

describe('modules meet through their index.ts', () => {
  it('no module imports an inner file of another', () => {
    const offenders = moduleSources().flatMap(({ path, file, text }) => reachesInside(path, text).map((s) => `${file} imports '${s}'`));
    expect(offenders).toEqual([]);
  });

  it('catches an inner import, and lets an index import and an entity through', () => {
    const fhir = join(MODULES, 'fhir', 'fhir.service.ts');
    expect(reachesInside(fhir, "import { toResult } from '../assessments/outcome';")).toEqual(['../assessments/outcome']);
    expect(reachesInside(fhir, "import { toResult } from '../assessments';\nimport { x } from './fhir-resources';")).toEqual([]);
    expect(reachesInside(join(MODULES, 'rules', 'rule.entity.ts'), "import { User } from '../users/user.entity';")).toEqual([]);
    expect(reachesInside(fhir, "import { SHIPPED_MEASURES } from '../measures/content';")).toEqual([]);
    expect(reachesInside(fhir, "import { x } from '../measures/content/inner';")).toEqual(['../measures/content/inner']);
  });
});
