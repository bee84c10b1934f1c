import type { MeasureLocalVersionJson } from './measure-versions';
/**
 * Population runs (issue 21): the shipped measures evaluated over the whole panel by the worker, in chunks
 * of patients, with each patient's result stored per measure version and period (POST /api/measure-runs).
 */

export type MeasureRunStatus = 'queued' | 'running' | 'completed' | 'failed';

/** `POST /api/measure-runs`: the period (default: the current calendar year) and the measures (default: every shipped one). */
export interface MeasureRunRequestJson {
  /** YYYY-MM-DD; give both or neither. */
  period_start?: string;
  period_end?: string;
  /** FHIR Measure ids (GET /api/fhir/Measure); default every shipped measure. */
  measure_ids?: string[];
  /** Also the 12 rolling years ending each of the last 12 months (the Panel's score by month), stored for panels too large to compute it on request. */
  trend?: boolean;
}

/** `GET /api/measure-runs/:id`: a population run, as a background job. */
export interface MeasureRunJson {
  id: string;
  kind: 'measure-run';
  status: MeasureRunStatus;
  measure_ids: string[];
  period: { start: string; end: string };
  /** Whether the run also stores the 12 monthly points of the Panel's score by month (through the month it was started). */
  trend: boolean;
  /** Patients gone through so far of `total` (null until the run has counted the panel). */
  progress: { done: number; total: number | null };
  /** Patients whose results were computed by this run: the others' stored results were current (same record, same measure version). */
  evaluated: number;
  /** Why the run failed (the results it stored before stay; they are current for the records they were computed from). */
  failure: string | null;
  requested_by: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** One official test case of the conformance decks, as the product evaluated it. */
export interface ConformanceCaseJson {
  file: string;
  description: string;
  period: { start: string; end: string };
  /** 0 or 1 per population: initial-population, denominator, denominator-exclusion, numerator. */
  expected: Record<string, number>;
  actual: Record<string, number>;
  agrees: boolean;
}

export interface ConformanceMeasureJson {
  id: string;
  identifier: string;
  title: string;
  /** The deck's folder name; null when the decks hold none for this measure. */
  deck: string | null;
  agreed: number;
  cases: ConformanceCaseJson[];
  /** The decks check the definition as shipped (version 1); this is the published local version when it differs, else null. */
  published_version: MeasureLocalVersionJson | null;
}

/** `GET /api/measures/conformance`: the official decks (ECQM_DIR) run through the product's own evaluation. */
export interface ConformanceJson {
  /** false when ECQM_DIR does not hold the decks: nothing was run. */
  available: boolean;
  /** The directory read (or looked for). */
  directory: string;
  agreed: number;
  total: number;
  measures: ConformanceMeasureJson[];
}
