import type { MeasureLocalVersionJson } from './measure-versions';
/**
 * The PCP's Panel (issue 21): each shipped quality measure over the stored records, its gaps, and
 * the evidence behind one patient's populations (GET /api/panel, GET /api/panel/patients/:id).
 */

/** Where one patient stands on one measure: the goal met, a gap, excluded, or left open by the record. */
export type PanelStatus = 'met' | 'gap' | 'excluded' | 'undetermined';

export interface PanelPeriodJson {
  /** ISO dates, inclusive. */
  start: string;
  end: string;
}

/** Patients definitely in each population; a patient the record leaves undetermined counts in none of them. */
export interface PanelCountsJson {
  initial_population: number;
  denominator: number;
  denominator_exclusion: number;
  numerator: number;
  /** Patients whose place in the measure the record leaves undetermined (listed, never counted above). */
  undetermined: number;
}

export interface PanelMeasureJson {
  /** The FHIR Measure id (GET /api/fhir/Measure/:id). */
  id: string;
  /** CMS122, CMS951, CMS165. */
  identifier: string;
  title: string;
  /** The goal for one patient, in words. */
  goal: string;
  /** What the score counts, in words (an inverse measure counts the patients who miss the goal). */
  score_meaning: string;
  /** `decrease`: a lower score is better (CMS122). */
  improvement_notation: 'increase' | 'decrease';
  counts: PanelCountsJson;
  /**
   * The patients the score is about: the denominator less its exclusions, and less the patients whose
   * numerator or exclusion the record leaves undetermined (they are listed, never scored).
   */
  eligible: number;
  /** numerator / eligible, 0–1; null when no patient is eligible. */
  score: number | null;
  /** Eligible patients who miss the goal (the gap list's rows for this measure). */
  gaps: number;
  /** The published local version this was evaluated under; null: the CMS definition as shipped. */
  local_version: MeasureLocalVersionJson | null;
}

/** One row of the gap list: an eligible patient who misses a measure's goal, or whose place the record leaves open. */
export interface PanelGapJson {
  measure_id: string;
  identifier: string;
  patient_id: string;
  /** As the Patient resource gives it ("Given Family"); the id when it has no name. */
  name: string;
  birth_date: string | null;
  /** Whole years at the end of the period; null without a birth date. */
  age: number | null;
  status: 'gap' | 'undetermined';
  /** Why, in words: "No HbA1c or GMI in the period", "Most recent blood pressure 150/85 mmHg". */
  reason: string;
}

export interface PanelJson {
  period: PanelPeriodJson;
  /** Patients with a Patient resource in the store: 0 means no records are loaded. */
  patients: number;
  measures: PanelMeasureJson[];
  gaps: PanelGapJson[];
  /** CMS122's denominator by their most recent HbA1c in the period. */
  hba1c_distribution: PanelHba1cDistributionJson;
}

/**
 * One band of the HbA1c distribution. Bands are half-open where they meet: < 7 %, ≥ 7 and < 8 %,
 * ≥ 8 and ≤ 9 %, > 9 % (9.0 is at CMS122's goal, as the measure reads it).
 */
export type PanelHba1cBand = 'below_7' | 'from_7_below_8' | 'from_8_to_9' | 'above_9' | 'no_result' | 'not_readable';

export interface PanelHba1cBandJson {
  band: PanelHba1cBand;
  /** "< 7 %", "7–7.9 %", "8–9 %", "> 9 %", "No result", "Not readable". */
  label: string;
  /** The band's limits in words ("≥ 7 % and < 8 %"). */
  range: string;
  count: number;
}

/**
 * The patients in CMS122's denominator (exclusions included: they are still the panel's patients with
 * diabetes) by their most recent HbA1c in the period, the lowest of that day as CMS122 reads it; an IFCC
 * result in mmol/mol is counted in % through the conversion the HbA1c history uses. `not_readable`: a
 * result with a comparator or in a unit that does not convert.
 */
export interface PanelHba1cDistributionJson {
  measure_id: string;
  identifier: string;
  /** Patients counted: the sum of the bands' counts. */
  patients: number;
  bands: PanelHba1cBandJson[];
}

