// What the generated code runs with: its registers, its instantiation, and the fast day parser it calls (dy).

/**
 * The calendar day of 'YYYY-MM-DD' (years 100 to 9999), as toDay() reads it; NaN for anything
 * else, which then goes to toDay() itself. Days from the civil date (proleptic Gregorian, as Date).
 */
export function isoDay(s: string): number {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return NaN;
  let year = 0;
  for (let i = 0; i < 4; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return NaN;
    year = year * 10 + c;
  }
  const m1 = s.charCodeAt(5) - 48;
  const m2 = s.charCodeAt(6) - 48;
  const d1 = s.charCodeAt(8) - 48;
  const d2 = s.charCodeAt(9) - 48;
  if (m1 < 0 || m1 > 9 || m2 < 0 || m2 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return NaN;
  const month = m1 * 10 + m2;
  const day = d1 * 10 + d2;
  if (year < 100 || month < 1 || month > 12 || day < 1) return NaN;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const length = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  if (day > length) return NaN;
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export interface Registers {
  L: Float64Array;
  H: Float64Array;
  B: Uint8Array;
  D: Float64Array;
  S: (string | null)[];
  W: (string | null)[];
  P: Uint8Array;
}

export function registers(size: number): Registers {
  return {
    L: new Float64Array(size),
    H: new Float64Array(size),
    B: new Uint8Array(size),
    D: new Float64Array(size),
    S: new Array<string | null>(size).fill(null),
    W: new Array<string | null>(size).fill(null),
    P: new Uint8Array(size),
  };
}

const PARAMETER_NAMES = ['L', 'H', 'B', 'D', 'S', 'W', 'P', 'K', 'M', 'gn', 'tn', 'ts', 'sl', 'to', 'tr', 'nu', 'nd', 'dy'];

export function instantiate<T>(source: string, environment: unknown[]): T {
  // The source is built only from fixed templates, indexes and validated numbers (see lit()).
  const factory = new Function(...PARAMETER_NAMES, source) as (...a: unknown[]) => T;
  return factory(...environment);
}
