import {
  NOT_AVAILABLE,
  NOT_AVAILABLE_LABEL,
  unitDisplay,
  type AnswerInput,
  type AnswerOptionJson,
  type EnteredAs,
  type NumericInputJson,
  type RangeValue,
  type UnitConversionJson,
} from '@cds/contracts';
import { canonicalUnit, readConversion, readInterval, toDay, toParameterUnit, typeClassOf, type EngineParameter } from '@cds/engine';
import { sameJson } from '../../common/api-helpers';

/**
 * The pure part of answering a question: is the value one the question can take, in which unit,
 * inside which limits; what it is in the parameter's unit; and the words the clinician saw.
 * The service turns a refusal into an error; nothing here touches the database.
 */

export const MAX_TEXT_ANSWER = 1000;

/** Why an answer is refused: `validation_failed` (400) for a malformed value, the others 422. */
export interface AnswerRefusal {
  code: 'validation_failed' | 'out_of_range' | 'unit_not_accepted';
  field: 'value' | 'unit';
  message: string;
}

/** An accepted answer: the value in the parameter's unit, and how it was given. */
export interface CheckedAnswer {
  value: AnswerInput;
  unit: string | null;
  /** The number (or band) as typed, when it was converted from another unit. */
  entered_value?: number | RangeValue | null;
  entered_as: EnteredAs;
  label: string;
}

/** A unit conversion entry may say how many decimals a value typed in that unit may carry. */
type Conversion = UnitConversionJson & { decimals?: number };

interface Limits {
  min: number | null;
  max: number | null;
  decimals: number | null;
  units: Conversion[];
}

/** Options as offered, by the engine or as stored with the question. */
export type Offered = readonly { label: string; value: unknown }[];

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The numeric `validation_rules` keys, read defensively: stored rules may hold anything. */
export function numericLimits(parameter: EngineParameter): Limits {
  const rules = parameter.validation_rules ?? {};
  const decimals = rules.decimals;
  const accepted = Array.isArray(rules.units_accepted) ? rules.units_accepted : [];
  return {
    min: finite(rules.min) ? rules.min : null,
    max: finite(rules.max) ? rules.max : null,
    decimals: Number.isInteger(decimals) && (decimals as number) >= 0 ? (decimals as number) : null,
    units: accepted.filter((u): u is Conversion => readConversion(u) !== null),
  };
}

export const isNumericParameter = (parameter: EngineParameter) => typeClassOf(parameter.data_type) === 'numeric';

/** The typed-entry description of a numeric question (null for other types). */
export function numericInput(parameter: EngineParameter): NumericInputJson | null {
  if (!isNumericParameter(parameter)) return null;
  const l = numericLimits(parameter);
  const own = parameter.units ?? null;
  const codes = [...(own ? [own] : []), ...l.units.map((u) => u.code).filter((c) => c !== own)];
  return {
    kind: 'number',
    unit: own,
    unit_display: own ? unitDisplay(own) : null,
    units_accepted: codes.map((code) => ({ code, display: unitDisplay(code) })),
    min: l.min,
    max: l.max,
    decimals: l.decimals,
  };
}

/** Decimal places of a number as written in JSON (1e-7 has 7). */
export function decimalPlaces(n: number): number {
  if (Number.isInteger(n)) return 0;
  const [mantissa, exponent] = String(n).toLowerCase().split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent ?? 0));
}

/** One conversion everywhere (hooks, typed answers, impact preview): guideline equivalents included, no float noise. */
const convert = (n: number, c: Conversion): number => toParameterUnit(n, c);

/** A number as people read it: no float noise, no trailing zeros. */
export function formatNumber(n: number): string {
  return String(Number(n.toPrecision(12)));
}

const shown = (n: number, decimals: number | null) => (decimals === null ? n : Number(n.toFixed(Math.min(decimals + 2, 12))));

const withUnit = (n: number, unit: string | null) => (unit ? `${formatNumber(n)} ${unitDisplay(unit)}` : formatNumber(n));

/** "5.7 to < 6.5 %", "≥ 6.5 %", "< 5.7 %": what a band covers, in the unit's display form. */
export function rangeText(r: RangeValue, unit: string | null): string {
  const u = unit ? ` ${unitDisplay(unit)}` : '';
  if (r.min === null && r.max === null) return `any value${u}`;
  if (r.min === null) return `${r.max_inclusive ? '≤' : '<'} ${formatNumber(r.max!)}${u}`;
  if (r.max === null) return `${r.min_inclusive ? '≥' : '>'} ${formatNumber(r.min)}${u}`;
  if (r.min === r.max) return `${formatNumber(r.min)}${u}`;
  return `${r.min_inclusive ? '' : '> '}${formatNumber(r.min)} to ${r.max_inclusive ? '' : '< '}${formatNumber(r.max)}${u}`;
}

