/** The years a clinical timestamp may fall in; anything outside is a typo or an attack, never a visit. */
export const PLAUSIBLE_YEARS = { min: 1900, max: 2200 } as const;

// RFC 3339 §5.6 date-time: full date, `T` (or `t`, or a space as §5.6 allows), time, fraction, and a required offset.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 date-time with its offset (`2026-11-02T10:15:00Z`, `2026-11-02T11:15:00.5+01:00`) as a Date,
 * or null: no offset, an impossible calendar day or time, a year outside PLAUSIBLE_YEARS, or anything
 * `Date.parse` alone would have let through (`"1"`, `+275760-09-13T00:00:00Z`).
 */
export function parseInstant(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const m = RFC3339.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (year < PLAUSIBLE_YEARS.min || year > PLAUSIBLE_YEARS.max) return null;
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  // A leap second (:60) is valid RFC 3339 but not representable; it is refused rather than shifted.
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return null;
  const ms = Date.parse(value.replace(/[t ]/, 'T').replace(/z$/, 'Z'));
  return Number.isNaN(ms) ? null : new Date(ms);
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
