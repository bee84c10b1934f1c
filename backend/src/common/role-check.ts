import { ROLES } from '@cds/contracts';

/**
 * The CHECK of a role column, written from the contract's ROLES: the schema's constraint and the role
 * policy are one list (a role added there fails the migrations test until a migration widens the CHECK).
 */
export function roleCheck(column: string): string {
  return `"${column}" IN (${ROLES.map((r) => `'${r}'`).join(', ')})`;
}
