import type { UnitConversion } from '../record/conversion';
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
 * - `latest_is`: whether the most recent matching resource has the code `has_code` names (the last
 *   housing status is "lives in a nursing home"), false when there is none;
 * - `latest_without_value`: whether a result on the latest day was recorded without a numeric value
 *   (a test done with no result, or a coded result); false when there is none;
 * - `age`: the Patient's age in whole years at the window's anchor (now, or the period's end).
 */
export const CRITERION_TAKES = [
  'latest',
  'lowest_on_latest_day',
  'latest_is',
  'latest_without_value',
  'count',
  'distinct_days',
  'exists',
  'days_persisting',
  'age',
] as const;
export type CriterionTake = (typeof CRITERION_TAKES)[number];

export const VALUE_FILTER_OPERATORS = ['>=', '>', '<=', '<'] as const;
export type ValueFilterOperator = (typeof VALUE_FILTER_OPERATORS)[number];

/** A value condition on an Observation's value, in the input's unit: ">= 6.5". */
export interface ValueFilter {
  operator: ValueFilterOperator;
  value: number;
}

export const WINDOW_RELATIONS = ['during', 'overlaps', 'starts_during', 'ends_during', 'ends_by_end', 'starts_by_end'] as const;
export type WindowRelation = (typeof WINDOW_RELATIONS)[number];

/**
 * When a resource counts. `anchor` `now`: within `days` before the evaluation time (never after it).
 * `anchor` `period`: during the measurement period, widened by `years_before` its start (CQL's
 * "during the measurement period or the year before"); `days` then counts back from the period's end.
 * A resource's time is a span (an Encounter's period, a Condition's prevalence; a point for a
 * result): it must lie within the window (`during`, the default), touch it (`overlaps`), start or
 * end within it (`starts_during`, `ends_during`), or end or start by the window's end (`ends_by_end`,
 * `starts_by_end`).
 */
export interface CriterionWindow {
  anchor: 'now' | 'period';
  days?: number;
  years_before?: number;
  /** Only the first months of the period (CMS165: a hypertension diagnosis in its first six months): [start, start + n months). */
  first_months?: number;
  /** `age`: at the period's start or end (default). */
  at?: 'start' | 'end';
  relation?: WindowRelation;
}

export const CODED_ELEMENTS = ['value', 'discharge_disposition'] as const;
export type CodedElement = (typeof CODED_ELEMENTS)[number];

/** A coded element that must hold one of these codes: an Observation's coded value, an Encounter's discharge disposition. */
export interface HasCode {
  element: CodedElement;
  codes?: string[];
  value_sets?: string[];
}

export interface Criterion {
  resource_type: CriterionResourceType;
  /** `system|code` tokens; a resource matches when any of its codings is one of them. */
  codes?: string[];
  /** ValueSets' canonical URLs: the codes of their expansions count (resolved when the criterion is prepared). */
  value_sets?: string[];
  /** Statuses that count; each resource type has a default (Observation: final, amended, corrected). */
  statuses?: string[];
  /** `system|code` tokens of a category the resource must carry (an Observation's `laboratory`, `survey`). */
  categories?: string[];
  /** Requests: the intents that count (`order`). */
  intents?: string[];
  /** Requests marked not to be performed (`doNotPerform`, or QI-Core's modifier extension) do not count. */
  exclude_do_not_perform?: boolean;
  /** Observations: only those that carry a value (any value[x]: CQL's `value is not null`). */
  has_value?: boolean;
  /** Observations: not those made during an encounter of these classes (`EMER`, `IMP`…), the encounter looked up in the record. */
  exclude_encounter_classes?: string[];
  /** A coded element the resource must carry (with `latest_is`: what the latest one is tested for). */
  has_code?: HasCode;
  window?: CriterionWindow;
  take: CriterionTake;
  where?: ValueFilter;
  /**
   * The UCUM unit Observation values are read in, and `where` written in, when it is not the
   * parameter's own (a count of days with an A1C ≥ 6.5 %: the parameter counts days, the filter is in %);
   * with the other units a value may come in, as `validation_rules.units_accepted` writes them.
   */
  unit?: string;
  units_accepted?: UnitConversion[];
}

/** What an evaluation is about: the time it runs at and, for measures, the measurement period (ISO dates). */
export interface CriterionContext {
  now: number;
  /**
   * The patient's whole record, when `evaluate` is given only part of it (the resources of the
   * criterion's type): where an Observation's encounter is looked up.
   */
  record?: readonly unknown[];
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
