/**
 * Impact preview (issue 13): before a rule set's draft is published, how it reclassifies a
 * reference population. `POST /api/rule-sets/:id/impact-preview` computes and stores one; the
 * publish request names it (`impact_preview_id`), and it is kept with the version it led to.
 */
import type { Answers, ImpactCauseKind, RuleChange, RuleChangeDetail, RuleChangeField } from '@cds/engine';

export type { ImpactCauseKind };

/**
 * One rule of the draft that reads differently from the published version: added, removed, edited,
 * or the same rule read through a changed parameter, with each field old → new in words
 * ("BMI ≥ 30 kg/m² → BMI ≥ 27.5 kg/m²"; null on the side where the rule does not exist).
 */
export type RuleChangeJson = RuleChange;
export type RuleChangeDetailJson = RuleChangeDetail;
export type { RuleChangeField };

/** The reference populations, always in this order. */
export type ImpactGroupKey = 'assessments' | 'vignettes' | 'generated';

export const IMPACT_GROUP_KEYS: readonly ImpactGroupKey[] = ['assessments', 'vignettes', 'generated'];

/** A primary recommendation: the top finding's rule, as that side has it. */
export interface ImpactRuleRef {
  rule_id: string;
  rule_name: string;
  rule_set_name: string | null;
  severity: string;
}

export interface ImpactExampleJson {
  /** What the patient is: "Assessment of 2026-11-20", a vignette's name, "Generated patient 412". */
  label: string;
  /** The answers the patient was classified with, keyed by parameter id. */
  answers: Answers;
  /** The same answers by parameter display name, as a clinician reads them ("HbA1c": "6.7 %"). */
  values: { parameter: string; value: string }[];
}

export interface ImpactTransitionJson {
  /** Null: no finding. */
  from: ImpactRuleRef | null;
  to: ImpactRuleRef | null;
  /** The rule whose change moved these patients. */
  cause: ImpactRuleRef;
  cause_kind: ImpactCauseKind;
  count: number;
  /** A few of the patients (at most 5), in population order. */
  examples: ImpactExampleJson[];
}

/**
 * A finding publishing takes from (`lost`) or gives to (`gained`) patients, whatever its rank:
 * "Diabetes" lost by the 6.5–6.9 % patients when the A1C cut-point is raised to 7.0, even where a
 * hypertensive crisis stays their primary recommendation (issue 20).
 */
export interface ImpactFindingChangeJson {
  rule: ImpactRuleRef;
  change: 'lost' | 'gained';
  /** How that rule changed; `parameters` when its text did not (a parameter definition did). */
  cause_kind: ImpactCauseKind;
  count: number;
  /** Of `count`, patients whose primary recommendation stays the same (invisible in `transitions`). */
  same_primary: number;
  /** A few of the patients (at most 3), in population order. */
  examples: ImpactExampleJson[];
}

export interface ImpactGroupJson {
  key: ImpactGroupKey;
  label: string;
  patients: number;
  /** Patients whose primary recommendation changes. */
  changed: number;
  /** Most patients first, at most 100; `more_transitions` counts the smaller ones left out. */
  transitions: ImpactTransitionJson[];
  more_transitions: number;
  /** Patients who gain or lose any finding (absent in previews stored before it was recorded). */
  findings_changed?: number;
  /** Per rule and direction, most patients first, at most 25; `more_finding_changes` counts the rest. */
  finding_changes?: ImpactFindingChangeJson[];
  more_finding_changes?: number;
}

export interface ImpactPreviewJson {
  id: string;
  rule_set_id: string;
  /** Hash of the draft previewed; publishing with this preview is refused once the draft differs. */
  draft_hash: string;
  /** The published version compared against (null: never published, so every finding is new). */
  base_version: number | null;
  /** Seed and size of the generated population: the same seed draws the same patients. */
  seed: number;
  /** What the draft changes in this rule set's rules, per rule (empty for previews stored before it was recorded). */
  changes: RuleChangeJson[];
  groups: ImpactGroupJson[];
  /** Set once the draft was published with this preview. */
  version_id: string | null;
  version_number: number | null;
  created_by: string | null;
  created_by_email: string | null;
  created_at: string;
  /** Milliseconds the comparison took (all three groups). */
  elapsed_ms: number;
}