function limitText(name: string, l: Limits, unit: string | null): string {
  const u = unit ? ` ${unitDisplay(unit)}` : '';
  if (l.min !== null && l.max !== null) return `${name} must be between ${formatNumber(l.min)} and ${formatNumber(l.max)}${u}`;
  if (l.min !== null) return `${name} must be at least ${formatNumber(l.min)}${u}`;
  return `${name} must be at most ${formatNumber(l.max!)}${u}`;
}

const RANGE_KEYS = ['max', 'max_inclusive', 'min', 'min_inclusive', 'type'];
const OLD_RANGE_KEYS = ['max', 'min', 'type'];

/** A band as sent: `{type:'range', min, max, min_inclusive, max_inclusive}`; the older closed `{type, min, max}` is read as inclusive. */
function readRange(value: unknown): RangeValue | string {
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v).sort().join(',');
  if (keys !== RANGE_KEYS.join(',') && keys !== OLD_RANGE_KEYS.join(','))
    return "a band must be { type: 'range', min, max, min_inclusive, max_inclusive }";
  const bound = (b: unknown) => b === null || finite(b);
  if (!bound(v.min) || !bound(v.max)) return 'the ends of a band must be numbers (or null for an open end)';
  const minInclusive = v.min_inclusive ?? true;
  const maxInclusive = v.max_inclusive ?? true;
  if (typeof minInclusive !== 'boolean' || typeof maxInclusive !== 'boolean')
    return 'min_inclusive and max_inclusive must be true or false';
  const r: RangeValue = {
    type: 'range',
    min: v.min as number | null,
    max: v.max as number | null,
    min_inclusive: minInclusive,
    max_inclusive: maxInclusive,
  };
  if (r.min === null && r.max === null) return 'a band needs at least one end; send "unknown" when the value is not available';
  if (r.min !== null && r.max !== null) {
    if (r.min > r.max) return 'the lower end of a band (min) must not be above its upper end (max)';
    if (r.min === r.max && !(r.min_inclusive && r.max_inclusive)) return 'the band is empty';
  }
  return r;
}

function configuredOptions(parameter: EngineParameter): unknown[] {
  const options = parameter.validation_rules?.options;
  return Array.isArray(options) ? options : [];
}

const isText = (v: unknown) => typeof v === 'string' && v.trim() !== '' && v.length <= MAX_TEXT_ANSWER;

/**
 * Checks an answer against the question asked and the parameter's validation rules.
 * - `'unknown'` (Not available) is always accepted, for every type.
 * - One of the options offered is accepted as offered (its label is what the clinician saw).
 * - A numeric question also takes a typed number or a band, in the parameter's unit or one it lists
 *   (value × factor + offset); the result must lie within validation min/max, and a number typed in
 *   the parameter's unit may carry at most `decimals` places.
 */
