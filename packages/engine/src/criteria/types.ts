import type { RangeAnswer } from '../types';

/**
 * A criterion binds an input to the patient's record (api.md, "The patient's record over time"):
 * which resources (type; codes or a value set), which statuses count, the time window (relative to
 * now or to a measurement period), and what is taken. One definition serves hook calls, the clinical
 * form's prefill and the measures.
 */
export const CRITERION_RESOURCE_TYPES = [
  'Observation',
  'Condition',
  'Encounter',
  'Procedure',
  'MedicationRequest',
  'ServiceRequest',
  'DeviceRequest',
  'Patient',
] as const;
export type CriterionResourceType = (typeof CRITERION_RESOURCE_TYPES)[number];

/**
 * What is taken from the matching resources:
 * - `latest`: the most recent value (Observations);
 * - `lowest_on_latest_day`: the lowest value measured on the day of the most recent one;
 * - `count`: how many matching resources (with `where`: how many values satisfy it);
 * - `distinct_days`: on how many different days (with `where`: days with a value that satisfies it);
 * - `exists`: whether any matches (with `where`: any value that satisfies it);
 * - `days_persisting`: days from the earliest to the latest value satisfying `where`, with none failing
 *   it in between (CKD's "> 90 days");
 * - `age`: the Patient's age in whole years at the window's anchor (now, or the period's end).
 */
export const CRITERION_TAKES = ['latest', 'lowest_on_latest_day', 'count', 'distinct_days', 'exists', 'days_persisting', 'age'] as const;
export type CriterionTake = (typeof CRITERION_TAKES)[number];

export const VALUE_FILTER_OPERATORS = ['>=', '>', '<=', '<'] as const;
export type ValueFilterOperator = (typeof VALUE_FILTER_OPERATORS)[number];

/** A value condition on an Observation's value, in the input's unit: ">= 6.5". */
export interface ValueFilter {
  operator: ValueFilterOperator;
  value: number;
}

/**
 * When a resource counts. `anchor` `now`: within `days` before the evaluation time (never after it).
 * `anchor` `period`: during the measurement period, widened by `years_before` its start (CQL's
 * "during the measurement period or the year before"); `days` then counts back from the period's end.
 * Point-in-time resources must fall in the window; resources with a span (an Encounter's period, a
 * Condition's prevalence) must lie within it (`during`) or touch it (`overlaps`).
 */
export interface CriterionWindow {
  anchor: 'now' | 'period';
  days?: number;
  years_before?: number;
  relation?: 'during' | 'overlaps';
}

export interface Criterion {
  resource_type: CriterionResourceType;
  /** `system|code` tokens; a resource matches when any of its codings is one of them. */
  codes?: string[];
  /** A ValueSet's canonical URL: its expansion's codes count (resolved when the criterion is prepared). */
  value_set?: string;
  /** Statuses that count; each resource type has a default (Observation: final, amended, corrected). */
  statuses?: string[];
  window?: CriterionWindow;
  take: CriterionTake;
  where?: ValueFilter;
}

/** What an evaluation is about: the time it runs at and, for measures, the measurement period (ISO dates). */
export interface CriterionContext {
  now: number;
  period?: { start: string; end: string };
}

/** A resource that made the criterion true, or a value it took: shown as the evidence. */
export interface Evidence {
  resource_type: string;
  id: string | null;
  /** When it happened (ms since the epoch); NaN when the resource has no readable time. */
  at: number;
  /** The value read, in the input's unit (Observations with a number). */
  value?: number | RangeAnswer;
}

/** A resource that matched but could not be read: it makes the answer unknown where it could matter, and is named. */
export interface SetAside {
  resource_type: string;
  id: string | null;
  problem: string;
}

export interface CriterionResult {
  /** The answer an input gets: a number, an interval (a comparator, or a count some unreadable values leave open), a boolean, or unknown. */
  value: number | RangeAnswer | boolean | 'unknown';
  evidence: Evidence[];
  set_aside: SetAside[];
  /** Matching resources dated after now: never taken, always reported. */
  future: Evidence[];
}
