import { DomainError } from '../../common/errors';
import { ListQueryPipe } from '../../common/list-query.pipe';
import { parseListQuery, type ListQuery, type ListQueryOptions } from '../../common/pagination';
import { RULE_SET_SORTABLE } from './rule-sets.repository';

export const RULE_SET_PAGE_SIZE = 10;
const FILTERS = ['published', 'template', 'search', 'is_active', 'id'];

const bad = (field: string, message: string) => new DomainError('validation_failed', message, [{ field, message }]);

function intParam(name: string, raw: unknown, min: number, max: number): number {
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw bad(name, `${name} must be a whole number from ${min} to ${max}`);
  return n;
}

/**
 * react-admin's sort/range/filter, plus the spec's own call: published, template and search
 * (as query parameters or filter keys) and limit/offset, 10 rows per page.
 */
export function parseRuleSetQuery(query: Record<string, unknown>, opts: ListQueryOptions): ListQuery {
  const { limit, offset, published, template, search, ...rest } = query;
  if (limit !== undefined || offset !== undefined) {
    if (rest.range !== undefined) throw bad('range', 'Use either range or limit/offset');
    const from = offset === undefined ? 0 : intParam('offset', offset, 0, 1_000_000);
    const size = limit === undefined ? RULE_SET_PAGE_SIZE : intParam('limit', limit, 1, 100);
    rest.range = JSON.stringify([from, from + size - 1]);
  }
  const q = parseListQuery(rest, opts);
  for (const [key, value] of Object.entries({ published, template, search })) if (value !== undefined) q.filter[key] = value;
  return q;
}

/** GET /api/rule-sets' query, newest first, 10 per page. */
export const ruleSetListQuery = () =>
  new ListQueryPipe({
    sortable: RULE_SET_SORTABLE,
    defaultSort: { field: 'created_at', order: 'DESC' },
    defaultLimit: RULE_SET_PAGE_SIZE,
    filters: FILTERS,
    parse: parseRuleSetQuery,
  });
