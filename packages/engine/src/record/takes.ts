import type { RangeAnswer } from '../types';
import { readInterval } from '../values';

/**
 * What a criterion takes from a patient's history (api.md, "The patient's record over time"):
 * the latest value, the lowest on the latest day, all values, a count, distinct days, exists.
 * Each is a pure function of dated values, in any order.
 */
export interface Dated<V = number | RangeAnswer> {
  /** ms since the epoch */
  at: number;
  value: V;
}

const DAY_MS = 86_400_000;
/** The UTC calendar day of a time: two results on one day are "the same day" wherever the lab is. */
export const dayOf = (at: number) => Math.floor(at / DAY_MS);

/** The values within `days` days before `now` (inclusive), and not after it. */
export function within<T extends Dated<unknown>>(values: readonly T[], now: number, days: number): T[] {
  return values.filter((v) => v.at <= now && now - v.at <= days * DAY_MS);
}

/** Older than the lookback window: shown as stale and treated as unknown. */
export const isStale = (at: number, now: number, days: number) => now - at > days * DAY_MS;

/** Newest first; equal times keep their given order. */
export function allValues<T extends Dated<unknown>>(values: readonly T[]): T[] {
  return [...values].sort((a, b) => b.at - a.at);
}

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

export const count = (values: readonly Dated<unknown>[]) => values.length;

export const exists = (values: readonly Dated<unknown>[]) => values.length > 0;

/** On how many different calendar days a value was measured. */
export function distinctDays(values: readonly Dated<unknown>[]): number {
  return new Set(values.map((v) => dayOf(v.at))).size;
}
