import { randomBytes } from 'node:crypto';
import type { TestApp } from './app';

export type RoleName = 'admin' | 'super_admin' | 'pcp' | null;

export interface TestUser {
  id: string;
  email: string;
  password: string;
  access_token: string;
  refresh_token: string;
  role: RoleName;
  auth: { Authorization: string };
}

export const PASSWORD = 'correct horse battery staple';

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}.${Date.now().toString(36)}${randomBytes(3).toString('hex')}@clinic.test`;
}

/** Signs up through the API (the real path), then sets the role directly: test setup, not the feature. */
export async function createUser(
  t: TestApp,
  role: RoleName = null,
  overrides: { email?: string; first_name?: string; last_name?: string } = {},
): Promise<TestUser> {
  const email = overrides.email ?? uniqueEmail(role ?? 'norole');
  const res = await t
    .http()
    .post('/api/auth/signup')
    .send({
      email,
      password: PASSWORD,
      data: { first_name: overrides.first_name ?? 'Test', last_name: overrides.last_name ?? 'User' },
    });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.user.id as string;
  await setRole(t, id, role);
  return {
    id,
    email,
    password: PASSWORD,
    role,
    access_token: res.body.access_token,
    refresh_token: res.body.refresh_token,
    auth: { Authorization: `Bearer ${res.body.access_token}` },
  };
}

export async function setRole(t: TestApp, userId: string, role: RoleName) {
  if (role === null) await t.db.query('DELETE FROM user_roles WHERE user_id = $1', [userId]);
  else {
    await t.db.query(
      `INSERT INTO user_roles (user_id, role) VALUES ($1, $2)
      ON CONFLICT (user_id) DO UPDATE SET role = EXCLUDED.role`,
      [userId, role],
    );
  }
}

/** One user per role, with an administrator created first so no one becomes owner by accident. */
export async function createCast(t: TestApp) {
  const super_admin = await createUser(t, 'super_admin');
  const admin = await createUser(t, 'admin');
  const pcp = await createUser(t, 'pcp');
  const none = await createUser(t, null);
  return { super_admin, admin, pcp, none };
}

/** Row counts of the given tables, to prove a refused write left nothing behind. */
export async function counts(t: TestApp, tables: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of tables) out[table] = Number((await t.db.query(`SELECT count(*)::int AS n FROM "${table}"`))[0].n);
  return out;
}
