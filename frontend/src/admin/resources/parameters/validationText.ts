import { unitDisplay } from '@cds/contracts';
import { formatNumber } from '../../../components/findings/clinicalFormat';
import { formatValue } from '../../../components/format';
import { recordReading } from './labels';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? formatNumber(v) : null);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function limits(rules: Record<string, unknown>, unit: string): string | null {
  const lo = num(rules.min);
  const hi = num(rules.max);
  const u = unit ? ` ${unit}` : '';
  if (lo !== null && hi !== null) return `values ${lo} to ${hi}${u}`;
  if (lo !== null) return `values from ${lo}${u}`;
  if (hi !== null) return `values up to ${hi}${u}`;
  return null;
}

function labelsOf(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .map((x) => (isObject(x) ? (x.label ?? x.name ?? x.value) : x))
    .filter((x) => x !== undefined && x !== null)
    .map(String);
}

const KNOWN = new Set(['min', 'max', 'decimals', 'units_accepted', 'source', 'ranges', 'options', 'criterion']);

/**
 * A parameter's validation rules as a sentence an admin reads in the change history ("Accepts values
 * 20 to 1000 mg/dL, 0 decimal places; also typed in mmol/L. Source: ADA 2025."), never raw JSON.
 * `units` is the parameter's UCUM code, shown in its usual form.
 */
export function validationRulesText(rules: unknown, units?: string | null): string {
  if (!isObject(rules) || !Object.keys(rules).length) return 'none';
  const unit = unitDisplay(units);
  const accepts: string[] = [];
  const range = limits(rules, unit);
  if (range) accepts.push(range);
  if (typeof rules.decimals === 'number') accepts.push(plural(rules.decimals, 'decimal place'));
  const parts: string[] = [];
  if (accepts.length) parts.push(`Accepts ${accepts.join(', ')}`);
  if (Array.isArray(rules.units_accepted) && rules.units_accepted.length) {
    const codes = rules.units_accepted.map((u) => (isObject(u) && typeof u.code === 'string' ? unitDisplay(u.code) : null)).filter(Boolean);
    if (codes.length) parts.push(`also typed in ${codes.join(', ')}`);
  }
  const bands = labelsOf(rules.ranges);
  if (bands.length) parts.push(`bands: ${bands.join('; ')}`);
  const options = labelsOf(rules.options);
  if (options.length) parts.push(`options: ${options.join(', ')}`);
  const reading = recordReading({ validation_rules: rules });
  if (reading) parts.push(`read from the record: ${reading}`);
  for (const [key, value] of Object.entries(rules)) {
    if (!KNOWN.has(key)) parts.push(`${key.replace(/_/g, ' ')}: ${formatValue(value)}`);
  }
  const sentence = parts.length ? `${parts.join('; ')}.` : '';
  const source = typeof rules.source === 'string' && rules.source.trim() ? `Source: ${rules.source.trim()}.` : '';
  const text = [sentence, source].filter(Boolean).join(' ');
  return text ? text[0].toUpperCase() + text.slice(1) : 'none';
}
