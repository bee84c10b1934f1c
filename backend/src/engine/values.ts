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
 * The [min, max] a numeric answer stands for: a plain number is the range [v, v].
 * Anything unreadable (including an inverted range) gives [NaN, NaN], i.e. unknown.
 */
export function numericBounds(value: unknown): [number, number] {
  if (isRangeAnswer(value)) {
    const min = toNumber(value.min);
    const max = toNumber(value.max);
    return min <= max ? [min, max] : [NaN, NaN];
  }
  const n = toNumber(value);
  return [n, n];
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
