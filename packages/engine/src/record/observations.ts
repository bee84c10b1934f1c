import type { RangeAnswer } from '../types';
import { LOINC_SYSTEM } from './codes';
import { toParameterUnit, type UnitConversion } from './conversion';
import { unitDisplay } from '../units';
import { canonicalUnit } from './units';

/**
 * Observations as an EHR sends them (plain FHIR R4 JSON), read into dated results. Pure: the caller
 * has already checked the resources are this patient's; nothing here throws on bad data, it says
 * what it could not read.
 */

export type Comparator = '<' | '<=' | '>=' | '>';
const COMPARATORS: readonly string[] = ['<', '<=', '>=', '>'];

/** Only these statuses stand; `preliminary`, `registered`, `cancelled`, `entered-in-error` and `unknown` never count. */
export const USABLE_STATUSES: readonly string[] = ['final', 'amended', 'corrected'];

const UCUM_SYSTEM = 'http://unitsofmeasure.org';
/** Clocks drift: a result dated up to five minutes ahead of ours is still "now", not future-dated. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** One result of one code in the record, as given. */
export interface RecordResult {
  id: string | null;
  /** The code it was read under (the Observation's, or its component's in a panel). */
  code: string;
  /** Effective time, ms since the epoch. */
  at: number;
  /** The number as given (null when there is none). */
  value: number | null;
  comparator: Comparator | null;
  /** The unit as given (UCUM code, else the unit text). */
  unit: string | null;
  /** Why the quantity cannot be read at all, whatever the parameter: no number, a unit outside UCUM, an unknown comparator. */
  unreadable: string | null;
}

