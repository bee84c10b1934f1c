/**
 * How answers, conditions and findings read to a clinician: display names, UCUM units in their
 * usual form, operator symbols, and the answer exactly as it was entered (never a stand-in).
 */
import { NOT_AVAILABLE, NOT_AVAILABLE_LABEL, unitDisplay } from '@cds/contracts';
import type { AnswerDetailJson, BasisJson, EnteredAs, FindingJson, RangeValue, SeverityLevel } from '@cds/contracts';
import { formatDate, operatorSymbol } from '../format';
import { severityLevel } from '../SeverityBadge';

export function isRange(v: unknown): v is RangeValue {
  return typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'range';
}

/** A number as a person writes it: no binary-float tail (6.050000000000001 → 6.05). */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return String(Number(n.toPrecision(12)));
}

/** A no-break space keeps a figure on the line of its unit: "7.46 %" must never read "7.46" then "%". */
const NBSP = '\u00a0';

function withUnit(text: string, unit: string | null | undefined): string {
  const u = unitDisplay(unit);
  if (!u) return text;
  return `${text}${NBSP}${u}`;
}

/** A band: "5.7 to < 6.5 %", "≥ 6.5 %", "< 5.7 %". */
export function formatRange(r: RangeValue, unit?: string | null): string {
  const lo = r.min == null ? null : formatNumber(r.min);
  const hi = r.max == null ? null : formatNumber(r.max);
  let text: string;
  if (lo != null && lo === hi && r.min_inclusive && r.max_inclusive) text = `= ${lo}`;
  else if (lo != null && hi != null) {
    const left = r.min_inclusive ? lo : `> ${lo}`;
    text = `${left} to ${r.max_inclusive ? '≤' : '<'} ${hi}`;
  } else if (lo != null) text = `${r.min_inclusive ? '≥' : '>'} ${lo}`;
  else if (hi != null) text = `${r.max_inclusive ? '≤' : '<'} ${hi}`;
  else text = 'any value';
  return withUnit(text, unit);
}

