import type { PipeTransform } from '@nestjs/common';
import { assertFilterKeys } from './api-helpers';
import { parseListQuery, type ListQuery, type ListQueryOptions } from './pagination';

export interface ListRouteOptions extends ListQueryOptions {
  /** The filter keys the route reads; any other is refused (400 naming it). Omitted: the route refuses none. */
  filters?: readonly string[];
  /**
   * How the query string becomes a ListQuery when the route takes more than sort/range/filter (rule sets:
   * ?published=&limit=&offset=); by default parseListQuery.
   */
  parse?: (query: Record<string, unknown>, opts: ListQueryOptions) => ListQuery;
}

/**
 * A list route's query string (react-admin simple-rest: `sort`, `range` and `filter` as JSON, api.md)
 * as the typed ListQuery its service takes: `@Query(new ListQueryPipe({ sortable, defaultSort, filters }))`.
 * A sort field the route does not offer, a malformed range or filter, or an unknown filter key is a 400
 * validation_failed naming the parameter, before the handler runs.
 */
export class ListQueryPipe implements PipeTransform<unknown, ListQuery> {
  constructor(private readonly opts: ListRouteOptions) {}

  transform(raw: unknown): ListQuery {
    const query = typeof raw === 'object' && raw !== null ? { ...(raw as Record<string, unknown>) } : {};
    const q = (this.opts.parse ?? parseListQuery)(query, this.opts);
    if (this.opts.filters) assertFilterKeys(q.filter, this.opts.filters);
    return q;
  }
}
