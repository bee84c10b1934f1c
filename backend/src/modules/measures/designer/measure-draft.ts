import { Injectable, type PipeTransform } from '@nestjs/common';
import {
  POPULATION_CODES,
  toDay,
  validateCondition,
  type EngineRule,
  type MeasureModel,
  type MeasureOutcome,
  type PopulationCode,
  type Tri,
} from '@cds/engine';
import type { MeasureImpactPatientJson } from '@cds/contracts';
import { validationFailed, type FieldError } from '../../../common/errors';
import { PLAUSIBLE_YEARS } from '../../../common/dates';
import type { ShippedMeasure } from '../measure-content';
import { POPULATIONS } from './measure-design';

/** A measure draft: the measure's record criteria with the draft's population rules. */
export interface MeasureDraft {
  model: MeasureModel;
  period: { start: string; end: string };
}

const MAX_RULES = 100;
const MAX_CONDITIONS = 20;
const RULE_ID = /^[A-Za-z0-9._-]{1,64}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The populations whose change the preview reports, in the order a measure is read. */
export const COMPARED: PopulationCode[] = ['initial-population', 'denominator', 'denominator-exclusion', 'numerator'];

function readPeriod(
  body: { periodStart?: unknown; periodEnd?: unknown },
  problems: FieldError[],
  today: Date,
): { start: string; end: string } {
  const { periodStart, periodEnd } = body;
  if (periodStart === undefined && periodEnd === undefined) {
    const year = today.getUTCFullYear();
    return { start: `${year}-01-01`, end: `${year}-12-31` };
  }
  const day = (field: 'periodStart' | 'periodEnd', v: unknown) => {
    const y = typeof v === 'string' ? Number(v.slice(0, 4)) : NaN;
    if (typeof v !== 'string' || !DATE.test(v) || Number.isNaN(toDay(v)) || y < PLAUSIBLE_YEARS.min || y > PLAUSIBLE_YEARS.max) {
      problems.push({ field, message: `${field} must be a date (YYYY-MM-DD)` });
      return '';
    }
    return v;
  };
  const start = day('periodStart', periodStart);
  const end = day('periodEnd', periodEnd);
  if (start && end && start > end) problems.push({ field: 'periodEnd', message: 'periodEnd must not be before periodStart' });
  return { start, end };
}

/**
 * A draft's body with its shape checked (the pipe's part): its rules and period are read against the measure
 * afterwards, together, so a refusal names every problem of both at once.
 */
export interface DraftBody {
  rules: unknown[];
  periodStart?: unknown;
  periodEnd?: unknown;
}

/** The measure-independent shape of a draft's body: an object of known fields with 1 to 100 rules. 400 otherwise. */
export function readDraftBody(body: unknown): DraftBody {
  if (!isObject(body)) throw validationFailed([{ field: 'body', message: 'The draft must be a JSON object with rules' }]);
  const problems: FieldError[] = Object.keys(body)
    .filter((key) => !['rules', 'periodStart', 'periodEnd'].includes(key))
    .map((key) => ({ field: key, message: `${key} is not a field of a measure draft` }));
  const list = body.rules;
  if (!Array.isArray(list) || !list.length || list.length > MAX_RULES)
    problems.push({ field: 'rules', message: `rules must list 1 to ${MAX_RULES} population rules` });
  if (problems.length) throw validationFailed(problems);
  return { rules: list as unknown[], periodStart: body.periodStart, periodEnd: body.periodEnd };
}

/** The body of `POST /api/measures/designs/:id/impact`, its shape checked before the handler (400 validation_failed). */
@Injectable()
export class DraftBodyPipe implements PipeTransform<unknown, DraftBody> {
  transform(body: unknown): DraftBody {
    return readDraftBody(body);
  }
}

/**
 * A draft of a measure's population rules, as the request gives it: every rule named, in a population, with
 * conditions on the measure's own parameters that the engine can evaluate. 400 with each problem otherwise.
 */
export function readDraft(m: ShippedMeasure, body: unknown, today = new Date()): MeasureDraft {
  return readDraftRules(m, readDraftBody(body), today);
}