/** One month's point of a measure's trend: the measure over the 12 months ending on that month's last day. */
export interface PanelTrendPointJson {
  /** YYYY-MM. */
  month: string;
  period: PanelPeriodJson;
  numerator: number;
  /** The score's denominator (eligible patients, as on the Panel's card). */
  eligible: number;
  /** numerator / eligible, 0–1; null when no patient is eligible. */
  score: number | null;
}

export interface PanelTrendMeasureJson {
  id: string;
  identifier: string;
  title: string;
  /** `decrease`: a lower score is better (CMS122): a falling line is improvement. */
  improvement_notation: 'increase' | 'decrease';
  /** Oldest month first. */
  points: PanelTrendPointJson[];
}

/**
 * GET /api/panel/trend: each shipped measure's score at the end of each of the last 12 months, each
 * point a rolling 12-month measurement period, so every point covers a full year of care and points
 * compare with each other (a calendar year to date would restart every January).
 */
export interface PanelTrendJson {
  basis: 'rolling_12_months';
  /** The last month of the trend (YYYY-MM): the current month, its period ending on the month's last day. */
  through: string;
  patients: number;
  measures: PanelTrendMeasureJson[];
}

/** A resource that decided an input, as the record has it. */
export interface PanelEvidenceJson {
  resource_type: string;
  id: string | null;
  /** ISO date-time; null when the resource has no readable time. */
  at: string | null;
  /** What it is, from its code's display or text ("Hemoglobin A1c/Hemoglobin.total in Blood"); null when it has none. */
  what: string | null;
  /** The value read, with a readable unit ("10.2 %", "152 mmHg"); null for a resource without a value. */
  value: string | null;
}

/** One input of a measure for this patient: what was read from the record, and from which resources. */
export interface PanelInputJson {
  parameter_id: string;
  display_name: string;
  /** In words: "Yes", "No", "10.2 %", "Not determined". */
  answer: string;
  evidence: PanelEvidenceJson[];
  /** Resources that matched but could not be read, with why. */
  set_aside: string[];
}

export interface PanelPopulationJson {
  code: 'initial-population' | 'denominator' | 'denominator-exclusion' | 'numerator';
  label: string;
  /** true / false, or undetermined when the record leaves it open. */
  state: boolean | 'undetermined';
  /** The names of this population's rules that hold. */
  rules: string[];
  /** The inputs its rules read. */
  inputs: PanelInputJson[];
}

export interface PanelPatientMeasureJson {
  id: string;
  identifier: string;
  title: string;
  goal: string;
  /** null: the patient is not in the measure's initial population. */
  status: PanelStatus | null;
  reason: string;
  populations: PanelPopulationJson[];
  /** The published local version this was evaluated under; null: the CMS definition as shipped. */
  local_version: MeasureLocalVersionJson | null;
}

export interface PanelPatientJson {
  period: PanelPeriodJson;
  patient: { id: string; name: string; birth_date: string | null; age: number | null; gender: string | null };
  measures: PanelPatientMeasureJson[];
  /** The patient's results over time for the tests the measures read (HbA1c, blood pressure, kidney), oldest first. */
  histories: PanelHistoryJson[];
}

/** One test's results from the record, in one unit, with the cut-points a physician reads them against. */
export type PanelHistoryJson = ResultHistoryJson;

/**
 * One test's (or parameter's) results from the record, in one unit, with the cut-points a physician
 * reads them against: the Panel's histories, and those an assessment started from the record keeps.
 */
export interface ResultHistoryJson {
  title: string;
  /** Readable unit ("mmHg", "%"). */
  unit: string;
  /** In `unit`; `entered` is the result as the record gave it when it was in another unit ("75 mmol/mol"). */
  points: { at: string; value: number; entered?: string }[];
  thresholds: { value: number; label: string }[];
  /** Results of this test left out of the plot: another unit that cannot be converted, a comparator ("< 15"), no number. */
  not_plotted: number;
}

/** A one-time ticket for /clinical-form?prefill=… with the record's latest values (the CDS Hooks prefill's ticket). */
export interface PanelPrefillJson {
  /** The path to open: /clinical-form?prefill=<ticket>. */
  url: string;
  /** How many values the form will offer. */
  values: number;
}
