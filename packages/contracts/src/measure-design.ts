import type { ConformanceCaseJson } from './measure-runs';
import type { Finding } from './rules';
import type { MeasureVersionDetailJson, MeasureVersionJson } from './measure-versions';

/** One shipped measure in the designer's list (`GET /api/measures/designs`). */
export interface MeasureDesignSummaryJson {
  id: string;
  identifier: string;
  title: string;
  /** The version stored results are computed under now (model and loaded value-set codes hashed). */
  version: string;
  /** true when the loaded value sets differ from the ones the product ships with. */
  changed_since_shipped: boolean;
  rule_count: number;
  criterion_count: number;
  findings: { error: number; warning: number; info: number };
  /** The official cases: how many agree, of how many (0 of 0 when the decks are not installed). */
  vignettes: { agreed: number; total: number };
  /** The published version ("1 (CMS as shipped)", "2 (local)"), and whether a draft is saved. */
  published_version: string;
  has_draft: boolean;
}

/** One condition of a population rule, in a physician's words ("Age at the end of the measurement period ≥ 18 years"). */
export interface MeasureConditionJson {
  parameter_id: string;
  /** The engine's operator and value, as a draft sends them back. */
  operator: string;
  value: unknown;
  text: string;
}

export interface MeasureRuleJson {
  id: string;
  name: string;
  /** Every condition must hold (the conditions joined as the engine reads them). */
  text: string;
  conditions: MeasureConditionJson[];
}

/** A population as a rule group: a patient is in it when any of its rules holds. */
export interface MeasurePopulationJson {
  code: string;
  label: string;
  /** How the population follows from the others (proportion scoring), in words. */
  meaning: string;
  rules: MeasureRuleJson[];
}

export interface MeasureValueSetJson {
  url: string;
  oid: string;
  /** The value set's title where known ("Diabetes"), else its OID. */
  title: string;
  /** Codes in the expansion loaded now, and in the one shipped (null when the product ships none). */
  codes: number;
  shipped_codes: number | null;
  added: number;
  removed: number;
}

/** One way a criterion reads the record (a criterion with "any of" has several). */
export interface MeasureCriterionPartJson {
  resource_type: string;
  value_sets: { oid: string; title: string }[];
  codes: string[];
  statuses: string[];
  /** The window in words ("overlaps the measurement period", "ends during the measurement period or the year before"). */
  window: string;
  /** What is taken from the matching resources ("exists", "lowest_on_latest_day", "age"…). */
  take: string;
}

/** A parameter the measure reads from the record: its criterion, unit and which rules use it. */
export interface MeasureCriterionJson {
  id: string;
  display_name: string;
  data_type: string;
  /** The unit as a physician reads it ("%", "mmHg", "years"); null for a yes/no. */
  unit: string | null;
  /** The whole criterion in words. */
  text: string;
  parts: MeasureCriterionPartJson[];
  used_by: string[];
}

/** `GET /api/measures/designs/:id`: a shipped measure as a rule set of the product's own model, read only. */
export interface MeasureDesignJson {
  id: string;
  identifier: string;
  title: string;
  source: string;
  improvement_notation: 'increase' | 'decrease';
  goal: string;
  score_meaning: string;
  /** The period is a parameter of each evaluation; the Panel and runs default to the current calendar year. */
  measurement_period: { default: 'calendar_year'; start: string; end: string; text: string };
  version: {
    /** The version stored results are computed under now. */
    hash: string;
    /** The version with the value sets the product ships with. */
    shipped_hash: string;
    /** What makes the current version differ from the shipped one, in words (empty when they are the same). */
    changes: string[];
    value_sets: MeasureValueSetJson[];
  };
  populations: MeasurePopulationJson[];
  criteria: MeasureCriterionJson[];
  /** The designer's static analysis, run on each population's rules. */
  analysis: { summary: { error: number; warning: number; info: number }; findings: (Finding & { population: string })[] };
  /** The official test cases as the measure's vignettes: expected and computed populations (of the shipped version). */
  vignettes: { available: boolean; deck: string | null; agreed: number; total: number; cases: ConformanceCaseJson[] };
  /** The version shown above: the published one (version 1 is the CMS definition as shipped). */
  published: MeasureVersionJson;
  /** The measure's saved draft, if any (at most one). */
  draft: MeasureVersionDetailJson | null;
}

/** One population rule of a measure draft: every condition must hold. */
export interface MeasureDraftRuleJson {
  /** Kept when it names a rule of the measure; a new rule may leave it out. */
  id?: string;
  name: string;
  /** initial-population, denominator, denominator-exclusion, denominator-exception, numerator or numerator-exclusion. */
  population: string;
  conditions: { parameter: string; operator: string; value: unknown }[];
}

/** `POST /api/measures/designs/:id/impact`: a draft of the measure's population rules, over the stored records. */
export interface MeasureDraftRequestJson {
  /** Every population rule of the draft (the measure's record criteria are kept as they are). */
  rules: MeasureDraftRuleJson[];
  /** The measurement period, both or neither (default the current calendar year). */
  periodStart?: string;
  periodEnd?: string;
}

/** A patient whose populations differ under the draft. */
export interface MeasureImpactPatientJson {
  patient_id: string;
  name: string;
  /** Each of initial-population, denominator, denominator-exclusion, numerator: true, false or "unknown". */
  before: Record<string, boolean | 'unknown'>;
  after: Record<string, boolean | 'unknown'>;
  /** In words: "Numerator: Yes → No". */
  changes: string[];
}

/** Which stored patients would change population if the draft were published, and the draft's analysis. */
export interface MeasureImpactJson {
  measure_id: string;
  period: { start: string; end: string };
  /** The version results are computed under now, and the one the draft would be (every stored result would go stale). */
  versions: { current: string; draft: string };
  analysis: { summary: { error: number; warning: number; info: number }; findings: (Finding & { population: string })[] };
  patients: number;
  /**
   * Where the measure as it is was read for each patient: `stored`, a stored result current for its version and the
   * period (a measure run's, or the Panel's: only the draft is evaluated for them); `evaluated`, evaluated now.
   */
  current_from: { stored: number; evaluated: number };
  changed: number;
  counts: { population: string; label: string; before: number; after: number }[];
  /** The patients who change, up to 200 (`changed` counts them all). */
  changed_patients: MeasureImpactPatientJson[];
}
