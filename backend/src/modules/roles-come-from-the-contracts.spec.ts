import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * "Roles from the contracts" (issue 23): a route's `@Roles(...)` names the role lists of
 * @cds/contracts (ADMIN_ROLES, CLINICAL_ROLES), the same lists the web app shows its menus by, never
 * role names typed again, which could drift from the permission table.
 */
const MODULES = __dirname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('roles on routes', () => {
  it('come from the contracts’ role lists, never as typed role names', () => {
    const typed = sources(MODULES).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/@Roles\(([^)]*)\)/g)]
        .filter((m) => /['"`]/.test(m[1]))
        .map((m) => `${relative(MODULES, file)}: ${m[0]}`),
    );
    expect(typed).toEqual([]);
  });
});
