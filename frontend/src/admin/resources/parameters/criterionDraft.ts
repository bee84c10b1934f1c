import { criterionProblems, type Criterion, type CriterionSpec, type ValueFilterOperator } from '@cds/engine';
import { loincProblem } from '@cds/contracts';
import { ApiError } from '../../../api';

/**
 * The "Read from the record" fields of a parameter (issue 20): what hook calls read today, an
 * Observation by LOINC codes, in the words of the form. Pure, so Create, Edit and the tests share it.
 */
export const LOINC = 'http://loinc.org';

export const EDITABLE_TAKES = ['latest', 'lowest_on_latest_day', 'count', 'distinct_days', 'exists', 'days_persisting'] as const;
export type EditableTake = (typeof EDITABLE_TAKES)[number];

export const TAKE_LABELS: Record<EditableTake, string> = {
  latest: 'Latest value',
  lowest_on_latest_day: 'Lowest value on the latest day',
  count: 'Number of results',
  distinct_days: 'Number of different days',
  exists: 'Any result',
  days_persisting: 'Days a value has persisted',
};

/** Takes that use the value filter; latest and lowest read the value itself and ignore a filter. */
export const FILTERED_TAKES: ReadonlySet<string> = new Set(['count', 'distinct_days', 'exists', 'days_persisting']);

export const OPERATOR_LABELS: Record<ValueFilterOperator, string> = { '>=': '≥', '>': '>', '<=': '≤', '<': '<' };

export interface CriterionDraft {
  on: boolean;
  /** Plain LOINC codes as typed, separated by commas or spaces. */
  codes: string;
  take: EditableTake;
  /** Days back from now; empty is the whole record. */
  days: string;
  operator: ValueFilterOperator | '';
  value: string;
  /** UCUM; empty is the parameter's own unit. */
  unit: string;
  /** The stored criterion the fields came from: what they do not show (statuses, units accepted…) is kept. */
  base: Criterion | null;
  /** A stored criterion these fields cannot show (another resource, a value set, a period…): kept unless turned off. */
  fixed: CriterionSpec | null;
}

export const EMPTY_CRITERION: CriterionDraft = {
  on: false,
  codes: '',
  take: 'latest',
  days: '',
  operator: '',
  value: '',
  unit: '',
  base: null,
  fixed: null,
};

export type CriterionField = 'codes' | 'take' | 'days' | 'filter' | 'unit' | 'other';
export type CriterionErrors = Partial<Record<CriterionField, string>>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether these fields can show a stored criterion without losing what it says. */
function editable(c: unknown): c is Criterion {
  if (!isObject(c) || 'any_of' in c || c.resource_type !== 'Observation' || c.value_sets !== undefined) return false;
  if (!(EDITABLE_TAKES as readonly unknown[]).includes(c.take)) return false;
  if (!Array.isArray(c.codes) || !c.codes.every((t) => typeof t === 'string' && t.startsWith(`${LOINC}|`))) return false;
  const w = c.window;
  if (w !== undefined && (!isObject(w) || w.anchor !== 'now' || Object.keys(w).some((k) => k !== 'anchor' && k !== 'days'))) return false;
  return c.where === undefined || FILTERED_TAKES.has(c.take as string);
}

/** The fields for `validation_rules.criterion` as stored. */
export function draftOf(rules: Record<string, unknown> | null | undefined): CriterionDraft {
  const c = rules?.criterion;
  if (c === undefined || c === null) return EMPTY_CRITERION;
  if (!editable(c)) return { ...EMPTY_CRITERION, on: true, fixed: c as CriterionSpec };
  return {
    on: true,
    codes: (c.codes ?? []).map((t) => t.slice(LOINC.length + 1)).join(', '),
    take: c.take as EditableTake,
    days: c.window?.days !== undefined ? String(c.window.days) : '',
    operator: c.where?.operator ?? '',
    value: c.where ? String(c.where.value) : '',
    unit: c.unit ?? '',
    base: c,
    fixed: null,
  };
}

export const codesOf = (text: string) => text.split(/[\s,;]+/).filter(Boolean);
const numberOf = (text: string) => (/^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : NaN);

