import type { RecordPatientJson, ResultHistoryJson } from '@cds/contracts';
import { unitDisplay } from '@cds/engine';
import { formatNumber } from './answer-check';

/**
 * What an assessment started from the record keeps of it (issue 20): whose values they were, and each
 * parameter's results as they were read then. A snapshot, because an EHR cannot be read again later:
 * the case detail shows what the clinician and the rules saw.
 */

/** One usable result: as the record gave it, and in the parameter's unit when it was converted. */
export interface SnapshotResult {
  /** ISO date-time. */
  at: string;
  /** The number as the record gave it. */
  value: number;
  /** The UCUM unit it was given in (aliases read as the unit they name). */
  unit: string | null;
  /** In the parameter's unit, when it was given in another one. */
  converted?: number;
}

export interface ParameterHistorySnapshot {
  parameter_id: string;
  display_name: string;
  /** The parameter's UCUM unit. */
  unit: string | null;
  /** The cut-points the rules used on the parameter, in its unit. */
  cut_points: number[];
  /** Newest first. */
  results: SnapshotResult[];
  /** Results of its codes that have no single number in its unit: a comparator ("< 15"), a unit it cannot convert, no number, implausible. */
  not_plotted: number;
}

export interface RecordHistorySnapshot {
  /** When the record was read. */
  read_at: string;
  /** The measured parameters the rules read, with at least one result in the record. */
  parameters: ParameterHistorySnapshot[];
}

export interface RecordContext {
  patient: RecordPatientJson;
  history: RecordHistorySnapshot;
}

/**
 * Where the contexts of redeemed prefill tickets are kept (the CDS Hooks module's tickets). Named here,
 * where it is used, so the assessments module does not depend on the module that depends on it.
 */
export abstract class RecordContexts {
  /**
   * Ties the context `ref` to the new assessment `assessmentId` and returns it, when `userId` redeemed its
   * ticket within RECORD_CONTEXT_TTL_MINUTES and no assessment has it yet; null otherwise (in one statement,
   * so two starts naming one context cannot both have it).
   */
  abstract attach(ref: string, userId: string, assessmentId: string): Promise<RecordContext | null>;
  /** Frees the context again when the assessment it was tied to could not be written. */
  abstract release(ref: string, assessmentId: string): Promise<void>;
}

const withUnit = (n: number, ucum: string | null) => {
  const u = unitDisplay(ucum ?? '');
  return u ? `${formatNumber(n)} ${u}` : formatNumber(n);
};

/** The cut-points within the results' range and the nearest one on either side: the lines a physician reads them against. */
export function cutPointsToShow(cuts: readonly number[], values: readonly number[]): number[] {
  if (!values.length) return [];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const sorted = [...new Set(cuts)].sort((a, b) => a - b);
  const below = sorted.filter((c) => c < lo).at(-1);
  const above = sorted.find((c) => c > hi);
  return sorted.filter((c) => (c >= lo && c <= hi) || c === below || c === above);
}

/**
 * The snapshot as the case detail shows it, in the Panel's shape: oldest result first, each plotted in
 * the parameter's unit; a converted one listed as the record gave it ("75 mmol/mol"), its plotted value
 * then marked ≈.
 */
export function historiesOf(s: RecordHistorySnapshot): ResultHistoryJson[] {
  return s.parameters.map((p) => {
    const points = [...p.results]
      .sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
      .map((r) =>
        r.converted === undefined
          ? { at: r.at, value: r.value }
          : { at: r.at, value: Number(r.converted.toFixed(2)), entered: withUnit(r.value, r.unit) },
      );
    const unit = unitDisplay(p.unit ?? '');
    const thresholds = cutPointsToShow(
      p.cut_points,
      points.map((x) => x.value),
    ).map((value) => ({ value, label: `Rule cut-point ${withUnit(value, p.unit)}` }));
    return { title: p.display_name, unit, points, thresholds, not_plotted: p.not_plotted };
  });
}