/** The period and the rules of a checked body, read against the measure's own parameters. */
export function readDraftRules(m: ShippedMeasure, body: DraftBody, today = new Date()): MeasureDraft {
  const problems: FieldError[] = [];
  const period = readPeriod(body, problems, today);
  const list = body.rules;
  const byId = new Map(m.model.parameters.map((p) => [p.id, p]));
  const ids = new Set<string>();
  const rules: (EngineRule & { population: PopulationCode })[] = [];
  list.forEach((raw: unknown, i) => {
    const at = `rules[${i}]`;
    if (!isObject(raw)) return problems.push({ field: at, message: `${at} must be an object` });
    const id = raw.id === undefined ? `draft-${i + 1}` : raw.id;
    if (typeof id !== 'string' || !RULE_ID.test(id))
      problems.push({ field: `${at}.id`, message: `${at}.id must be 1–64 letters, digits, ., _ or -` });
    else if (ids.has(id)) problems.push({ field: `${at}.id`, message: `${at}.id "${id}" is used by another rule` });
    else ids.add(id);
    const name = typeof raw.name === 'string' ? raw.name.trim() : '';
    if (!name || name.length > 200) problems.push({ field: `${at}.name`, message: `${at}.name must be 1–200 characters` });
    const population = raw.population;
    if (typeof population !== 'string' || !(POPULATION_CODES as readonly string[]).includes(population))
      problems.push({ field: `${at}.population`, message: `${at}.population must be one of ${POPULATION_CODES.join(', ')}` });
    const conditions = raw.conditions;
    if (!Array.isArray(conditions) || !conditions.length || conditions.length > MAX_CONDITIONS)
      return problems.push({ field: `${at}.conditions`, message: `${at}.conditions must list 1 to ${MAX_CONDITIONS} conditions` });
    const read = conditions.map((c: unknown, j) => {
      const cat = `${at}.conditions[${j}]`;
      if (!isObject(c) || typeof c.parameter !== 'string' || typeof c.operator !== 'string') {
        problems.push({ field: cat, message: `${cat} must have a parameter and an operator` });
        return null;
      }
      // A measure draft names its measure's parameters by id: the criteria are the measure's own.
      const parameter = byId.get(c.parameter) ?? null;
      for (const e of validateCondition({ type: 'parameter', parameter: c.parameter, operator: c.operator, value: c.value }, parameter))
        problems.push({ field: `${cat}.${e.field}`, message: `${cat}: ${e.message}` });
      return { type: 'parameter' as const, parameter: c.parameter, operator: c.operator, value: c.value };
    });
    rules.push({
      id: String(id),
      name,
      description: null,
      priority: 0,
      population: population as PopulationCode,
      conditions: read.filter((c) => c !== null),
      actions: [],
    });
  });
  if (!problems.length && !rules.some((r) => r.population === 'initial-population'))
    problems.push({ field: 'rules', message: 'A measure needs at least one initial-population rule' });
  if (problems.length) throw validationFailed(problems);
  const populations: Partial<Record<PopulationCode, string[]>> = {};
  for (const r of rules) (populations[r.population] ??= []).push(r.id);
  return {
    model: { parameters: m.model.parameters, rules: rules.map(({ population: _, ...r }) => r), populations },
    period,
  };
}

const word = (v: Tri) => (v === true ? 'Yes' : v === false ? 'No' : 'Undetermined');
const labelOf = new Map(POPULATIONS.map((p) => [p.code, p.label.replace(/s$/, '')]));

/** How one patient's populations differ between the current measure and the draft; null when they do not. */
export function patientChange(
  patient_id: string,
  name: string,
  before: MeasureOutcome,
  after: MeasureOutcome,
): MeasureImpactPatientJson | null {
  const changes = COMPARED.filter((p) => before.populations[p] !== after.populations[p]).map(
    (p) => `${labelOf.get(p)}: ${word(before.populations[p])} → ${word(after.populations[p])}`,
  );
  if (!changes.length) return null;
  const pick = (o: MeasureOutcome) => Object.fromEntries(COMPARED.map((p) => [p, o.populations[p]]));
  return { patient_id, name, before: pick(before), after: pick(after), changes };
}
