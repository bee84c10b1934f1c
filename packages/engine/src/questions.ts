import { prepareRule, type PreparedRule } from './evaluate';
import { declaredDecimals } from './analysis-precision';
import { typeClassOf } from './operators';
import { buildParameterIndex, type ParameterIndex } from './parameters';
import type { PreparedRuleSet } from './prepared';
import type { AnswerOption, AnswerValue, EngineParameter, EngineQuestion, EngineRule, NumericInput, RangeAnswer } from './types';
import { UNKNOWN_ANSWER } from './types';
import { unitDisplay } from './units';
import { isRangeAnswer, isUnknownSentinel, readInterval, toNumber } from './values';

export const NOT_AVAILABLE_LABEL = 'Not available';
export const NOT_AVAILABLE_OPTION: Readonly<AnswerOption> = Object.freeze({ label: NOT_AVAILABLE_LABEL, value: UNKNOWN_ANSWER });

/** The fallback wording when the polishing service gives nothing. */
export function defaultQuestionText(parameter: Pick<EngineParameter, 'display_name' | 'name'>): string {
  return `What is your ${(parameter.display_name || parameter.name || '').toLowerCase()}?`;
}

/** A band of the partition: the interval it stands for and the label the clinician sees. */
export interface Band {
  label: string;
  value: Required<RangeAnswer>;
}

/**
 * Which side of a cut-point the point itself falls on:
 * - 'upper': "≥ t" / "< t" put t in the band above;
 * - 'lower': "> t" / "≤ t" put t in the band below;
 * - 'point': "= t" / "≠ t", or a cut-point required on both sides, gets its own band [t, t].
 */
type Side = 'upper' | 'lower' | 'point';

function sideOf(op: string | null): Side | null {
  switch (op) {
    case 'greater_equal':
    case 'less_than':
      return 'upper';
    case 'greater_than':
    case 'less_equal':
      return 'lower';
    case 'equals':
    case 'not_equals':
      return 'point';
    default:
      return null;
  }
}

function indexFor(parameter: EngineParameter, parameters: readonly EngineParameter[]): ParameterIndex {
  return buildParameterIndex(parameters.some((p) => p.id === parameter.id) ? parameters : [parameter, ...parameters]);
}

/** The rules prepared in the order given: taken from `prepared` when it was made from the same arrays. */
function preparedRules(
  parameter: EngineParameter,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  prepared: PreparedRuleSet | undefined,
): readonly PreparedRule[] {
  if (prepared && prepared.rules === rules && prepared.parameters === parameters && prepared.index.byId.get(parameter.id) === parameter) {
    return prepared.inOrder;
  }
  const index = indexFor(parameter, parameters);
  return rules.map((rule) => prepareRule(rule, index));
}

/** Every numeric cut-point the rules use on the parameter, each with the side its operators put it on. */
export function cutPoints(
  parameter: EngineParameter,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[] = [parameter],
  prepared?: PreparedRuleSet,
): { value: number; side: Side }[] {
  const sides = new Map<number, Side>();
  for (const rule of preparedRules(parameter, rules, parameters, prepared)) {
    for (const c of rule.conditions) {
      if (c.parameter?.id !== parameter.id || c.domain !== 'numeric' || c.failure !== null) continue;
      const side = sideOf(c.op);
      if (side === null) continue;
      const t = c.num === 0 ? 0 : c.num; // -0 and 0 are one cut-point
      const before = sides.get(t);
      sides.set(t, before === undefined || before === side ? side : 'point');
    }
  }
  return [...sides.entries()].sort((a, b) => a[0] - b[0]).map(([value, side]) => ({ value, side }));
}

function formatNumber(n: number): string {
  return String(n);
}

function intervalText(band: Required<RangeAnswer>): string {
  const { min, max, min_inclusive, max_inclusive } = band;
  if (min !== null && max !== null && min === max) return `= ${formatNumber(min)}`;
  if (min === null && max === null) return 'any value';
  if (min === null) return `${max_inclusive ? '≤' : '<'} ${formatNumber(max as number)}`;
  if (max === null) return `${min_inclusive ? '≥' : '>'} ${formatNumber(min)}`;
  return `${min_inclusive ? '' : '> '}${formatNumber(min)} to ${max_inclusive ? '≤' : '<'} ${formatNumber(max)}`;
}

