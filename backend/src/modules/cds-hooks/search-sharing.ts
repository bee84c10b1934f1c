import { hasNextPage } from './observations';
import { CODE_PARAM_MAX_CHARS, codeParam, observationParams, type HistorySearch } from './record-history';

/**
 * Observation searches of one call that one search of the FHIR server can answer (issue 22): a latest
 * value whose codes a history search also asks for (UACR 9318-7 inside CMS951's value set), or that
 * overlaps one (systolic 8480-6 with its panel 85354-9 beside CMS165's 8480-6). Each planned search
 * then reads, from the shared search's bundle, exactly what its own search would have returned: the
 * first `count` results of its own codes, newest first, with the same statuses. When the bundle cannot
 * prove that (it has a next page and too few of them, or is a history whose own completeness is then
 * unknown), or the shared search fails, the planned search is made on its own: never less of the record.
 * Only for searches made on the FHIR server: a prefetched bundle may be neither sorted nor bounded.
 */

/** A search as a call plans it: its prefetch key, codes, how many results, and whether a next page matters. */
export interface PlannedSearch {
  key: string;
  codes: readonly string[];
  count: number;
  /** A history reads "more than it holds" (a next page) as part of the record; a latest value does not. */
  pages: boolean;
}

/** How a planned search is read from a shared one. */
export interface SharedRead {
  /** What is fetched: a planned history search itself, or the union of its codes and a latest value's. */
  search: HistorySearch;
  /** The planned searches read from it: if any is prefetched, each is read on its own. */
  members: readonly string[];
  /** The results the shared search asks for (`_count`). */
  asked: number;
  codes: ReadonlySet<string>;
  count: number;
  pages: boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `system|code` of each coding of Observation.code: what the server's `code=` search matches. */
function codeTokens(o: Json): string[] {
  const coding = isObject(o.code) && Array.isArray(o.code.coding) ? o.code.coding : [];
  return coding.filter(isObject).map((c) => `${String(c.system)}|${String(c.code)}`);
}

const holds = (a: readonly string[], b: readonly string[]) => b.every((c) => a.includes(c));

/**
 * Which planned searches are read from another. Each history is read from the history holding all its
 * codes with the most codes (the same searches planned twice are then one); each latest value from the
 * history holding all its codes with the fewest, else from the union with the history it shares most
 * codes with, when that union still fits one URL. Keys not in the map are searched on their own.
 */
export function shareSearches(latest: readonly PlannedSearch[], histories: readonly PlannedSearch[]): Map<string, SharedRead> {
  const hostOf = (h: PlannedSearch) =>
    histories
      .filter((o) => o.count >= h.count && holds(o.codes, h.codes))
      .sort((a, b) => b.codes.length - a.codes.length || histories.indexOf(a) - histories.indexOf(b))[0];
  const groups = new Map<PlannedSearch, { codes: string[]; members: PlannedSearch[] }>();
  for (const h of histories) {
    const host = hostOf(h);
    const group = groups.get(host) ?? { codes: [...host.codes], members: [] };
    if (host !== h) group.members.push(h);
    groups.set(host, group);
  }
  const hosts = [...groups.keys()];
  for (const l of latest) {
    const overlap = (h: PlannedSearch) => l.codes.filter((c) => h.codes.includes(c)).length;
    const inside = hosts.filter((h) => h.count >= l.count && holds(h.codes, l.codes)).sort((a, b) => a.codes.length - b.codes.length)[0];
    const host =
      inside ??
      hosts
        .filter((h) => overlap(h) > 0)
        .sort((a, b) => overlap(b) - overlap(a))
        .find((h) => codeParam(union(groups.get(h)!.codes, l.codes)).length <= CODE_PARAM_MAX_CHARS);
    if (!host) continue;
    const group = groups.get(host)!;
    group.codes = union(group.codes, l.codes);
    group.members.push(l);
  }
  const out = new Map<string, SharedRead>();
  for (const [host, { codes, members }] of groups) {
    if (!members.length) continue;
    const widened = codes.length > host.codes.length;
    // A union is no prefetch key: its key only names the fetch.
    const search: HistorySearch = {
      key: widened ? `shared-${host.key}` : host.key,
      resourceType: 'Observation',
      params: `${codeParam(codes)}&${observationParams(host.count)}`,
      codes,
    };
    const all = widened ? [host, ...members] : members;
    const keys = [host.key, ...members.map((m) => m.key)];
    for (const p of all)
      out.set(p.key, { search, members: keys, asked: host.count, codes: new Set(p.codes), count: p.count, pages: p.pages });
  }
  return out;
}

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])].sort();

/**
 * Whether a search's bundle may leave results out: what `hasNextPage` reads (a next link, a `total` above its
 * matches), or, with no total, as many results as were asked (some servers give no next link).
 */
export function mayHoldLess(bundle: unknown, held: number, asked: number): boolean {
  if (hasNextPage(bundle)) return true;
  return isObject(bundle) && typeof bundle.total !== 'number' && held >= asked;
}

/**
 * What the planned search's own search would have returned, from the shared search's resources (in the
 * server's order, newest first) and whether that bundle may hold less than all (`mayHoldLess`); null
 * when it cannot be proven.
 */
export function readShared(
  resources: readonly Json[],
  truncated: boolean,
  read: Pick<SharedRead, 'codes' | 'count' | 'pages'>,
): { resources: Json[]; truncated: boolean } | null {
  const own = resources.filter((o) => codeTokens(o).some((t) => read.codes.has(t)));
  // The whole of the record for the union: its own search had these, bounded by its count.
  if (!truncated) return { resources: own.slice(0, read.count), truncated: own.length > read.count };
  // More than its count of its own codes, newest first: its own search had the first ones, and a next page.
  if (own.length > read.count) return { resources: own.slice(0, read.count), truncated: true };
  // A latest value needs only its newest `count` results.
  if (!read.pages && own.length >= read.count) return { resources: own.slice(0, read.count), truncated: false };
  return null;
}
