import { CRITERION_RESOURCE_TYPES, CRITERION_TAKES, VALUE_FILTER_OPERATORS, type Criterion } from './types';

/** A problem with a stored criterion, by field: the parameters DTO refuses it with these (400). */
export interface CriterionProblem {
  field: string;
  message: string;
}

const TOKEN = /^[^\s|]{1,500}\|[^\s|]{1,200}$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const KEYS = new Set(['resource_type', 'codes', 'value_set', 'statuses', 'window', 'take', 'where']);
const WINDOW_KEYS = new Set(['anchor', 'days', 'years_before', 'relation']);

/** Takes that read an Observation's value, so need it to be an Observation. */
const VALUE_TAKES = new Set(['latest', 'lowest_on_latest_day', 'days_persisting']);

/** Every problem with a criterion as JSON (an empty list when it can be used). */
export function criterionProblems(value: unknown, field = 'criterion'): CriterionProblem[] {
  const out: CriterionProblem[] = [];
  const add = (f: string, message: string) => out.push({ field: `${field}${f}`, message });
  if (!isObject(value)) return [{ field, message: 'must be an object { resource_type, codes | value_set, take, ... }' }];
  for (const k of Object.keys(value)) if (!KEYS.has(k)) add(`.${k}`, 'is not a criterion field');
  const c = value as Partial<Criterion> & Record<string, unknown>;
  if (!(CRITERION_RESOURCE_TYPES as readonly unknown[]).includes(c.resource_type))
    add('.resource_type', `must be one of ${CRITERION_RESOURCE_TYPES.join(', ')}`);
  if (!(CRITERION_TAKES as readonly unknown[]).includes(c.take)) add('.take', `must be one of ${CRITERION_TAKES.join(', ')}`);
  if (
    c.codes !== undefined &&
    (!Array.isArray(c.codes) || c.codes.length > 500 || !c.codes.every((t) => typeof t === 'string' && TOKEN.test(t)))
  )
    add('.codes', 'must be a list of "system|code" tokens (at most 500)');
  if (c.value_set !== undefined && (typeof c.value_set !== 'string' || c.value_set.trim() === '' || c.value_set.length > 500))
    add('.value_set', "must be a value set's canonical URL");
  const isPatient = c.resource_type === 'Patient';
  if (isPatient !== (c.take === 'age')) add('.take', 'age is taken from the Patient, and only age');
  if (!isPatient && !(Array.isArray(c.codes) && c.codes.length) && c.value_set === undefined) add('', 'needs codes or a value_set');
  if (c.resource_type !== 'Observation' && typeof c.take === 'string' && VALUE_TAKES.has(c.take))
    add('.take', `${c.take} reads an Observation's value`);
  if (
    c.statuses !== undefined &&
    (!Array.isArray(c.statuses) || !c.statuses.every((s) => typeof s === 'string' && /^[a-z-]{1,40}$/.test(s)))
  )
    add('.statuses', 'must be a list of status codes');
  if (c.window !== undefined) {
    if (!isObject(c.window)) add('.window', 'must be { anchor, days?, years_before?, relation? }');
    else {
      const w = c.window;
      for (const k of Object.keys(w)) if (!WINDOW_KEYS.has(k)) add(`.window.${k}`, 'is not a window field');
      if (w.anchor !== 'now' && w.anchor !== 'period') add('.window.anchor', 'must be now or period');
      if (w.days !== undefined && !(Number.isInteger(w.days) && (w.days as number) >= 0 && (w.days as number) <= 36600))
        add('.window.days', 'must be a whole number of days, 0 to 36600');
      if (
        w.years_before !== undefined &&
        (w.anchor !== 'period' ||
          !(Number.isInteger(w.years_before) && (w.years_before as number) >= 0 && (w.years_before as number) <= 100))
      )
        add('.window.years_before', 'must be a whole number of years, 0 to 100, with the period anchor');
      if (w.relation !== undefined && w.relation !== 'during' && w.relation !== 'overlaps')
        add('.window.relation', 'must be during or overlaps');
    }
  }
  if (c.where !== undefined) {
    if (
      !isObject(c.where) ||
      !(VALUE_FILTER_OPERATORS as readonly unknown[]).includes(c.where.operator) ||
      typeof c.where.value !== 'number' ||
      !Number.isFinite(c.where.value)
    )
      add('.where', `must be { operator: ${VALUE_FILTER_OPERATORS.join(' | ')}, value: a number }`);
    else if (c.resource_type !== 'Observation') add('.where', "filters an Observation's value");
  }
  if (c.take === 'days_persisting' && c.where === undefined) add('.where', 'days_persisting needs the value condition that persists');
  return out;
}
