import {
  inParameterUnit,
  isStale,
  isUnreadable,
  lookbackDays as defaultLookback,
  readCodes,
  readHistory,
  unitDisplay,
  type EngineParameter,
  type RangeAnswer,
  type RecordHistory,
  type RecordResult,
} from '@cds/engine';
import { DomainError } from '../../common/errors';
import { formatNumber, isNumericParameter, numericLimits, type ParameterHistorySnapshot, type SnapshotResult } from '../assessments';

/**
 * A hook call's reading of the record for one parameter: the engine reads the Observations (statuses,
 * dates, comparators, units); this says what became of them in words a card can carry. Nothing here
 * refuses the call for a bad Observation: only the request itself (a resource of the wrong type or
 * about another patient) is refused.
 */

export { LOINC_SYSTEM as LOINC, searchCodes } from '@cds/engine';

export function lookbackDays(parameter: EngineParameter, loinc: string): number {
  return defaultLookback(parameter.validation_rules, loinc);
}

export interface ObservedValue {
  /** In the parameter's unit: a number, or an interval when the result carried a comparator (< 15). */
  value: number | RangeAnswer;
  /** As the Observation gave it (the comparator's bound for an interval). */
  entered_value: number;
  comparator: RecordResult['comparator'];
  unit: string;
  at: Date;
  observation_id: string | null;
}

/** Why an Observation gave no value: shown on the undetermined card. */
export interface NoValue {
  reason: 'no_observation' | 'stale' | 'no_date' | 'set_aside';
  at?: Date;
  lookback_days?: number;
  /** For `set_aside`: what was set aside and why ("HbA1c 48 % set aside: outside the plausible range 3 to 20 %"). */
  text?: string;
}

