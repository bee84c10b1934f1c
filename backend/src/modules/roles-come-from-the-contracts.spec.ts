import { ROLES } from '@cds/contracts';
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

  it('in a CHECK constraint come from the contracts’ ROLES, never as typed role names', () => {
    const files = moduleSources();
    const roleChecks = files.flatMap(({ file, text }) => [...text.matchAll(/@Check\('(CHK_\w*role\w*)'/g)].map((m) => `${file}: ${m[1]}`));
    expect(roleChecks).toEqual([
      'approvals/user-approval.entity.ts: CHK_user_approvals_role',
      'auth/invitation.entity.ts: CHK_invitations_role',
      'users/user-role.entity.ts: CHK_user_roles_role',
    ]);
    const typed = files.flatMap(({ file, text }) =>
      [...text.matchAll(/@Check\(([^\n]*)\)/g)].filter((m) => ROLES.some((r) => m[1].includes(`'${r}'`))).map((m) => `${file}: ${m[0]}`),
    );
    expect(typed).toEqual([]);
  });
});
