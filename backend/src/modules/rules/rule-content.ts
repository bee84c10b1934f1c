import { randomUUID } from 'node:crypto';
import type { FieldError } from '../../common/errors';
import {
  buildParameterIndex,
  normalizeAction,
  normalizeCondition,
  resolveParameter,
  typeClassOf,
  validateCondition,
  type Action,
  type Answers,
  type Condition,
  type EngineParameter,
  type ParameterIndex,
} from '@cds/engine';
import { ACTION_SEVERITIES, ACTION_TYPES, type Outcome } from '@cds/contracts';
// Not re-exported by the engine's index (yet); the engine's own reading of dates.
import { toDay } from '@cds/engine';

export { ACTION_SEVERITIES, ACTION_TYPES };
export const MAX_CONDITIONS = 50;
export const MAX_ACTIONS = 20;
const MAX_TEXT = 2000;

/** Today's keys and the older spellings the spec lists (parameter_id, parameterId, field, name; logicOperator). */
const CONDITION_KEYS = [
  'id',
  'type',
  'parameter',
  'parameter_id',
  'parameterId',
  'field',
  'name',
  'operator',
  'value',
  'logic',
  'logicOperator',
];
const ACTION_KEYS = ['id', 'type', 'severity', 'message', 'value'];

export interface ParameterCatalogue {
  /** Active, non-template parameters: what a condition may use. */
  usable: ParameterIndex;
  /** Every parameter, to say why a reference cannot be used (inactive, a template). */
  all: ParameterIndex;
  isTemplate(id: string): boolean;
}

export interface CatalogueEntry extends EngineParameter {
  is_template: boolean;
}

export function catalogue(parameters: readonly CatalogueEntry[]): ParameterCatalogue {
  const templates = new Set(parameters.filter((p) => p.is_template).map((p) => p.id));
  // Live parameters first: a reference by name prefers them.
  const ordered = [...parameters].sort((a, b) => rank(a) - rank(b));
  return {
    usable: buildParameterIndex(ordered.filter((p) => p.is_active !== false && !p.is_template)),
    all: buildParameterIndex(ordered),
    isTemplate: (id) => templates.has(id),
  };
}
const rank = (p: CatalogueEntry) => (p.is_template ? 2 : p.is_active === false ? 1 : 0);

const own = (o: Record<string, unknown>, k: string) => Object.prototype.hasOwnProperty.call(o, k);

function unknownKeys(raw: Record<string, unknown>, allowed: string[], at: string): FieldError[] {
  return Object.keys(raw)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({ field: `${at}.${k}`, message: `Unknown field '${at}.${k}'` }));
}

function idProblem(raw: Record<string, unknown>, at: string): FieldError[] {
  if (!own(raw, 'id') || raw.id === undefined) return [];
  return typeof raw.id === 'string' && raw.id.length > 0 && raw.id.length <= 100
    ? []
    : [{ field: `${at}.id`, message: `${at}.id must be text` }];
}

/**
 * Checks conditions the way the rule editor means them and returns them in the one stored
 * shape: `parameter` is the resolved parameter id, `logic` AND or OR, the operator canonical.
 */