function bandLabel(name: string, unit: string, band: Required<RangeAnswer>): string {
  return `${name} ${intervalText(band)}${unit ? ` ${unit}` : ''}`;
}

/**
 * An answer as the clinician gave it, in words, with the parameter's unit: "6.5 %",
 * "5.7 to < 6.5 %", "≥ 6.5 %", "Not available", "Yes". Never a stand-in value.
 */
export function answerText(parameter: Pick<EngineParameter, 'units' | 'data_type'>, value: unknown): string {
  if (isUnknownSentinel(value)) return NOT_AVAILABLE_LABEL;
  const unit = unitDisplay(parameter.units ?? null);
  const withUnit = (text: string): string => (unit ? `${text} ${unit}` : text);
  if (isRangeAnswer(value)) {
    if (readInterval(value) === null) return 'unreadable range';
    const { min, max } = value;
    const text = intervalText({
      type: 'range',
      min: min === null ? null : toNumber(min),
      max: max === null ? null : toNumber(max),
      min_inclusive: value.min_inclusive !== false,
      max_inclusive: value.max_inclusive !== false,
    });
    return withUnit(text.startsWith('= ') ? text.slice(2) : text);
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number' && typeClassOf(parameter.data_type) === 'numeric') return withUnit(formatNumber(value));
  return String(value);
}

/**
 * The bands a numeric question offers: contiguous, covering the whole line, with every cut-point
 * any given rule uses on the parameter and each boundary on the side its operator puts it
 * (product-spec §4's ±1 and midpoint stand-ins are replaced; issue 9). No cut-points: no bands.
 */
export function partitionBands(
  parameter: EngineParameter,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[] = [parameter],
  prepared?: PreparedRuleSet,
): Band[] {
  if (typeClassOf(parameter.data_type) !== 'numeric') return [];
  const points = cutPoints(parameter, rules, parameters, prepared);
  if (points.length === 0) return [];
  const name = parameter.display_name || parameter.name;
  const unit = unitDisplay(parameter.units ?? null);
  const bands: Required<RangeAnswer>[] = [];
  // The band being built starts at `min` (null = -∞), including it when `minInclusive`.
  let min: number | null = null;
  let minInclusive = false;
  for (const { value: t, side } of points) {
    const includeT = side === 'lower';
    bands.push({ type: 'range', min, max: t, min_inclusive: minInclusive, max_inclusive: includeT });
    if (side === 'point') bands.push({ type: 'range', min: t, max: t, min_inclusive: true, max_inclusive: true });
    min = t;
    minInclusive = side === 'upper';
  }
  bands.push({ type: 'range', min, max: null, min_inclusive: minInclusive, max_inclusive: false });
  const whole = wholeValueOf(parameter);
  return bands.map((value) => {
    const only = whole(value);
    return { label: only === null ? bandLabel(name, unit, value) : `${name} = ${formatNumber(only)}${unit ? ` ${unit}` : ''}`, value };
  });
}

/**
 * For a parameter recorded in whole numbers (decimals 0), the one value a band can hold, if it holds
 * only one: a count's "1 to < 2" reads "= 1", and "< 1" from a minimum of 0 reads "= 0".
 */
function wholeValueOf(parameter: EngineParameter): (band: Required<RangeAnswer>) => number | null {
  if (declaredDecimals(parameter) !== 0) return () => null;
  const rawMin = (parameter.validation_rules as { min?: unknown } | null | undefined)?.min;
  const lowest = typeof rawMin === 'number' && Number.isFinite(rawMin) ? Math.ceil(rawMin) : null;
  return (band) => {
    const first = band.min === null ? lowest : band.min_inclusive ? Math.ceil(band.min) : Math.floor(band.min) + 1;
    const last = band.max === null ? null : band.max_inclusive ? Math.floor(band.max) : Math.ceil(band.max) - 1;
    return first !== null && last !== null && first === last ? first : null;
  };
}

function isOptionValue(value: unknown): value is Exclude<AnswerValue, null> {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function configuredOptions(parameter: EngineParameter): AnswerOption[] {
  const list = parameter.validation_rules?.options;
  if (!Array.isArray(list)) return [];
  const options: AnswerOption[] = [];
  for (const entry of list) {
    const isObject = typeof entry === 'object' && entry !== null;
    const value: unknown = isObject ? (entry as { value?: unknown }).value : entry;
    if (!isOptionValue(value) || value === UNKNOWN_ANSWER) continue;
    const label = isObject ? (entry as { label?: unknown }).label : undefined;
    options.push({
      label: typeof label === 'string' && label.trim() !== '' ? label : `${parameter.display_name || parameter.name} = ${String(value)}`,
      value,
    });
  }
  return options;
}

/** Values the rules compare the parameter with by equality (text, dates, unknown types). */
function mentionedValues(
  parameter: EngineParameter,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  prepared: PreparedRuleSet | undefined,
): AnswerOption[] {
  const seen = new Set<string>();
  const options: AnswerOption[] = [];
  for (const rule of preparedRules(parameter, rules, parameters, prepared)) {
    for (const c of rule.conditions) {
      if (c.parameter?.id !== parameter.id || c.failure !== null || (c.op !== 'equals' && c.op !== 'not_equals')) continue;
      if (!isOptionValue(c.threshold) || c.threshold === UNKNOWN_ANSWER) continue;
      const key = `${typeof c.threshold}\u0000${String(c.threshold)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      options.push({ label: `${parameter.display_name || parameter.name} = ${String(c.threshold)}`, value: c.threshold });
    }
  }
  return options;
}

/**
 * The options of a question, in both strategies, always ending with Not available:
 * numeric: the partition bands; boolean: Yes / No; otherwise the configured
 * validation_rules.options, or the values the rules compare with.
 */
export function questionOptions(
  parameter: EngineParameter,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[] = [parameter],
  prepared?: PreparedRuleSet,
): AnswerOption[] {
  let options: AnswerOption[];
  switch (typeClassOf(parameter.data_type)) {
    case 'numeric':
      options = partitionBands(parameter, rules, parameters, prepared);
      break;
    case 'boolean':
      options = [
        { label: 'Yes', value: true },
        { label: 'No', value: false },
      ];
      break;
    default: {
      const configured = configuredOptions(parameter);
      options = configured.length > 0 ? configured : mentionedValues(parameter, rules, parameters, prepared);
    }
  }
  return [...options, { ...NOT_AVAILABLE_OPTION }];
}

function finiteOrNull(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? toNumber(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** Typed entry of a numeric parameter, read from its unit and validation_rules. */
export function numericInput(parameter: EngineParameter): NumericInput {
  const rules = parameter.validation_rules ?? {};
  const unit = typeof parameter.units === 'string' && parameter.units.trim() !== '' ? parameter.units : null;
  const accepted: { code: string; display: string }[] = unit ? [{ code: unit, display: unitDisplay(unit) }] : [];
  const listed = (rules as { units_accepted?: unknown }).units_accepted;
  if (Array.isArray(listed)) {
    for (const entry of listed) {
      const code = typeof entry === 'object' && entry !== null ? (entry as { code?: unknown }).code : undefined;
      if (typeof code === 'string' && code.trim() !== '' && !accepted.some((a) => a.code === code)) {
        accepted.push({ code, display: unitDisplay(code) });
      }
    }
  }
  const decimals = finiteOrNull((rules as { decimals?: unknown }).decimals);
  return {
    kind: 'number',
    unit,
    unit_display: unit ? unitDisplay(unit) : null,
    units_accepted: accepted,
    min: finiteOrNull((rules as { min?: unknown }).min),
    max: finiteOrNull((rules as { max?: unknown }).max),
    decimals: decimals !== null && Number.isInteger(decimals) && decimals >= 0 ? decimals : null,
  };
}

/** The question for a parameter, as both strategies ask it. */
export function questionFor(
  parameter: EngineParameter,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[] = [parameter],
  prepared?: PreparedRuleSet,
): EngineQuestion {
  const numeric = typeClassOf(parameter.data_type) === 'numeric';
  return {
    parameter_id: parameter.id,
    name: parameter.name,
    parameter_name: parameter.name,
    display_name: parameter.display_name,
    text: defaultQuestionText(parameter),
    units: typeof parameter.units === 'string' && parameter.units !== '' ? parameter.units : null,
    data_type: parameter.data_type,
    ...(numeric ? { input: numericInput(parameter) } : {}),
    options: questionOptions(parameter, rules, parameters, prepared),
  };
}