/** The criterion the fields say, or undefined when the switch is off. */
export function criterionOf(d: CriterionDraft): CriterionSpec | undefined {
  if (!d.on) return undefined;
  if (d.fixed) return d.fixed;
  const { window: baseWindow, where: _where, unit: baseUnit, units_accepted, ...rest } = d.base ?? ({} as Partial<Criterion>);
  const c: Record<string, unknown> = {
    ...rest,
    resource_type: 'Observation',
    codes: codesOf(d.codes).map((code) => `${LOINC}|${code}`),
    take: d.take,
  };
  if (d.days.trim()) c.window = { ...baseWindow, anchor: 'now', days: numberOf(d.days) };
  if (FILTERED_TAKES.has(d.take) && (d.operator || d.value.trim())) c.where = { operator: d.operator, value: numberOf(d.value) };
  const unit = d.unit.trim();
  if (unit) c.unit = unit;
  // Conversions are into the stored unit (A1C mmol/mol → %): they no longer hold once it changes.
  if (units_accepted && unit && unit === baseUnit) c.units_accepted = units_accepted;
  return c as unknown as CriterionSpec;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function fieldOf(path: string): CriterionField {
  const rest = path.replace(/^(validation_rules\.)?criterion\.?/, '');
  if (rest === '' || rest.startsWith('codes')) return 'codes';
  if (rest.startsWith('take')) return 'take';
  if (rest.startsWith('window')) return 'days';
  if (rest.startsWith('where')) return 'filter';
  if (rest.startsWith('unit')) return 'unit';
  return 'other';
}

/** The engine's own words where they read well to an administrator; a few said in the form's terms. */
function say(field: CriterionField, message: string): string {
  if (message === 'needs codes or value_sets') return 'Enter at least one LOINC code.';
  if (message.startsWith('days_persisting needs'))
    return `“${TAKE_LABELS.days_persisting}” needs the value that persists, for example < 60.`;
  if (field === 'filter' && message.startsWith('must be { operator')) return 'Choose ≥, >, ≤ or < and enter a number.';
  return `${capital(message)}.`;
}

/** Every problem with the fields, by field: the engine's `criterionProblems` (the API refuses the same) plus LOINC check digits. */
export function draftProblems(d: CriterionDraft): CriterionErrors {
  const c = criterionOf(d);
  if (!c || d.fixed) return {};
  const out: CriterionErrors = {};
  const add = (f: CriterionField, m: string) => (out[f] ??= m);
  for (const code of codesOf(d.codes)) {
    const problem = loincProblem(code);
    if (problem) add('codes', problem);
  }
  if (d.days.trim() && Number.isNaN(numberOf(d.days))) add('days', 'Enter a whole number of days, or leave it empty for the whole record.');
  if (FILTERED_TAKES.has(d.take) && (d.operator || d.value.trim())) {
    if (!d.operator) add('filter', 'Choose ≥, >, ≤ or <, or clear the value.');
    else if (Number.isNaN(numberOf(d.value))) add('filter', 'Enter the value as a number, like 6.5.');
  }
  for (const p of criterionProblems(c)) add(fieldOf(p.field), say(fieldOf(p.field), p.message));
  return out;
}

/** validation_rules with the criterion put in, or taken out; every other rule as it was. */
export function rulesWith(
  rules: Record<string, unknown> | null | undefined,
  criterion: CriterionSpec | undefined,
): Record<string, unknown> {
  const { criterion: _old, ...rest } = rules ?? {};
  return criterion === undefined ? rest : { ...rest, criterion };
}

const canonical = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canonical)
    : isObject(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical(v[k])]),
        )
      : v;
/** Same JSON, whatever the key order. */
export const sameJson = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/**
 * A 400's problems with the criterion, by field. The API names them in `details[].field`
 * (`validation_rules.criterion.window.days`) or, from the DTO, in the message of the `validation_rules` detail.
 */
export function serverCriterionErrors(error: unknown): CriterionErrors {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return {};
  const out: CriterionErrors = {};
  for (const d of error.details) {
    if (typeof d === 'string' || !d.field.startsWith('validation_rules')) continue;
    if (d.field.startsWith('validation_rules.criterion')) {
      out[fieldOf(d.field)] ??= capital(d.message);
      continue;
    }
    for (const part of d.message.split('; ')) {
      const m = /^(validation_rules\.criterion\S*) (.+)$/.exec(part);
      if (m) out[fieldOf(m[1])] ??= say(fieldOf(m[1]), m[2]);
    }
  }
  return out;
}
