/**
 * One conversion from a unit a value may be given in to the parameter's own unit, used wherever a
 * value crosses units (CDS Hooks, typed answers, prefill, impact preview).
 *
 * `value × factor + offset` alone puts published cut-points on the wrong side: 2-h OGTT 11.1 mmol/L
 * × 18 is 199.8 mg/dL, below the 200 mg/dL diagnostic cut-point the guideline publishes as the same
 * value. `equivalents` lists (value in this unit, value in the parameter's unit) pairs the guideline
 * publishes as one cut-point; the conversion then runs straight through those pairs, and outside
 * them along the factor's slope from the nearest pair. So it is continuous and strictly increasing,
 * each published cut-point maps exactly onto its counterpart, and a value is on the same side of a
 * cut-point in either unit.
 */
export interface UnitConversion {
  code: string;
  factor: number;
  offset?: number;
  equivalents?: readonly (readonly [number, number])[];
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Why a stored conversion cannot be used (null when it can): the parameters DTO refuses it with this message. */
export function conversionProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be { code, factor, offset?, equivalents? }';
  const c = value as Record<string, unknown>;
  if (typeof c.code !== 'string' || c.code.trim() === '') return 'code must be a UCUM unit code';
  if (!finite(c.factor) || c.factor === 0) return 'factor must be a finite number other than 0';
  if (c.offset !== undefined && !finite(c.offset)) return 'offset must be a finite number';
  if (c.equivalents === undefined) return null;
  if (!Array.isArray(c.equivalents) || c.equivalents.length === 0)
    return 'equivalents must be a non-empty list of [value in this unit, value in the parameter unit] pairs';
  if (c.factor < 0) return 'factor must be positive when equivalents are given (the conversion must keep the order of values)';
  let previous: readonly number[] | null = null;
  for (const pair of c.equivalents as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2 || !finite(pair[0]) || !finite(pair[1]))
      return 'each equivalent must be a pair of finite numbers [value in this unit, value in the parameter unit]';
    if (previous && !(pair[0] > previous[0] && pair[1] > previous[1]))
      return 'equivalents must be increasing in both columns (one cut-point per pair, in order)';
    previous = pair as number[];
  }
  return null;
}

/** A conversion as stored, or null when it cannot be used (stored rules may hold anything). */
export function readConversion(value: unknown): UnitConversion | null {
  return conversionProblem(value) === null ? (value as UnitConversion) : null;
}

/** The value in the parameter's unit, to 12 significant digits (7 mmol/L × 18 is 126, not 125.99999999999999). */
export function toParameterUnit(n: number, c: UnitConversion): number {
  return Number(rawConvert(n, c).toPrecision(12));
}

function rawConvert(n: number, c: UnitConversion): number {
  const pairs = c.equivalents;
  if (!pairs || pairs.length === 0) return n * c.factor + (c.offset ?? 0);
  const first = pairs[0];
  const last = pairs[pairs.length - 1];
  if (n <= first[0]) return first[1] + (n - first[0]) * c.factor;
  if (n >= last[0]) return last[1] + (n - last[0]) * c.factor;
  for (let i = 1; i < pairs.length; i++) {
    const [x1, y1] = pairs[i];
    if (n === x1) return y1;
    if (n < x1) {
      const [x0, y0] = pairs[i - 1];
      return y0 + ((n - x0) * (y1 - y0)) / (x1 - x0);
    }
  }
  return last[1];
}