export function checkAnswer(
  parameter: EngineParameter,
  offered: Offered,
  value: unknown,
  unit?: string | null,
): CheckedAnswer | AnswerRefusal {
  const name = parameter.display_name || parameter.name;
  const own = parameter.units ?? null;
  const refuse = (message: string, code: AnswerRefusal['code'] = 'validation_failed', field: AnswerRefusal['field'] = 'value') => ({
    code,
    field,
    message,
  });

  const numeric = isNumericParameter(parameter);
  const limits = numericLimits(parameter);
  let conversion: Conversion | null = null;
  // An EHR or a clinician may spell the unit as people do (mmHg, mg/dl): read as its UCUM code.
  if (unit !== undefined && unit !== null) unit = canonicalUnit(unit, [...(own ? [own] : []), ...limits.units.map((u) => u.code)]);
  if (unit !== undefined && unit !== null && unit !== own) {
    conversion = (numeric && limits.units.find((u) => u.code === unit)) || null;
    if (!conversion) {
      const listed = numericInput(parameter)?.units_accepted.map((u) => u.display) ?? [];
      return refuse(
        listed.length
          ? `${name} is not accepted in ${unitDisplay(unit)}; use ${listed.join(' or ')}`
          : `${name} is not accepted in ${unitDisplay(unit)}${own ? `; use ${unitDisplay(own)}` : ''}`,
        'unit_not_accepted',
        'unit',
      );
    }
  }

  if (value === NOT_AVAILABLE) return { value: NOT_AVAILABLE, unit: null, entered_as: 'not_available', label: NOT_AVAILABLE_LABEL };

  const option = conversion ? undefined : offered.find((o) => sameJson(o.value, value));
  if (option) {
    const isBand = typeof option.value === 'object' && option.value !== null;
    return { value: option.value as AnswerInput, unit: own, entered_as: isBand ? 'band' : 'option', label: option.label };
  }

  if (configuredOptions(parameter).length > 0) return refuse(`value must be one of the options offered for ${name}`);

  switch (typeClassOf(parameter.data_type)) {
    case 'numeric': {
      const inOwn = (n: number) => (conversion ? convert(n, conversion) : n);
      const outside = (n: number) => (limits.min !== null && n < limits.min) || (limits.max !== null && n > limits.max);
      if (finite(value)) {
        const places = conversion ? (conversion.decimals ?? null) : limits.decimals;
        if (places !== null && decimalPlaces(value) > places) {
          return refuse(
            `${name} is recorded to ${places} decimal place${places === 1 ? '' : 's'} in ${unitDisplay(unit ?? own) || 'its unit'}; ${formatNumber(value)} has more`,
            'out_of_range',
          );
        }
        const stored = inOwn(value);
        if (outside(stored)) return refuse(limitText(name, limits, own), 'out_of_range');
        return {
          value: stored,
          unit: unit ?? own,
          ...(conversion ? { entered_value: value } : {}),
          entered_as: 'typed',
          // The converted figure is shown to two places beyond the recorded precision: enough to see
          // which side of a cut-point it falls (48 mmol/mol is 6.543 %, not "6.5 %").
          label: conversion ? `${withUnit(value, unit!)} (${withUnit(shown(stored, limits.decimals), own)})` : withUnit(value, own),
        };
      }
      if (typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'range') {
        const r = readRange(value);
        if (typeof r === 'string') return refuse(r);
        const stored: RangeValue = {
          ...r,
          min: r.min === null ? null : inOwn(r.min),
          max: r.max === null ? null : inOwn(r.max),
        };
        if ((stored.min !== null && outside(stored.min)) || (stored.max !== null && outside(stored.max)))
          return refuse(limitText(name, limits, own), 'out_of_range');
        return {
          value: stored,
          unit: unit ?? own,
          ...(conversion ? { entered_value: r } : {}),
          entered_as: 'band',
          label: `${name} ${rangeText(r, unit ?? own)}`,
        };
      }
      return refuse(`value must be a number, a band { type: 'range', min, max, min_inclusive, max_inclusive } or "unknown" for ${name}`);
    }
    case 'boolean':
      return typeof value === 'boolean'
        ? { value, unit: null, entered_as: 'option', label: value ? 'Yes' : 'No' }
        : refuse(`value must be true, false or "unknown" for ${name}`);
    case 'date':
      return typeof value === 'string' && !Number.isNaN(toDay(value))
        ? { value, unit: null, entered_as: 'typed', label: value }
        : refuse(`value must be an ISO date (YYYY-MM-DD) for ${name}`);
    case 'text':
    case 'choice':
      return isText(value)
        ? { value: value as string, unit: null, entered_as: 'typed', label: value as string }
        : refuse(`value must be text of 1 to ${MAX_TEXT_ANSWER} characters for ${name}`);
    default:
      return isText(value) || typeof value === 'boolean' || finite(value)
        ? { value: value as AnswerInput, unit: null, entered_as: 'typed', label: String(value) }
        : refuse(`value must be a number, text or true/false for ${name}`);
  }
}

export const isRefusal = (r: CheckedAnswer | AnswerRefusal): r is AnswerRefusal => 'code' in r;

/** Every question ends with Not available; engine options are kept as they are. */
export function withNotAvailable(options: Offered): AnswerOptionJson[] {
  const list = options as readonly AnswerOptionJson[];
  return list.some((o) => o.value === NOT_AVAILABLE)
    ? list.map((o) => (o.value === NOT_AVAILABLE ? { ...o, label: NOT_AVAILABLE_LABEL } : o))
    : [...list, { label: NOT_AVAILABLE_LABEL, value: NOT_AVAILABLE }];
}

/** LOINC codes of the two blood pressures, which must be read against each other. */
export const SYSTOLIC_LOINC = '8480-6';
export const DIASTOLIC_LOINC = '8462-4';

/**
 * A diastolic pressure at or above the systolic cannot be measured: it is a slip (swapped fields, a
 * digit too many) that would fire a crisis card. The refusal names both values; null when they agree
 * or either is not a number or band (a band is refused only when no value in it could agree).
 */
export function pressureConflict(
  systolic: { name: string; value: unknown; label: string },
  diastolic: { name: string; value: unknown; label: string },
): string | null {
  const s = readInterval(systolic.value);
  const d = readInterval(diastolic.value);
  if (!s || !d || d.lo < s.hi) return null;
  return `${diastolic.name} (${diastolic.label}) must be below ${systolic.name} (${systolic.label}); check both values`;
}
