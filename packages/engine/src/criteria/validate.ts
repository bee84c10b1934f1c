import { conversionProblem } from '../record/conversion';
import { BOOLEAN_TAKES } from './any-of';
import {
  CODED_ELEMENTS,
  CRITERION_RESOURCE_TYPES,
  CRITERION_TAKES,
  VALUE_FILTER_OPERATORS,
  WINDOW_RELATIONS,
  type Criterion,
} from './types';

/** A problem with a stored criterion, by field: the parameters DTO refuses it with these (400). */
export interface CriterionProblem {
  field: string;
  message: string;
}

const TOKEN = /^[^\s|]{1,500}\|[^\s|]{1,200}$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const KEYS = new Set([
  'resource_type',
  'codes',
  'value_sets',
  'statuses',
  'categories',
  'intents',
  'exclude_do_not_perform',
  'has_code',
  'has_value',
  'exclude_encounter_classes',
  'window',
  'take',
  'where',
  'unit',
  'units_accepted',
]);
const WINDOW_KEYS = new Set(['anchor', 'days', 'years_before', 'first_months', 'at', 'relation']);
const REQUESTS = new Set(['MedicationRequest', 'ServiceRequest', 'DeviceRequest']);
/** Takes that read an Observation's value or code, so need it to be an Observation. */
const VALUE_TAKES = new Set(['latest', 'lowest_on_latest_day', 'days_persisting', 'latest_is', 'latest_without_value']);

const tokens = (v: unknown) => Array.isArray(v) && v.length <= 500 && v.every((t) => typeof t === 'string' && TOKEN.test(t));
const urls = (v: unknown) =>
  Array.isArray(v) && v.length <= 50 && v.every((u) => typeof u === 'string' && u.trim() !== '' && u.length <= 500);
const nonEmpty = (v: unknown) => Array.isArray(v) && v.length > 0;
const inList = (list: readonly unknown[], v: unknown) => list.includes(v);

/** Every problem with a criterion, or an `any_of` list of yes/no criteria, as JSON (an empty list when it can be used). */
export function criterionProblems(value: unknown, field = 'criterion'): CriterionProblem[] {
  if (isObject(value) && 'any_of' in value) {
    const list = value.any_of;
    if (Object.keys(value).length !== 1 || !Array.isArray(list) || list.length === 0 || list.length > 20)
      return [{ field: `${field}.any_of`, message: 'must be the only field: a list of 1 to 20 criteria' }];
    return list.flatMap((c, i) => {
      const own = oneCriterionProblems(c, `${field}.any_of[${i}]`);
      const take = isObject(c) ? c.take : undefined;
      if (!own.length && !BOOLEAN_TAKES.includes(String(take)))
        own.push({ field: `${field}.any_of[${i}].take`, message: `must be ${BOOLEAN_TAKES.join(' or ')}: any_of joins yes/no criteria` });
      return own;
    });
  }
  return oneCriterionProblems(value, field);
}

