/** Rule sets, rules, test cases, analysis, versions and diffs (the admin console's rule designer). */
import type { Action, Answers, BoundaryVignette, Condition, ConditionTrace, EngineParameter, EngineRule, Finding } from '@cds/engine';

import type { WarningAcknowledgementJson } from './clinical';

export type { Action, Condition, ConditionTrace, EngineParameter, EngineRule, Finding };

export const ACTION_TYPES = [
  'alert',
  'recommendation',
  'warning',
  'notification',
  'referral',
  'medication',
  'lifestyle',
  'monitoring',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
export const ACTION_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type ActionSeverity = (typeof ACTION_SEVERITIES)[number];
export type LogicOperator = 'AND' | 'OR';

/** Fields `PUT /api/rules/:id` and `PUT /api/rule-sets/:id` accept; others are refused with 400. */
export const RULE_WRITABLE_FIELDS = [
  'rule_set_id',
  'name',
  'description',
  'source',
  'priority',
  'conditions',
  'actions',
  'is_active',
] as const;
export const RULE_SET_WRITABLE_FIELDS = ['name', 'description', 'source', 'is_template', 'is_active'] as const;
/** Keys a stored condition and action may carry; editor-only keys are not sent. */
export const CONDITION_KEYS = ['id', 'type', 'parameter', 'operator', 'value', 'logic'] as const;
export const ACTION_KEYS = ['id', 'type', 'severity', 'message', 'value'] as const;

export type Outcome = true | false | 'unknown';

export interface RuleSetJson {
  id: string;
  name: string;
  description: string | null;
  /** Citation of the guideline the set follows; a rule without its own source cites this. */
  source: string | null;
  is_active: boolean;
  is_published: boolean;
  is_template: boolean;
  /** The latest published version's number (1 before the first publish). */
  version: number;
  latest_version: number | null;
  published_at: string | null;
  rule_count: number;
  /** A template whose content ships with the product (installed by from-template); null otherwise. */
  content_pack?: ContentPackJson | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** What `POST /api/rule-sets/from-template` installs from a shipped content pack. */
export interface ContentPackJson {
  key: string;
  rule_count: number;
  /** Parameters its rules read: created from the parameter templates, or existing ones reused (matched by LOINC code, else name). */
  parameter_count: number;
  /** Vignettes installed with it; like any set's, they must pass before it publishes. */
  vignette_count: number;
}

export interface RuleJson {
  id: string;
  rule_set_id: string;
  name: string;
  description: string;
  /** Citation of the guideline the rule follows. */
  source: string | null;
  priority: number;
  conditions: Condition[];
  actions: Action[];
  is_active: boolean;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** `POST /api/rules/:id/test`. */
export interface RuleTestResultJson {
  rule_id: string;
  outcome: Outcome;
  matched: boolean;
  trace: ConditionTrace[];
  /** The rule's actions when it matches; empty otherwise. */
  actions: Action[];
}

export interface TestCaseJson {
  id: string;
  rule_id: string;
  name: string;
  answers: Record<string, unknown>;
  expected_outcome: Outcome;
  reference_date: string | null;
  /** Run against the rule as it is now. */
  actual_outcome: Outcome;
  passed: boolean;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** A rule as the designer holds it before saving (`POST /api/rule-sets/:id/analyze`). */
export interface DraftRule {
  id?: string;
  name: string;
  description?: string | null;
  priority?: number;
  conditions: Condition[];
  actions?: Action[];
  is_active?: boolean;
}

export interface AnalysisJson {
  rule_set_id: string;
  source: 'saved' | 'draft';
  rule_count: number;
  summary: { error: number; warning: number; info: number };
  findings: Finding[];
  /** The other active published rule sets analysed with this one. */
  combined_with: { id: string; name: string }[];
}

export interface VersionSummaryJson {
  id: string;
  rule_set_id: string;
  number: number;
  name: string;
  content_hash: string;
  rule_count: number;
  published_by: string | null;
  published_by_email: string | null;
  published_at: string;
  /** Citation of the guideline the set follows, as published. */
  source: string | null;
  /** Present when warnings were acknowledged to publish this version. */
  warning_acknowledgement: WarningAcknowledgementJson | null;
}

export interface VersionJson extends VersionSummaryJson {
  rules: EngineRule[];
  parameters: EngineParameter[];
}

export interface Changed<T> {
  id: string;
  name: string;
  fields: string[];
  before: T;
  after: T;
}

export interface ContentDiff {
  added: EngineRule[];
  removed: EngineRule[];
  changed: Changed<EngineRule>[];
  unchanged: number;
  parameters: { added: EngineParameter[]; removed: EngineParameter[]; changed: Changed<EngineParameter>[] };
}

export interface DiffSide {
  number: number | null;
  draft: boolean;
  content_hash: string;
  published_at: string | null;
}

/** `GET /api/rule-sets/:id/diff?from=&to=`. */
export interface DiffJson extends ContentDiff {
  rule_set_id: string;
  from: DiffSide | null;
  to: DiffSide;
  has_changes: boolean;
}

// ---- analytics (`GET /api/rule-sets/:id/analytics`) ----

export const ANALYTICS_PERIODS = ['day', 'week', 'month'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];

export interface RuleFigures {
  rule_id: string;
  rule_name: string;
  /** Completed assessments in which this rule fired (any finding, not only the primary one). */
  matches: number;
  /** ... of which it was the primary recommendation (findings[0]). */
  primary_matches: number;
  /** matches / completed assessments that evaluated the set; null when there were none. Several rules may fire at once. */
  share: number | null;
}

export interface PeriodFigures {
  start: string;
  end: string;
  /** Completed assessments that evaluated this rule set. */
  completed: number;
  /** ... in which at least one rule of this set fired. */
  matched: number;
  /** ... in which only rules of other sets evaluated alongside it fired. */
  matched_by_other_sets: number;
  /** ... that ended with no finding at all. */
  no_match: number;
  no_match_rate: number | null;
  rules: RuleFigures[];
}

/** EHR feedback on the CDS Hooks cards of one rule version (issue 11), over the range's cards. */
export interface RuleVersionFeedback {
  rule_id: string;
  rule_name: string;
  rule_version: number;
  /** Cards returned to EHRs for this rule version. */
  cards: number;
  accepted: number;
  overridden: number;
  /** accepted / (accepted + overridden); null without feedback. */
  acceptance_rate: number | null;
  /** overridden / (accepted + overridden); null without feedback. */
  override_rate: number | null;
}

/** Hit rates of the published rules and the no-match rate. */
export interface RuleSetAnalytics {
  rule_set_id: string;
  latest_version: number | null;
  period: AnalyticsPeriod;
  from: string;
  to: string;
  totals: Omit<PeriodFigures, 'start' | 'end'>;
  periods: PeriodFigures[];
  /** CDS Hooks cards of this set's rules and the EHRs' feedback, per rule version. */
  cds_feedback: RuleVersionFeedback[];
}

// ---- publishing gate and vignettes (`/api/rule-sets/:id/publish-check`, `/run`, `/boundary-vignettes`, `/test-cases`) ----

/** A rule a vignette fired (or left undetermined), with the rule set it belongs to. */
export interface FiredRuleJson {
  rule_id: string;
  rule_name: string;
  rule_set_id: string | null;
  rule_set_name: string | null;
  severity: string;
  priority: number;
}

export interface VignetteRunJson {
  fired: FiredRuleJson[];
  primary: FiredRuleJson | null;
  undetermined: FiredRuleJson[];
}

/** A rule-set test case (vignette) with its result on what a PCP would get now. */
export interface VignetteJson {
  id: string;
  rule_set_id: string;
  name: string;
  answers: Answers;
  expected_fired: string[];
  expected_primary: string | null;
  reference_date: string | null;
  /** Run against the combination as it is now. */
  actual: VignetteRunJson;
  passed: boolean;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** t − one step, t or t + one step at a cut-point the set's rules use, with its result. */
export interface BoundaryVignetteJson extends Omit<BoundaryVignette, 'result'> {
  result: VignetteRunJson;
}

export interface FailingVignetteJson {
  test_case_id: string;
  test_case_name: string;
  rule_set_id: string;
  rule_set_name: string;
  expected_fired: string[];
  expected_primary: string | null;
  actual: VignetteRunJson;
}

export interface TestCaseFailureJson {
  rule_id: string;
  rule_name: string;
  test_case_id: string;
  test_case_name: string;
  expected_outcome: Outcome;
  actual_outcome: Outcome;
}

export interface PublishCheckJson {
  rule_set_id: string;
  rule_count: number;
  /** False when the draft is what the latest version holds: nothing to publish. */
  has_changes: boolean;
  latest_version: number | null;
  /** The rule sets analysed together: every other active published set and this one. */
  combined_rule_sets: { id: string; name: string }[];
  /** Block publishing. */
  errors: Finding[];
  /** Need an acknowledgement with a reason. */
  warnings: Finding[];
  failing_vignettes: FailingVignetteJson[];
  failing_test_cases: TestCaseFailureJson[];
}
