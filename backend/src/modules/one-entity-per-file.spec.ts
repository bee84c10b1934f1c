import { moduleSources } from './testing/module-sources';

/**
 * "One shape per module" (issue 23): one entity per file, in a file named after its class
 * (`RefreshToken` in `refresh-token.entity.ts`), and no entity outside an `.entity.ts` file.
 */
const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** The classes a source declares as entities: each `@Entity(` with the class its decorators end on. */
export function entityClasses(text: string): string[] {
  return [...text.matchAll(/@Entity\([^)]*\)[\s\S]*?export class (\w+)/g)].map((m) => m[1]);
}

describe('entities', () => {
  const files = moduleSources();

  it('each in a file of its own, named after its class', () => {
    const misplaced = files.flatMap(({ file, text }) => {
      const classes = entityClasses(text);
      if (!file.endsWith('.entity.ts')) return classes.map((c) => `${file}: ${c} outside an .entity.ts file`);
      const expected = file
        .split('/')
        .at(-1)!
        .replace(/\.entity\.ts$/, '');
      if (classes.length !== 1) return [`${file}: ${classes.length} entities`];
      return kebab(classes[0]) === expected ? [] : [`${file}: ${classes[0]}`];
    });
    expect(misplaced).toEqual([]);
    expect(files.filter((f) => f.file.endsWith('.entity.ts')).length).toBeGreaterThan(20);
  });

  it('finds every entity of a file, whatever decorators sit between', () => {
    const two = `@Entity('a')\n@Index('IDX', ['x'])\n@Check('C', 'x')\nexport class RefreshToken {}\n@Entity('b')\nexport class AuthSession {}`;
    expect(entityClasses(two)).toEqual(['RefreshToken', 'AuthSession']);
    expect(kebab('KnowledgeGeneration')).toBe('knowledge-generation');
  });
});
