import type { RangeAnswer } from '../types';
import { readInterval } from '../values';

/**
 * Dated values and the two-valued takes the criteria build on (the latest, the lowest on the latest
 * day) plus staleness; the criteria (`../criteria`) add filters, windows and three-valued counts.
 */
export interface Dated<V = number | RangeAnswer> {
  /** ms since the epoch */
  at: number;
  value: V;
}

const DAY_MS = 86_400_000;
/** The UTC calendar day of a time: two results on one day are "the same day" wherever the lab is. */
export const dayOf = (at: number) => Math.floor(at / DAY_MS);

/** Older than the lookback window: shown as stale and treated as unknown. */
export const isStale = (at: number, now: number, days: number) => now - at > days * DAY_MS;

/** The most recent value (the first given of equally recent ones); null when there is none. */
export function latest<T extends Dated<unknown>>(values: readonly T[]): T | null {
  let best: T | null = null;
  for (const v of values) if (best === null || v.at > best.at) best = v;
  return best;
}

/** Where a value lies for ordering: its interval's low end, then its high end (an unreadable band sorts last). */
function order(value: unknown): [number, number] {
  const i = readInterval(value);
  return i ? [i.lo, i.hi] : [Infinity, Infinity];
}

/** The lowest value measured on the day of the latest one (several blood pressures in one visit: the lowest stands). */
export function lowestOnLatestDay<T extends Dated>(values: readonly T[]): T | null {
  const last = latest(values);
  if (last === null) return null;
  const day = dayOf(last.at);
  let best: T | null = null;
  for (const v of values) {
    if (dayOf(v.at) !== day) continue;
    const [lo, hi] = order(v.value);
    const b = best && order(best.value);
    if (b === null || lo < b[0] || (lo === b[0] && hi < b[1])) best = v;
  }
  return best;
}