/** What the record says for one parameter: its value or why there is none, plus results dated in the future (never used, listed). */
export interface ParameterReading {
  outcome: ObservedValue | NoValue;
  /** By Observation id (null when it has none), so a result two parameters read is listed once. */
  future: { id: string | null; text: string }[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const invalidPrefetch = (key: string, message: string) =>
  new DomainError('invalid_prefetch', `prefetch.${key}: ${message}`, [{ field: `prefetch.${key}`, message }]);

/** The resources of a searchset Bundle (or an empty list for null = "no data found"), all of one type. */
export function bundleResources(key: string, value: unknown, resourceType: string): Json[] {
  if (value === null) return [];
  if (!isObject(value) || value.resourceType !== 'Bundle') throw invalidPrefetch(key, `must be a Bundle of ${resourceType} resources`);
  const entries = value.entry ?? [];
  if (!Array.isArray(entries)) throw invalidPrefetch(key, 'Bundle.entry must be a list');
  const resources: Json[] = [];
  for (const e of entries) {
    const r = isObject(e) ? e.resource : undefined;
    // A search may include an OperationOutcome (search.mode = outcome); it carries no data.
    if (isObject(r) && r.resourceType === 'OperationOutcome') continue;
    if (!isObject(r) || r.resourceType !== resourceType)
      throw invalidPrefetch(
        key,
        `holds a ${isObject(r) ? String(r.resourceType).slice(0, 50) : 'non-resource'} where ${resourceType} was expected`,
      );
    resources.push(r);
  }
  return resources;
}

/** Another patient's record in this patient's call is an invalid request, not a bad value: 400. */
export function checkSubjects(key: string, resources: readonly Json[], patientId: string): void {
  for (const o of resources) {
    const subject = isObject(o.subject) ? o.subject.reference : undefined;
    if (subject !== `Patient/${patientId}`) {
      const type = String(o.resourceType);
      const article = /^[AEIOU]/.test(type) ? 'an' : 'a';
      throw invalidPrefetch(
        key,
        `holds ${article} ${type} about ${String(subject ?? 'no patient').slice(0, 80)}, not Patient/${patientId}`,
      );
    }
  }
}

/**
 * A search Bundle with more results than it holds: a `next` link, or a `total` above the matches it holds (some servers,
 * Medplum's among them, page without a next link but say how many matched). What was read is then part of the record.
 */
export function hasNextPage(bundle: unknown): boolean {
  if (!isObject(bundle)) return false;
  if (Array.isArray(bundle.link) && bundle.link.some((l) => isObject(l) && l.relation === 'next')) return true;
  if (typeof bundle.total !== 'number') return false;
  const matches = (Array.isArray(bundle.entry) ? bundle.entry : []).filter(
    (e) => !(isObject(e) && isObject(e.search) && (e.search.mode === 'include' || e.search.mode === 'outcome')),
  ).length;
  return bundle.total > matches;
}

const day = (at: number) => new Date(at).toISOString().slice(0, 10);

/** "48 %", "< 15 mL/min/1.73 m²": a result as the EHR gave it. */
export function givenText(r: Pick<RecordResult, 'value' | 'comparator' | 'unit'>): string {
  if (r.value === null) return 'with no numeric value';
  const unit = r.unit ? ` ${unitDisplay(r.unit)}` : '';
  return `${r.comparator ? `${r.comparator} ` : ''}${formatNumber(r.value)}${unit}`;
}

/**
 * The latest usable, non-future result of the parameter's codes (its own LOINC code and any code of the
 * same measure, e.g. IFCC HbA1c 59261-8 for 4548-4), in the parameter's unit. Older than the lookback:
 * unknown (stale). A latest result that cannot be read (unknown unit, implausible value, no number) is
 * set aside: the rules that need it are undetermined, and an older result does not stand in for it.
 */
export function readParameter(
  observations: readonly Json[],
  parameter: EngineParameter,
  loinc: string,
  now: Date,
  history: RecordHistory = readHistory(observations, readCodes(loinc), now.getTime()),
): ParameterReading {
  const name = parameter.display_name || parameter.name;
  const future = history.future.map((r) => ({ id: r.id, text: `${name} ${givenText(r)} dated ${day(r.at)}` }));
  const last = history.results[0];
  if (!last) return { outcome: { reason: history.undated.length ? 'no_date' : 'no_observation' }, future };
  const days = lookbackDays(parameter, loinc);
  if (isStale(last.at, now.getTime(), days)) return { outcome: { reason: 'stale', at: new Date(last.at), lookback_days: days }, future };
  const setAside = (why: string): ParameterReading => ({
    outcome: { reason: 'set_aside', at: new Date(last.at), text: `${name} ${givenText(last)} of ${day(last.at)} set aside: ${why}` },
    future,
  });
  if (!isNumericParameter(parameter)) return setAside(`${name} is not a measured value`);
  const limits = numericLimits(parameter);
  const read = inParameterUnit(last, { unit: parameter.units ?? null, min: limits.min, max: limits.max, conversions: limits.units });
  if (isUnreadable(read)) return setAside(read.problem);
  return {
    outcome: {
      value: read.value,
      entered_value: read.given,
      comparator: last.comparator,
      unit: read.unit ?? parameter.units ?? '',
      at: new Date(last.at),
      observation_id: last.id,
    },
    future,
  };
}

/**
 * The parameter's reading and its history from one walk of the results (a hook call needs both for every
 * measured parameter; each walking them again was the same work twice).
 */
export function readParameterWithHistory(
  observations: readonly Json[],
  parameter: EngineParameter,
  loinc: string,
  now: Date,
  cutPoints: readonly number[],
): { reading: ParameterReading; history: ParameterHistorySnapshot | null } {
  const read = readHistory(observations, readCodes(loinc), now.getTime());
  return {
    reading: readParameter(observations, parameter, loinc, now, read),
    history: historyOf(observations, parameter, loinc, now, cutPoints, read),
  };
}

/**
 * Every usable result of the parameter's codes, newest first, as the record gave it and, when given in
 * another unit, in the parameter's: the history an assessment started with these values keeps. A result
 * with no single number in the parameter's unit (a comparator, a unit it cannot convert, no number, an
 * implausible value) is counted, not kept. Null when the record holds no result of its codes.
 */
export function historyOf(
  observations: readonly Json[],
  parameter: EngineParameter,
  loinc: string,
  now: Date,
  cutPoints: readonly number[],
  history?: RecordHistory,
): ParameterHistorySnapshot | null {
  if (!isNumericParameter(parameter)) return null;
  const { results } = history ?? readHistory(observations, readCodes(loinc), now.getTime());
  if (!results.length) return null;
  const limits = numericLimits(parameter);
  const scale = { unit: parameter.units ?? null, min: limits.min, max: limits.max, conversions: limits.units };
  const kept: SnapshotResult[] = [];
  let notPlotted = 0;
  for (const r of results) {
    const read = r.comparator ? null : inParameterUnit(r, scale);
    if (!read || isUnreadable(read) || typeof read.value !== 'number') notPlotted++;
    else
      kept.push({
        at: new Date(r.at).toISOString(),
        value: read.given,
        unit: read.unit,
        ...(read.converted ? { converted: read.value } : {}),
      });
  }
  return {
    parameter_id: parameter.id,
    display_name: parameter.display_name || parameter.name,
    unit: parameter.units ?? null,
    cut_points: [...cutPoints],
    results: kept,
    not_plotted: notPlotted,
  };
}
