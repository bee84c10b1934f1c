import type { EngineParameter } from './types';

/**
 * The precision a numeric parameter is recorded at. Values are compared on that grid: at one
 * decimal "<= 5.6" and ">= 5.7" meet, at two decimals 5.61 to 5.69 fall between them.
 */

/** Most decimals we reason about; beyond this a grid step is smaller than float noise matters. */
export const MAX_DECIMALS = 6;

/** Decimal places written in a number (5.65 → 2, 130 → 0, 1e-7 → capped). */
export function decimalPlaces(x: number): number {
  if (!Number.isFinite(x)) return 0;
  for (let d = 0; d <= MAX_DECIMALS; d++) {
    const scaled = x * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, Math.abs(scaled))) return d;
  }
  return MAX_DECIMALS;
}

/** The parameter's declared `validation_rules.decimals` (0 to 6), or null when it declares none. */
export function declaredDecimals(parameter: EngineParameter | null | undefined): number | null {
  const raw = (parameter?.validation_rules as { decimals?: unknown } | null | undefined)?.decimals;
  return typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 && raw <= MAX_DECIMALS ? raw : null;
}

/**
 * Declared decimals, or else the finest precision the thresholds themselves are written at
 * (a parameter whose rules say 5.7 is read to one decimal; one whose rules say 130, to whole units).
 */
export function decimalsFor(parameter: EngineParameter | null | undefined, thresholds: readonly number[]): number {
  return declaredDecimals(parameter) ?? Math.max(0, ...thresholds.map(decimalPlaces));
}

/** A grid of values recorded at `decimals` places, in integer units to keep float noise out. */
export class Grid {
  readonly scale: number;
  constructor(readonly decimals: number) {
    this.scale = 10 ** decimals;
  }
  get step(): number {
    return 1 / this.scale;
  }
  private scaled(x: number): number {
    const s = x * this.scale;
    const r = Math.round(s);
    return Math.abs(s - r) < 1e-9 * Math.max(1, Math.abs(s)) ? r : s;
  }
  /** Grid units of the smallest recordable value >= x (or > x when strict). */
  ceil(x: number, strict = false): number {
    const s = this.scaled(x);
    const c = Math.ceil(s);
    return strict && c === s ? c + 1 : c;
  }
  /** Grid units of the largest recordable value <= x (or < x when strict). */
  floor(x: number, strict = false): number {
    const s = this.scaled(x);
    const f = Math.floor(s);
    return strict && f === s ? f - 1 : f;
  }
  onGrid(x: number): boolean {
    return Number.isInteger(this.scaled(x));
  }
  /** A value in grid units, as the number a clinician would type (no 5.700000000000001). */
  value(units: number): number {
    return Number((units / this.scale).toFixed(this.decimals));
  }
}
