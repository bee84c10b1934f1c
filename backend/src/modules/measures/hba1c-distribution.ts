import type { PanelHba1cBand, PanelHba1cBandJson, PanelHba1cDistributionJson } from '@cds/contracts';
import { inParameterUnit, isUnreadable, readHistory } from '@cds/engine';
import { HBA1C_SERIES } from './patient-histories';

const DAY_MS = 86_400_000;

/** The bands a physician reads an HbA1c in; where two meet, the lower one is closed below (≥ 7, ≥ 8) and CMS122's 9 % stays at goal. */
const BANDS: readonly Omit<PanelHba1cBandJson, 'count'>[] = [
  { band: 'below_7', label: '< 7 %', range: '< 7 %' },
  { band: 'from_7_below_8', label: '7–7.9 %', range: '≥ 7 % and < 8 %' },
  { band: 'from_8_to_9', label: '8–9 %', range: '≥ 8 % and ≤ 9 %' },
  { band: 'above_9', label: '> 9 %', range: '> 9 %' },
  { band: 'no_result', label: 'No result', range: 'No HbA1c with a result in the period' },
  { band: 'not_readable', label: 'Not readable', range: 'A comparator, or a unit that does not convert to %' },
];

export function bandOf(percent: number): PanelHba1cBand {
  if (percent < 7) return 'below_7';
  if (percent < 8) return 'from_7_below_8';
  if (percent <= 9) return 'from_8_to_9';
  return 'above_9';
}

/**
 * A patient's band: the most recent HbA1c in the period (ISO dates, inclusive), the lowest of that day
 * as CMS122 reads it, in % (IFCC mmol/mol through the HbA1c history's conversion). A result without a
 * value is no result; one with a comparator or an unconvertible unit is not readable.
 */
export function hba1cBand(record: readonly unknown[], period: { start: string; end: string }, now: number): PanelHba1cBand {
  const from = Date.parse(`${period.start}T00:00:00Z`);
  const to = Date.parse(`${period.end}T00:00:00Z`) + DAY_MS;
  const results = readHistory(record, HBA1C_SERIES.codes, now).results.filter((r) => r.at >= from && r.at < to && r.value !== null);
  if (!results.length) return 'no_result';
  const day = Math.floor(results[0].at / DAY_MS); // newest first
  const values = results
    .filter((r) => Math.floor(r.at / DAY_MS) === day)
    .map((r) => (r.comparator ? null : inParameterUnit(r, HBA1C_SERIES.scale)))
    .map((read) => (read && !isUnreadable(read) && typeof read.value === 'number' ? read.value : null))
    .filter((v): v is number => v !== null);
  return values.length ? bandOf(Math.min(...values)) : 'not_readable';
}

/** The distribution's counts, every band listed (zero included), in the order a physician reads them. */
export function hba1cDistribution(
  measure: { id: string; identifier: string },
  bands: Iterable<PanelHba1cBand>,
): PanelHba1cDistributionJson {
  const counts = new Map<PanelHba1cBand, number>();
  let patients = 0;
  for (const b of bands) {
    counts.set(b, (counts.get(b) ?? 0) + 1);
    patients++;
  }
  return {
    measure_id: measure.id,
    identifier: measure.identifier,
    patients,
    bands: BANDS.map((b) => ({ ...b, count: counts.get(b.band) ?? 0 })),
  };
}
