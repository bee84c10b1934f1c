import { json, me, mockApi, seedSession, type Handler } from '../../test/helpers';
import type { Role } from '@cds/contracts';

/** A simple-rest list answer with its Content-Range header. */
export function listOf<T>(resource: string, items: T[], total = items.length) {
  return json(200, items, { 'Content-Range': `${resource} 0-${Math.max(items.length - 1, 0)}/${total}` });
}

/** Signed in with a role, the console's always-on calls answered, plus the given routes. */
export function adminApiMock(routes: Record<string, Handler>, role: Role = 'super_admin') {
  seedSession();
  return mockApi({
    'GET /api/me': json(200, me(role)),
    'GET /api/stats': json(200, { total_users: 0, active_pcps: 0, pending_approvals: 0 }),
    'GET /api/activity': json(200, []),
    'GET /api/health': json(200, {
      status: 'ok',
      database: 'up',
      queue: 'up',
      mode: { database: 'embedded', queue: 'in-process' },
      version: '0.1.0',
    }),
    ...routes,
  });
}
