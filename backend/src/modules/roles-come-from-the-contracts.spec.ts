import { moduleSources } from './testing/module-sources';

/**
 * "Roles from the contracts" (issue 23): a route's `@Roles(...)` names the role lists of
 * @cds/contracts (ADMIN_ROLES, CLINICAL_ROLES), the same lists the web app shows its menus by, never
 * role names typed again, which could drift from the permission table.
 */
describe('roles on routes', () => {
  it('come from the contracts’ role lists, never as typed role names', () => {
    const files = moduleSources();
    expect(files.some((f) => f.file === 'cds-hooks/cds-services.controller.ts')).toBe(true);
    const typed = files.flatMap(({ file, text }) =>
      [...text.matchAll(/@Roles\(([^)]*)\)/g)].filter((m) => /['"`]/.test(m[1])).map((m) => `${file}: ${m[0]}`),
    );
    expect(typed).toEqual([]);
  });
});