export function readConditions(raw: unknown[], params: ParameterCatalogue): { conditions: Condition[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const conditions: Condition[] = [];
  raw.forEach((item, i) => {
    const at = `conditions[${i}]`;
    const c = item as Record<string, unknown>;
    const problems = [...unknownKeys(c, CONDITION_KEYS, at), ...idProblem(c, at)];
    if (own(c, 'type') && c.type !== 'parameter') problems.push({ field: `${at}.type`, message: `${at}.type must be 'parameter'` });
    if (typeof c.value === 'string' && c.value.length > 500)
      problems.push({ field: `${at}.value`, message: `${at}.value may hold at most 500 characters` });
    const normal = normalizeCondition(c);
    const found = resolveParameter(normal.parameter, params.usable) ?? resolveParameter(normal.parameter, params.all);
    let parameter: EngineParameter | null = found?.parameter ?? null;
    if (found?.ambiguous) {
      problems.push({ field: `${at}.parameter`, message: `"${normal.parameter}" fits more than one parameter; choose it by id.` });
      parameter = null;
    } else if (parameter && params.isTemplate(parameter.id)) {
      problems.push({ field: `${at}.parameter`, message: `"${parameter.display_name}" is a template; create a parameter from it first.` });
      parameter = null;
    }
    const engine = found?.ambiguous || (parameter === null && found) ? [] : validateCondition(c, parameter);
    errors.push(...problems, ...engine.map((e) => ({ field: `${at}.${e.field}`, message: `Condition ${i + 1}: ${e.message}` })));
    conditions.push({ ...normal, id: typeof c.id === 'string' ? c.id : randomUUID(), parameter: parameter?.id ?? normal.parameter });
  });
  return { conditions, errors };
}

/** Actions: a known type, severity low/medium/high/critical (medium when absent), a message. */
export function readActions(raw: unknown[]): { actions: Action[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const actions: Action[] = [];
  raw.forEach((item, i) => {
    const at = `actions[${i}]`;
    const a = item as Record<string, unknown>;
    errors.push(...unknownKeys(a, ACTION_KEYS, at), ...idProblem(a, at));
    for (const key of ['type', 'severity', 'message', 'value']) {
      if (own(a, key) && a[key] !== undefined && typeof a[key] !== 'string')
        errors.push({ field: `${at}.${key}`, message: `${at}.${key} must be text` });
    }
    const normal = normalizeAction(a);
    if (!(ACTION_TYPES as readonly string[]).includes(normal.type)) {
      errors.push({ field: `${at}.type`, message: `Action ${i + 1}: type must be one of ${ACTION_TYPES.join(', ')}.` });
    }
    if (!(ACTION_SEVERITIES as readonly string[]).includes(normal.severity ?? '')) {
      errors.push({ field: `${at}.severity`, message: `Action ${i + 1}: severity must be one of ${ACTION_SEVERITIES.join(', ')}.` });
    }
    if (normal.message.trim() === '')
      errors.push({ field: `${at}.message`, message: `Action ${i + 1}: enter the message the clinician will read.` });
    if (normal.message.length > MAX_TEXT || (normal.value?.length ?? 0) > MAX_TEXT) {
      errors.push({ field: `${at}.message`, message: `Action ${i + 1}: the message may hold at most ${MAX_TEXT} characters.` });
    }
    actions.push({ ...normal, id: typeof a.id === 'string' ? a.id : randomUUID(), message: normal.message.trim() });
  });
  return { actions, errors };
}

const isRange = (v: unknown): v is { type: 'range'; min: number; max: number } => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  return (
    Object.keys(r).every((k) => ['type', 'min', 'max'].includes(k)) &&
    r.type === 'range' &&
    typeof r.min === 'number' &&
    typeof r.max === 'number' &&
    Number.isFinite(r.min) &&
    Number.isFinite(r.max) &&
    r.min <= r.max
  );
};

function optionValues(p: EngineParameter): unknown[] {
  const options = (p.validation_rules as { options?: unknown } | null | undefined)?.options;
  return Array.isArray(options) ? options.map((o) => (o as { value?: unknown })?.value) : [];
}

/**
 * Answers are keyed by parameter id and typed by the parameter: a number (or a range) for
 * numeric types, true/false, a YYYY-MM-DD date, text. null is "not answered" and 'unknown' is
 * "not known", for any type.
 */
export function answerErrors(answers: Record<string, unknown>, parameters: ReadonlyMap<string, EngineParameter>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [id, value] of Object.entries(answers)) {
    const at = `answers.${id}`;
    const p = parameters.get(id);
    if (!p) {
      errors.push({ field: at, message: `"${id}" is not a parameter.` });
      continue;
    }
    if (value === null || value === 'unknown') continue;
    const name = p.display_name || p.name;
    let ok: boolean;
    let expected: string;
    switch (typeClassOf(p.data_type)) {
      case 'numeric':
        ok = (typeof value === 'number' && Number.isFinite(value)) || isRange(value);
        expected = 'a number, or { "type": "range", "min", "max" }';
        break;
      case 'boolean':
        ok = typeof value === 'boolean';
        expected = 'true or false';
        break;
      case 'date':
        ok = typeof value === 'string' && !Number.isNaN(toDay(value));
        expected = 'a date written as YYYY-MM-DD';
        break;
      case 'choice':
        ok = typeof value === 'string' || optionValues(p).some((o) => o === value);
        expected = 'one of its options';
        break;
      case 'text':
        ok = typeof value === 'string';
        expected = 'text';
        break;
      default:
        ok = ['string', 'number', 'boolean'].includes(typeof value);
        expected = 'text, a number or true/false';
    }
    if (ok && typeof value === 'string' && value.length > 500) ok = false;
    if (!ok) errors.push({ field: at, message: `${name} (${p.data_type}) needs ${expected}; got ${JSON.stringify(value)}.` });
  }
  return errors;
}

export type { Outcome };
export const toStoredOutcome = (o: Outcome) => String(o) as 'true' | 'false' | 'unknown';
export const fromStoredOutcome = (s: string): Outcome => (s === 'true' ? true : s === 'false' ? false : 'unknown');

export type { Answers };
