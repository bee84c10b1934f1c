import { DomainError } from './errors';
import { assertSafeInput, jsonDepthWithin } from './input-safety';

/** A page of a react-admin simple-rest list; the interceptor sets Content-Range from it. */
export class Page<T> {
  constructor(
    readonly resource: string,
    readonly items: T[],
    readonly total: number,
    readonly start: number,
  ) {}

  get contentRange(): string {
    const end = this.items.length ? this.start + this.items.length - 1 : this.start;
    return `${this.resource} ${this.start}-${end}/${this.total}`;
  }
}

export interface ListQuery<F = Record<string, unknown>> {
  sort: { field: string; order: 'ASC' | 'DESC' };
  offset: number;
  limit: number;
  filter: F;
}

export interface ListQueryOptions {
  sortable: readonly string[];
  defaultSort: { field: string; order: 'ASC' | 'DESC' };
  maxLimit?: number;
  defaultLimit?: number;
}

function parseJson(name: string, raw: unknown): unknown {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw bad(name, `${name} must be a JSON string`);
  if (!jsonDepthWithin(raw)) throw bad(name, `${name} is nested too deeply`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw bad(name, `${name} must be valid JSON`);
  }
  assertSafeInput(parsed, name);
  return parsed;
}

const bad = (field: string, message: string) => new DomainError('validation_failed', message, [{ field, message }]);

/** Parses react-admin's `sort`, `range` and `filter` query parameters. */
export function parseListQuery(query: Record<string, unknown>, opts: ListQueryOptions): ListQuery {
  const maxLimit = opts.maxLimit ?? 100;
  let sort = opts.defaultSort;
  const rawSort = parseJson('sort', query.sort);
  if (rawSort !== undefined) {
    if (!Array.isArray(rawSort) || rawSort.length !== 2 || typeof rawSort[0] !== 'string') {
      throw bad('sort', 'sort must look like ["field","ASC"]');
    }
    const order = String(rawSort[1]).toUpperCase();
    if (!opts.sortable.includes(rawSort[0])) throw bad('sort', `Cannot sort by '${rawSort[0]}'`);
    if (order !== 'ASC' && order !== 'DESC') throw bad('sort', 'sort order must be ASC or DESC');
    sort = { field: rawSort[0], order };
  }
  let offset = 0;
  let limit = opts.defaultLimit ?? 25;
  const rawRange = parseJson('range', query.range);
  if (rawRange !== undefined) {
    if (
      !Array.isArray(rawRange) ||
      rawRange.length !== 2 ||
      !rawRange.every((n) => Number.isInteger(n) && n >= 0) ||
      rawRange[1] < rawRange[0]
    ) {
      throw bad('range', 'range must look like [0,24]');
    }
    offset = rawRange[0];
    limit = rawRange[1] - rawRange[0] + 1;
  }
  if (limit > maxLimit) throw bad('range', `range may span at most ${maxLimit} rows`);
  const rawFilter = parseJson('filter', query.filter) ?? {};
  if (typeof rawFilter !== 'object' || rawFilter === null || Array.isArray(rawFilter)) {
    throw bad('filter', 'filter must be a JSON object');
  }
  return { sort, offset, limit, filter: rawFilter as Record<string, unknown> };
}

/** Reads an `id` filter (react-admin getMany) as a list of UUIDs, or undefined. */
export function idFilter(filter: Record<string, unknown>): string[] | undefined {
  const ids = filter.id;
  if (ids === undefined) return undefined;
  const list = Array.isArray(ids) ? ids : [ids];
  if (!list.every((id) => typeof id === 'string' && UUID.test(id))) throw bad('filter.id', 'filter.id must be a list of ids');
  return list as string[];
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
