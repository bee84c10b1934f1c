import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The impact preview stays on its side of the module walls: it uses the rules module only through
 * that module's index, the rules module does not depend on it back, and its SQL is in its
 * repository alone.
 */
const modules = join(__dirname, '..');
const sources = (module: string) =>
  readdirSync(join(modules, module))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
    .map((f) => ({ file: f, text: readFileSync(join(modules, module, f), 'utf8') }));
const imports = (text: string) => [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]);

describe('impact preview module boundaries', () => {
  it("imports another module's files only through its index (entities excepted: relations name their targets)", () => {
    const deep = sources('impact-preview')
      .filter((s) => !s.file.endsWith('.entity.ts'))
      .flatMap((s) =>
        imports(s.text)
          .filter((i) => /^\.\.\/[^./][^/]*\//.test(i))
          .map((i) => `${s.file}: ${i}`),
      );
    expect(deep).toEqual([]);
  });

  it('the rules module does not import the impact preview (publishing asks for a PublishImpactCheck)', () => {
    const back = sources('rules').flatMap((s) =>
      imports(s.text)
        .filter((i) => i.startsWith('../impact-preview'))
        .map((i) => `${s.file}: ${i}`),
    );
    expect(back).toEqual([]);
  });

  it('queries the database only in its repository', () => {
    const sql = sources('impact-preview')
      .filter((s) => !s.file.endsWith('.repository.ts'))
      .filter(
        (s) =>
          /\b(m|manager|db)\.(query|find\w*|save|update|delete|insert|createQueryBuilder)\(/.test(s.text) ||
          /\bSELECT\b|\bDELETE FROM\b/.test(s.text),
      )
      .map((s) => s.file);
    expect(sql).toEqual([]);
  });
});
