import type { Answers, RangeAnswer } from './types';

const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A finite number from a number or a numeric string; NaN for anything else. */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : NaN;
  if (typeof value === 'string') {
    const text = value.trim();
    if (!NUMERIC.test(text)) return NaN;
    const n = Number(text);
    return Number.isFinite(n) ? n : NaN;
  }
  return NaN;
}

/** Absent, null or blank text: the question has not been answered. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export function isUnknownSentinel(value: unknown): boolean {
  return typeof value === 'string' && value.trim().toLowerCase() === 'unknown';
}

export function isRangeAnswer(value: unknown): value is RangeAnswer {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'range';
}

/**
 * The values a numeric answer stands for, as the smallest and largest double in it: a plain number
 * v is [v, v]; a band's open (exclusive) end becomes the next double inside it, and a null end is
 * ±Infinity. Answers are doubles, so "every value of the band" means every double in it; for a
 * double threshold t this is exactly the real-number reading ("> t" holds on (t, 7] because its
 * smallest double is above t), and it lets every comparison stay a single one.
 */
export interface Interval {
  lo: number;
  hi: number;
}

function bound(value: unknown, open: number): number {
  return value === null ? open : toNumber(value);
}

/**
 * Reads a numeric answer as an interval; null when it is unreadable or empty (an inverted range,
 * [t, t), a malformed bound): such an answer is unknown, never compared. Absent inclusivity flags
 * mean inclusive, so answers stored before the flags existed still read as closed intervals.
 */
export function readInterval(value: unknown): Interval | null {
  if (isRangeAnswer(value)) {
    // Each property is read once, so an answer object cannot say two things.
    const { min, max } = value;
    let lo = bound(min, -Infinity);
    let hi = bound(max, Infinity);
    if (Number.isNaN(lo) || Number.isNaN(hi)) return null;
    if (min !== null && value.min_inclusive === false) lo = nextUp(lo);
    if (max !== null && value.max_inclusive === false) hi = nextDown(hi);
    return lo <= hi ? { lo, hi } : null;
  }
  const n = toNumber(value);
  return Number.isNaN(n) ? null : { lo: n, hi: n };
}

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

/** The smallest double above x (x itself for NaN and +Infinity). */
export function nextUp(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  F64[0] = x;
  U64[0] = x > 0 ? U64[0] + 1n : U64[0] - 1n;
  return F64[0];
}

/** The largest double below x. */
export function nextDown(x: number): number {
  return -nextUp(-x);
}

export const BOOL_FALSE = 0;
export const BOOL_TRUE = 1;
export const BOOL_UNKNOWN = 2;

export function toBooleanCode(value: unknown): 0 | 1 | 2 {
  if (value === true) return BOOL_TRUE;
  if (value === false) return BOOL_FALSE;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'true') return BOOL_TRUE;
    if (text === 'false') return BOOL_FALSE;
  }
  return BOOL_UNKNOWN;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const DAY_MS = 86_400_000;

/**
 * The calendar day (days since 1970-01-01) of an ISO-8601 date or date-time, as written:
 * '2024-03-01T23:30-05:00' is 1 March, the day the clinician wrote down. NaN if not a real date.
 */
export function toDay(value: unknown): number {
  if (typeof value !== 'string') return NaN;
  const m = ISO_DATE.exec(value.trim());
  if (!m) return NaN;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return NaN;
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return NaN;
  return ms / DAY_MS;
}

/** The UTC day of a reference time; NaN when none is given or it is unreadable. */
export function referenceDay(now: Date | number | string | undefined): number {
  if (now === undefined) return NaN;
  if (typeof now === 'string') return toDay(now);
  const ms = now instanceof Date ? now.getTime() : now;
  return Number.isFinite(ms) ? Math.floor(ms / DAY_MS) : NaN;
}

/** Text of a scalar answer or threshold; null when it has none. */
export function toText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return String(value);
  return null;
}

/** Only own properties count: an answer keyed "constructor" must not read Object.prototype. */
export function answerFor(answers: Answers, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(answers, key) ? answers[key] : undefined;
}
