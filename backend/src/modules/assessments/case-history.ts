import { isAdmin } from '@cds/contracts';
import { boolFilter } from '../../common/api-helpers';
import type { AuthUser } from '../../common/auth-user';
import { validationFailed } from '../../common/errors';
import { idFilter, UUID } from '../../common/pagination';

/** Which cases (assessments or chat sessions) a case-history list reads, as the repositories take it. */
export interface CaseListFilter {
  user_id?: string;
  is_completed?: boolean;
  ids?: string[];
}

/** The case history's filter keys; the list routes' ListQueryPipe refuses any other. */
export const CASE_LIST_FILTERS = ['mine', 'user_id', 'is_completed', 'id'];

/**
 * The case history's filter, the same for assessments and chat sessions: everyone else gets their
 * own cases, an administrator all of them or, with {"mine": true}, their own; user_id narrows to one
 * user. Null when the caller asks for someone else's cases without the right: both owners must
 * match, so the answer is an empty page.
 */
export function caseListFilter(user: AuthUser, f: Record<string, unknown>): CaseListFilter | null {
  if (f.user_id !== undefined && (typeof f.user_id !== 'string' || !UUID.test(f.user_id)))
    throw validationFailed([{ field: 'filter.user_id', message: 'filter.user_id must be a user id' }]);
  const mine = !isAdmin(user.role) || boolFilter(f, 'mine');
  if (mine && f.user_id !== undefined && f.user_id !== user.id) return null;
  return { user_id: mine ? user.id : (f.user_id as string | undefined), is_completed: boolFilter(f, 'is_completed'), ids: idFilter(f) };
}