/** Any answer value with its unit: 6.5 %, a band, Yes/No, Not available, an option. */
export function formatAnswerValue(value: unknown, unit?: string | null): string {
  if (value === NOT_AVAILABLE) return NOT_AVAILABLE_LABEL;
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return withUnit(formatNumber(value), unit);
  if (isRange(value)) return formatRange(value, unit);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export const ENTERED_AS_TEXT: Record<EnteredAs, string> = {
  typed: 'typed value',
  band: 'band chosen',
  option: 'option chosen',
  not_available: 'not available',
};

/** How a value was given when the server did not say: a band is a range, 'unknown' is not available. */
export function enteredAsOf(value: unknown): EnteredAs {
  if (value === NOT_AVAILABLE) return 'not_available';
  if (isRange(value)) return 'band';
  if (typeof value === 'number') return 'typed';
  return 'option';
}

/** Places a converted value is shown at when the answer did not say the parameter's precision (older rows). */
const CONVERTED_PLACES_UNKNOWN = 3;

/**
 * A converted figure at one place finer than the parameter is recorded at (trailing zeros trimmed):
 * short enough to read, and never beyond a cut-point it does not reach (cut-points sit at the
 * recorded precision). Nor on one: 6.4973 % would read 6.50 → "6.5", as if it met "≥ 6.5", so a
 * figure that rounds onto the recorded grid without being on it gets more places (6.497).
 */
function roundConverted(n: number, decimals: number | null | undefined): number {
  const known = typeof decimals === 'number' && decimals >= 0;
  const exact = Number(n.toPrecision(12));
  for (let places = known ? Math.min(decimals + 1, 12) : CONVERTED_PLACES_UNKNOWN; places < 12; places++) {
    const rounded = Number(n.toFixed(places));
    const onGrid = rounded === Number(rounded.toFixed(known ? decimals : places - 1));
    if (rounded === exact || !onGrid) return rounded;
  }
  return exact;
}

/** "(= 126 mg/dL)" when the conversion is exact at that precision, "(≈ 7.46 %)" when rounding changed it. */
function convertedText(value: number | RangeValue, unit: string | null, decimals: number | null | undefined): string {
  const near = (n: number | null) => (n == null ? n : roundConverted(n, decimals));
  const shown = typeof value === 'number' ? near(value)! : { ...value, min: near(value.min), max: near(value.max) };
  const exact = typeof value === 'number' ? shown === Number(value.toPrecision(12)) : sameBounds(value, shown as RangeValue);
  const text = typeof shown === 'number' ? formatAnswerValue(shown, unit) : formatRange(shown, unit);
  return `(${exact ? '=' : '≈'}${NBSP}${text})`;
}

function sameBounds(a: RangeValue, b: RangeValue): boolean {
  const same = (x: number | null, y: number | null) => (x == null ? y == null : y === Number(x.toPrecision(12)));
  return same(a.min, b.min) && same(a.max, b.max);
}

/**
 * An answer as entered: a typed value in the unit it was typed in (with the converted value when
 * the unit differs), a band's or option's label, or Not available.
 */
export function answerText(d: AnswerDetailJson): string {
  if (d.entered_as === 'not_available' || d.value === NOT_AVAILABLE) return NOT_AVAILABLE_LABEL;
  if (d.entered_as === 'typed' && typeof d.value === 'number') {
    const typedUnit = d.unit ?? d.units;
    const converted = d.unit != null && d.units != null && d.unit !== d.units;
    if (converted && d.entered_value != null) {
      return `${formatAnswerValue(d.entered_value, typedUnit)} ${convertedText(d.value, d.units, d.decimals)}`;
    }
    return formatAnswerValue(d.value, typedUnit);
  }
  if (d.entered_as === 'band' && isRange(d.value)) {
    const converted = d.unit != null && d.units != null && d.unit !== d.units && isRange(d.entered_value);
    return converted ? `${d.label} ${convertedText(d.value, d.units, d.decimals)}` : d.label || formatRange(d.value, d.units);
  }
  return d.label || formatAnswerValue(d.value, d.units);
}

/**
 * "typed value, observed Nov 20, 2026", or "from the EHR, confirmed, observed …" for a value offered
 * from the record and confirmed unchanged; nothing for Not available, which says it already.
 */
export function answerProvenance(d: Pick<AnswerDetailJson, 'entered_as' | 'observed_at' | 'confirmed_from'>): string {
  if (d.entered_as === 'not_available') return '';
  const how = d.confirmed_from
    ? `from ${d.confirmed_from === 'ehr' ? 'the EHR' : 'the record'}, confirmed`
    : (ENTERED_AS_TEXT[d.entered_as] ?? d.entered_as);
  return d.observed_at ? `${how}, observed ${formatDate(d.observed_at)}` : how;
}

function basisName(b: Pick<BasisJson, 'display_name' | 'parameter_name'>): string {
  return b.display_name || b.parameter_name || 'Parameter';
}

/** The rule's condition in words: "HbA1c ≥ 6.5 %". */
export function conditionText(b: BasisJson): string {
  const t = b.threshold;
  const threshold = typeof t === 'number' ? withUnit(formatNumber(t), b.units) : formatAnswerValue(t, b.units);
  return `${basisName(b)} ${operatorSymbol(b.operator)} ${threshold}`;
}

/**
 * The answer that met a condition, as entered; the stored answer when one is at hand. The latest one
 * counts: a band that straddled a threshold is followed by the exact value asked for.
 */
export function basisAnswer(b: BasisJson, answers?: AnswerDetailJson[]): { text: string; how: string } {
  const stored = b.parameter_id ? [...(answers ?? [])].reverse().find((a) => a.parameter_id === b.parameter_id) : undefined;
  if (stored) return { text: answerText(stored), how: answerProvenance(stored) };
  const how = ENTERED_AS_TEXT[enteredAsOf(b.value)];
  if (b.label) return { text: b.label, how };
  return { text: formatAnswerValue(b.value, b.unit ?? b.units), how };
}

/** What a card shows; the chat's matched rules carry these fields too. */
export type FindingView = Pick<
  FindingJson,
  'rule_id' | 'rule_name' | 'rule_version' | 'rule_set_name' | 'severity' | 'actions' | 'basis' | 'source'
> & {
  description?: string | null;
};

/** A finding's severity: the rule's, else its first action's, else low (the spec's default). */
export function findingSeverity(f: Pick<FindingJson, 'severity' | 'actions'>): SeverityLevel {
  return severityLevel(f.severity || f.actions?.[0]?.severity);
}

/** Every fired rule: the server's `findings`, or the single recommendation of an older response. */
export function findingsOf(r: { findings?: FindingJson[]; recommendation?: FindingJson | null }): FindingJson[] {
  if (r.findings && r.findings.length) return r.findings;
  return r.recommendation ? [r.recommendation] : [];
}
