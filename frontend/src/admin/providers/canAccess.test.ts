import { describe, expect, it } from 'vitest';
import { assignableRoles, canAccess, invitableRoles, mayDecide } from '@cds/contracts';

describe('canAccess', () => {
  it('lets administrators into every admin resource, nobody else', () => {
    for (const resource of ['dashboard', 'users', 'approvals', 'parameters', 'rules', 'rule-sets', 'settings', 'invitations']) {
      expect(canAccess('admin', { resource, action: 'list' })).toBe(true);
      expect(canAccess('super_admin', { resource, action: 'list' })).toBe(true);
      expect(canAccess('pcp', { resource, action: 'list' })).toBe(false);
      expect(canAccess(null, { resource, action: 'list' })).toBe(false);
      expect(canAccess(undefined, { resource, action: 'list' })).toBe(false);
    }
  });

  it('refuses unknown resources', () => {
    expect(canAccess('super_admin', { resource: 'secrets', action: 'list' })).toBe(false);
  });

  it('the change history and the record imports are read-only', () => {
    expect(canAccess('super_admin', { resource: 'parameter-changes', action: 'list' })).toBe(true);
    expect(canAccess('super_admin', { resource: 'parameter-changes', action: 'delete' })).toBe(false);
    expect(canAccess('admin', { resource: 'jobs', action: 'list' })).toBe(true);
    expect(canAccess('admin', { resource: 'jobs', action: 'delete' })).toBe(false);
    expect(canAccess('pcp', { resource: 'jobs', action: 'list' })).toBe(false);
  });

  it('an admin may change the role of a PCP or of a user without a role, not of an administrator', () => {
    expect(canAccess('admin', { resource: 'users', action: 'edit', record: { role: 'pcp' } })).toBe(true);
    expect(canAccess('admin', { resource: 'users', action: 'edit', record: { role: null } })).toBe(true);
    expect(canAccess('admin', { resource: 'users', action: 'edit', record: { role: 'admin' } })).toBe(false);
    expect(canAccess('admin', { resource: 'users', action: 'edit', record: { role: 'super_admin' } })).toBe(false);
    expect(canAccess('super_admin', { resource: 'users', action: 'edit', record: { role: 'super_admin' } })).toBe(true);
  });

  it('an admin decides PCP requests only', () => {
    expect(canAccess('admin', { resource: 'approvals', action: 'edit', record: { requested_role: 'pcp', current_role: null } })).toBe(true);
    expect(canAccess('admin', { resource: 'approvals', action: 'edit', record: { requested_role: 'admin', current_role: null } })).toBe(
      false,
    );
    expect(
      canAccess('super_admin', { resource: 'approvals', action: 'edit', record: { requested_role: 'admin', current_role: null } }),
    ).toBe(true);
  });
});

describe('assignableRoles', () => {
  it('super_admin: every role and none', () => {
    expect(assignableRoles('super_admin', 'admin')).toEqual(['pcp', 'admin', 'super_admin', null]);
  });
  it('admin: pcp or none, on non-administrators only', () => {
    expect(assignableRoles('admin', null)).toEqual(['pcp', null]);
    expect(assignableRoles('admin', 'pcp')).toEqual(['pcp', null]);
    expect(assignableRoles('admin', 'admin')).toEqual([]);
    expect(assignableRoles('admin', 'super_admin')).toEqual([]);
  });
  it('anyone else: nothing', () => {
    expect(assignableRoles('pcp', null)).toEqual([]);
    expect(assignableRoles(null, null)).toEqual([]);
  });
  it('invitations follow the same rule', () => {
    expect(invitableRoles('admin')).toEqual(['pcp', null]);
    expect(invitableRoles('super_admin')).toEqual(['pcp', 'admin', 'super_admin', null]);
    expect(invitableRoles('pcp')).toEqual([]);
  });
  it('mayDecide mirrors the server', () => {
    expect(mayDecide('admin', 'pcp', 'admin')).toBe(false);
    expect(mayDecide('admin', 'pcp', null)).toBe(true);
    expect(mayDecide('pcp', 'pcp', null)).toBe(false);
  });
});
