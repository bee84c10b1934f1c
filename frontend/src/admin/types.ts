/**
 * Shapes of the admin API (shared/spec/api.md and the backend's *Json interfaces). The admin
 * console's types come from here only.
 */
import type { Role } from '../api/types';

export type { Role };

export interface UserRecord {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role: Role | null;
  status: 'active' | 'pending_approval';
  created_at: string;
}

export interface ApprovalRecord {
  id: string;
  user_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  current_role: Role | null;
  requested_role: Role;
  status: 'pending' | 'approved' | 'rejected';
  decided_by: string | null;
  decided_by_email: string | null;
  decided_at: string | null;
  reason: string | null;
  created_at: string;
}

export interface InvitationRecord {
  id: string;
  email: string;
  role: Role | null;
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
  /** Only in the answer to POST: the link is shown once. */
  url?: string;
  expires_at: string;
  created_at: string;
  accepted_at: string | null;
  invited_by_email: string | null;
}

export interface Stats {
  total_users: number;
  active_pcps: number;
  pending_approvals: number;
}

export type ActivityType =
  | 'signup'
  | 'access_requested'
  | 'approval_approved'
  | 'approval_rejected'
  | 'rule_set_published'
  | 'invitation_accepted';

export interface ActivityItem {
  id: string;
  type: ActivityType;
  at: string;
  actor_email: string | null;
  subject_email: string | null;
  summary: string;
}

export interface Health {
  status: 'ok' | 'degraded';
  database: 'up' | 'down';
  queue: 'up' | 'down';
  mode?: { database: string; queue: string };
  version?: string;
}

export interface PolishStatus {
  driver: 'bullmq' | 'in-process';
  provider: 'built-in' | 'llm';
  counts: { waiting: number; active: number; completed: number; failed: number; delayed: number };
}

export const DATA_TYPES = ['number', 'text', 'boolean', 'date', 'select', 'lab_range', 'time_based', 'vitals', 'calculated'] as const;
export type DataType = (typeof DATA_TYPES)[number];

export const CATEGORIES = ['demographics', 'vitals', 'labs', 'history', 'symptoms', 'other'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface ParameterRecord {
  id: string;
  name: string;
  display_name: string;
  description: string | null;
  data_type: DataType | string;
  category: Category | string;
  units: string | null;
  is_required: boolean;
  is_template: boolean;
  template_name: string | null;
  is_diabetes_specific: boolean;
  version: number;
  is_active: boolean;
  validation_rules: Record<string, unknown>;
  loinc_code: string | null;
  question_text: string;
  question_override: string | null;
  polished_question: string | null;
  polished_provider: string | null;
  polished_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export const CHANGE_TYPES = ['created', 'updated', 'deleted', 'activated', 'deactivated'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

export interface ParameterChangeRecord {
  id: string;
  parameter_id: string;
  parameter_name: string;
  change_type: ChangeType;
  old_values: Record<string, unknown> | null;
  new_values: Record<string, unknown> | null;
  changed_by: string | null;
  changed_by_email: string | null;
  changed_at: string;
  change_reason: string | null;
}

export interface RuleSetRecord {
  id: string;
  name: string;
  description: string | null;
  is_active: boolean;
  is_published: boolean;
  is_template: boolean;
  version: number;
  latest_version: number | null;
  published_at: string | null;
  rule_count: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export type LogicOperator = 'AND' | 'OR';

export interface Condition {
  id?: string;
  type?: 'parameter';
  parameter: string;
  operator: string;
  value: unknown;
  logic?: LogicOperator;
}

export const ACTION_TYPES = ['alert', 'recommendation', 'warning', 'notification', 'referral', 'medication', 'lifestyle', 'monitoring'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
export const ACTION_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type ActionSeverity = (typeof ACTION_SEVERITIES)[number];

export interface Action {
  id?: string;
  type: ActionType | string;
  severity?: ActionSeverity | string;
  message: string;
  value?: string;
}

export interface RuleRecord {
  id: string;
  rule_set_id: string;
  name: string;
  description: string;
  priority: number;
  conditions: Condition[];
  actions: Action[];
  is_active: boolean;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export type Outcome = true | false | 'unknown';

export interface ConditionTrace {
  index: number;
  group: number;
  parameter: string;
  parameter_id: string | null;
  parameter_name: string | null;
  operator: string;
  canonical_operator: string | null;
  threshold: unknown;
  value: unknown;
  result: Outcome | 'skipped';
  reason?: string;
}

export interface RuleTestResult {
  rule_id: string;
  outcome: Outcome;
  matched: boolean;
  trace: ConditionTrace[];
  actions: Action[];
}

export interface TestCaseRecord {
  id: string;
  rule_id: string;
  name: string;
  answers: Record<string, unknown>;
  expected_outcome: Outcome;
  reference_date: string | null;
  actual_outcome: Outcome;
  passed: boolean;
  created_at: string;
  updated_at: string;
}

export type FindingSeverity = 'error' | 'warning' | 'info';

export interface Finding {
  code: string;
  severity: FindingSeverity;
  rule_ids: string[];
  parameter_id?: string;
  message: string;
}

export interface AnalysisResult {
  rule_set_id: string;
  source: 'saved' | 'draft';
  rule_count: number;
  summary: Record<FindingSeverity, number>;
  findings: Finding[];
}

export interface DraftRule {
  id?: string;
  name: string;
  description?: string | null;
  priority?: number;
  conditions: Condition[];
  actions?: Action[];
  is_active?: boolean;
}

export interface EngineRuleSnapshot {
  id: string;
  name: string;
  description?: string | null;
  priority: number;
  conditions: Condition[];
  actions: Action[];
}

export interface ChangedRule {
  id: string;
  name: string;
  fields: string[];
  before: EngineRuleSnapshot;
  after: EngineRuleSnapshot;
}

export interface DiffResult {
  rule_set_id: string;
  from: { number: number | null; draft: boolean; content_hash: string; published_at: string | null } | null;
  to: { number: number | null; draft: boolean; content_hash: string; published_at: string | null };
  has_changes: boolean;
  added: EngineRuleSnapshot[];
  removed: EngineRuleSnapshot[];
  changed: ChangedRule[];
  unchanged: number;
  parameters: {
    added: Array<{ id: string; name: string; display_name: string }>;
    removed: Array<{ id: string; name: string; display_name: string }>;
    changed: Array<{ id: string; name: string; fields: string[] }>;
  };
}

export interface VersionSummary {
  id: string;
  rule_set_id: string;
  number: number;
  name: string;
  rule_count: number;
  published_by_email: string | null;
  published_at: string;
}

export interface RuleFigures {
  rule_id: string;
  rule_name: string;
  matches: number;
  /** matches / completed assessments that evaluated the set; null when there were none. */
  share: number | null;
}

export interface PeriodFigures {
  start: string;
  end: string;
  completed: number;
  matched: number;
  matched_by_other_sets: number;
  no_match: number;
  no_match_rate: number | null;
  rules: RuleFigures[];
}

export type AnalyticsPeriod = 'day' | 'week' | 'month';

/** GET /api/rule-sets/:id/analytics: hit rates of the published rules and the no-match rate. */
export interface RuleSetAnalytics {
  rule_set_id: string;
  latest_version: number | null;
  period: AnalyticsPeriod;
  from: string;
  to: string;
  totals: Omit<PeriodFigures, 'start' | 'end'>;
  periods: PeriodFigures[];
}