function oneCriterionProblems(value: unknown, field: string): CriterionProblem[] {
  const out: CriterionProblem[] = [];
  const add = (f: string, message: string) => out.push({ field: `${field}${f}`, message });
  if (!isObject(value)) return [{ field, message: 'must be an object { resource_type, codes | value_sets, take, ... }' }];
  for (const k of Object.keys(value)) if (!KEYS.has(k)) add(`.${k}`, 'is not a criterion field');
  const c = value as Partial<Criterion> & Record<string, unknown>;
  const type = String(c.resource_type);
  if (!inList(CRITERION_RESOURCE_TYPES, c.resource_type)) add('.resource_type', `must be one of ${CRITERION_RESOURCE_TYPES.join(', ')}`);
  if (!inList(CRITERION_TAKES, c.take)) add('.take', `must be one of ${CRITERION_TAKES.join(', ')}`);
  if (c.codes !== undefined && !tokens(c.codes)) add('.codes', 'must be a list of "system|code" tokens (at most 500)');
  if (c.value_sets !== undefined && !urls(c.value_sets)) add('.value_sets', "must be a list of value sets' canonical URLs");
  const isPatient = type === 'Patient';
  if (isPatient !== (c.take === 'age')) add('.take', 'age is taken from the Patient, and only age');
  if (!isPatient && !nonEmpty(c.codes) && !nonEmpty(c.value_sets)) add('', 'needs codes or value_sets');
  if (type !== 'Observation' && typeof c.take === 'string' && VALUE_TAKES.has(c.take))
    add('.take', `${c.take} reads an Observation's value`);
  if (
    c.statuses !== undefined &&
    (!Array.isArray(c.statuses) || !c.statuses.every((s) => typeof s === 'string' && /^[a-z-]{1,40}$/.test(s)))
  )
    add('.statuses', 'must be a list of status codes');
  if (c.categories !== undefined && !tokens(c.categories)) add('.categories', 'must be a list of "system|code" tokens');
  if (
    c.intents !== undefined &&
    (!REQUESTS.has(type) || !Array.isArray(c.intents) || !c.intents.every((s) => typeof s === 'string' && /^[a-z-]{1,40}$/.test(s)))
  )
    add('.intents', 'must be a list of intents, on a request');
  if (c.exclude_do_not_perform !== undefined && (typeof c.exclude_do_not_perform !== 'boolean' || !REQUESTS.has(type)))
    add('.exclude_do_not_perform', 'must be true or false, on a request');
  if (c.has_value !== undefined && (typeof c.has_value !== 'boolean' || type !== 'Observation'))
    add('.has_value', 'must be true or false, on an Observation');
  if (
    c.exclude_encounter_classes !== undefined &&
    (type !== 'Observation' ||
      !Array.isArray(c.exclude_encounter_classes) ||
      !c.exclude_encounter_classes.every((s) => typeof s === 'string' && /^[A-Za-z-]{1,20}$/.test(s)))
  )
    add('.exclude_encounter_classes', 'must be a list of encounter class codes, on an Observation');
  hasCodeProblems(c, add);
  windowProblems(c.window, add);
  if (c.where !== undefined) {
    const w = c.where as unknown;
    if (!isObject(w) || !inList(VALUE_FILTER_OPERATORS, w.operator) || typeof w.value !== 'number' || !Number.isFinite(w.value))
      add('.where', `must be { operator: ${VALUE_FILTER_OPERATORS.join(' | ')}, value: a number }`);
    else if (type !== 'Observation') add('.where', "filters an Observation's value");
  }
  if (c.take === 'days_persisting' && c.where === undefined) add('.where', 'days_persisting needs the value condition that persists');
  if (c.unit !== undefined && (typeof c.unit !== 'string' || c.unit.trim() === '' || c.unit.length > 50 || type !== 'Observation'))
    add('.unit', 'must be a UCUM unit, on an Observation');
  if (c.units_accepted !== undefined) {
    if (!Array.isArray(c.units_accepted) || c.unit === undefined) add('.units_accepted', 'must be a list of conversions, with unit');
    else
      c.units_accepted.forEach((u, i) => {
        const problem = conversionProblem(u);
        if (problem) add(`.units_accepted[${i}]`, problem);
      });
  }
  return out;
}

function hasCodeProblems(c: Record<string, unknown>, add: (f: string, message: string) => void): void {
  if (c.has_code === undefined) {
    if (c.take === 'latest_is') add('.has_code', 'latest_is needs the code the latest must have');
    return;
  }
  const h = c.has_code;
  if (!isObject(h) || !inList(CODED_ELEMENTS, h.element)) return add('.has_code.element', `must be one of ${CODED_ELEMENTS.join(', ')}`);
  if (h.codes !== undefined && !tokens(h.codes)) add('.has_code.codes', 'must be a list of "system|code" tokens');
  if (h.value_sets !== undefined && !urls(h.value_sets)) add('.has_code.value_sets', "must be a list of value sets' canonical URLs");
  if (!nonEmpty(h.codes) && !nonEmpty(h.value_sets)) add('.has_code', 'needs codes or value_sets');
  const owner = h.element === 'value' ? 'Observation' : 'Encounter';
  if (c.resource_type !== owner) add('.has_code.element', `${String(h.element)} is read from an ${owner}`);
}

function windowProblems(w: unknown, add: (f: string, message: string) => void): void {
  if (w === undefined) return;
  if (!isObject(w)) return add('.window', 'must be { anchor, days?, years_before?, relation? }');
  for (const k of Object.keys(w)) if (!WINDOW_KEYS.has(k)) add(`.window.${k}`, 'is not a window field');
  if (w.anchor !== 'now' && w.anchor !== 'period') add('.window.anchor', 'must be now or period');
  const whole = (v: unknown, max: number) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max;
  if (w.days !== undefined && !whole(w.days, 36600)) add('.window.days', 'must be a whole number of days, 0 to 36600');
  if (w.years_before !== undefined && (w.anchor !== 'period' || !whole(w.years_before, 100)))
    add('.window.years_before', 'must be a whole number of years, 0 to 100, with the period anchor');
  if (
    w.first_months !== undefined &&
    (w.anchor !== 'period' || !whole(w.first_months, 120) || w.days !== undefined || w.years_before !== undefined)
  )
    add('.window.first_months', 'must be a whole number of months, 0 to 120, with the period anchor and no days or years_before');
  if (w.at !== undefined && (w.anchor !== 'period' || (w.at !== 'start' && w.at !== 'end')))
    add('.window.at', 'must be start or end, with the period anchor');
  if (w.relation !== undefined && !inList(WINDOW_RELATIONS, w.relation))
    add('.window.relation', `must be one of ${WINDOW_RELATIONS.join(', ')}`);
}