/** What the record holds for some codes: usable results up to now, newest first, and usable ones dated in the future. */
export interface RecordHistory {
  results: RecordResult[];
  /** Never "latest": a result dated after now is an error of the record or an order, and is reported, not used. */
  future: RecordResult[];
  /** Usable results without any date: their age cannot be judged, so they are reported, not used. */
  undated: RecordResult[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function codesOf(concept: unknown): string[] {
  if (!isObject(concept) || !Array.isArray(concept.coding)) return [];
  return concept.coding
    .filter((c): c is Json => isObject(c) && c.system === LOINC_SYSTEM && typeof c.code === 'string')
    .map((c) => c.code as string);
}

/** When it was observed: effective[x] (a period's end, else start), else when it was issued. NaN when none is readable. */
export function effectiveTime(o: Json): number {
  const period = isObject(o.effectivePeriod) ? o.effectivePeriod : {};
  const raw = o.effectiveDateTime ?? o.effectiveInstant ?? period.end ?? period.start ?? o.issued;
  return typeof raw === 'string' ? Date.parse(raw) : NaN;
}

/** The element carrying one of `codes`: the Observation itself, else a component (a blood-pressure panel). */
function elementFor(o: Json, codes: readonly string[]): { element: Json; code: string } | null {
  const own = codesOf(o.code).find((c) => codes.includes(c));
  if (own) return { element: o, code: own };
  for (const component of Array.isArray(o.component) ? o.component : []) {
    const code = isObject(component) ? codesOf(component.code).find((c) => codes.includes(c)) : undefined;
    if (code) return { element: component as Json, code };
  }
  return null;
}

export function quantityOf(element: Json): Pick<RecordResult, 'value' | 'comparator' | 'unit' | 'unreadable'> {
  const q = element.valueQuantity;
  if (!isObject(q)) return { value: null, comparator: null, unit: null, unreadable: 'no numeric value' };
  const unit = typeof q.code === 'string' && q.code !== '' ? q.code : typeof q.unit === 'string' && q.unit !== '' ? q.unit : null;
  const comparator = q.comparator === undefined || q.comparator === null ? null : q.comparator;
  const value = typeof q.value === 'number' && Number.isFinite(q.value) ? q.value : null;
  const out = { value, comparator: null as Comparator | null, unit, unreadable: null as string | null };
  if (value === null) return { ...out, unreadable: 'no numeric value' };
  if (comparator !== null) {
    if (typeof comparator !== 'string' || !COMPARATORS.includes(comparator))
      return { ...out, unreadable: `an unknown comparator ${String(comparator).slice(0, 10)}` };
    out.comparator = comparator as Comparator;
  }
  if (q.system !== undefined && q.system !== UCUM_SYSTEM)
    return { ...out, unreadable: `a unit outside UCUM (${String(q.system).slice(0, 100)})` };
  return out;
}

/** Every usable result of `codes` in `resources` (Observations of one patient), split by date. */
export function readHistory(resources: readonly unknown[], codes: readonly string[], now: number): RecordHistory {
  const out: RecordHistory = { results: [], future: [], undated: [] };
  for (const o of resources) {
    if (!isObject(o) || o.resourceType !== 'Observation') continue;
    if (typeof o.status !== 'string' || !USABLE_STATUSES.includes(o.status)) continue;
    const found = elementFor(o, codes);
    if (!found) continue;
    const at = effectiveTime(o);
    const result: RecordResult = { id: typeof o.id === 'string' ? o.id : null, code: found.code, at, ...quantityOf(found.element) };
    if (Number.isNaN(at)) out.undated.push(result);
    else if (at > now + CLOCK_SKEW_MS) out.future.push(result);
    else out.results.push(result);
  }
  // Newest first; equal times keep the order given.
  out.results.sort((a, b) => b.at - a.at);
  out.future.sort((a, b) => a.at - b.at);
  return out;
}

/** What a parameter accepts: its own unit, plausible limits in it, and the units it converts from. */
export interface ParameterScale {
  unit: string | null;
  min: number | null;
  max: number | null;
  conversions: readonly UnitConversion[];
}

/** A result read in the parameter's unit: a number, or an interval when the result carried a comparator. */
export interface ScaledValue {
  value: number | RangeAnswer;
  /** The number as given (the comparator's bound for an interval). */
  given: number;
  /** The UCUM code it was given in (aliases applied). */
  unit: string | null;
  converted: boolean;
}

export interface Unreadable {
  problem: string;
}

export const isUnreadable = (v: ScaledValue | Unreadable): v is Unreadable => 'problem' in v;

/** `< 15` is every value below 15: an interval, decided three-valued like a band the clinician chose. */
export function comparatorInterval(comparator: Comparator, bound: number): RangeAnswer {
  return comparator === '<' || comparator === '<='
    ? { type: 'range', min: null, max: bound, min_inclusive: true, max_inclusive: comparator === '<=' }
    : { type: 'range', min: bound, max: null, min_inclusive: comparator === '>=', max_inclusive: true };
}

/**
 * The result in the parameter's unit, through the unit aliases and the parameter's conversions
 * (guideline equivalents included), checked against its plausible limits. A value that cannot be
 * read this way is never guessed at: the caller sets it aside.
 */
export function inParameterUnit(r: RecordResult, scale: ParameterScale): ScaledValue | Unreadable {
  if (r.unreadable !== null || r.value === null) return { problem: r.unreadable ?? 'no numeric value' };
  const known = [...(scale.unit !== null ? [scale.unit] : []), ...scale.conversions.map((c) => c.code)];
  const unit = r.unit === null ? null : canonicalUnit(r.unit, known);
  let n = r.value;
  let converted = false;
  if (unit !== scale.unit && !(unit === null && scale.unit === null)) {
    const conversion = unit === null ? undefined : scale.conversions.find((c) => c.code === unit);
    if (!conversion)
      return { problem: unit === null ? 'no unit' : `a unit that cannot be converted to ${unitDisplay(scale.unit) || 'the parameter'}` };
    n = toParameterUnit(n, conversion);
    converted = true;
  }
  if ((scale.min !== null && n < scale.min) || (scale.max !== null && n > scale.max))
    return {
      problem: `outside the plausible range ${scale.min ?? '−∞'} to ${scale.max ?? '∞'}${scale.unit ? ` ${unitDisplay(scale.unit)}` : ''}`,
    };
  return { value: r.comparator ? comparatorInterval(r.comparator, n) : n, given: r.value, unit, converted };
}
