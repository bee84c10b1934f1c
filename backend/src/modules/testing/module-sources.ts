import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** backend/src/modules: the folder the structural specs read. */
export const MODULES = join(__dirname, '..');

/** A module source file: its path relative to backend/src/modules with `/` separators, and its text. */
export interface ModuleSource {
  path: string;
  file: string;
  text: string;
}

/**
 * Every `.ts` file under backend/src/modules that the structural specs (modules meet through their index,
 * roles from the contracts, SQL only in repositories) check: production sources, not specs and not
 * this test helper's folder. `skip` leaves out more files by name (the SQL spec skips repositories and
 * entities).
 */
export function moduleSources(skip: RegExp = /\.spec\.ts$/): ModuleSource[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return path === join(MODULES, 'testing') ? [] : walk(path);
      return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') && !skip.test(e.name) ? [path] : [];
    });
  return walk(MODULES).map((path) => ({ path, file: relative(MODULES, path).split(sep).join('/'), text: readFileSync(path, 'utf8') }));
}
