export type DataType =
  | 'number'
  | 'text'
  | 'boolean'
  | 'date'
  | 'select'
  | 'lab_range'
  | 'time_based'
  | 'vitals'
  | 'calculated';

export interface EngineParameter {
  id: string;
  name: string;
  display_name: string;
  data_type: string;
  units?: string | null;
  validation_rules?: Record<string, unknown> | null;
  is_active?: boolean;
}

export interface Condition {
  id?: string;
  type?: 'parameter';
  parameter: string;
  operator: string;
  value: unknown;
  logic?: 'AND' | 'OR';
}

export interface Action {
  id?: string;
  type: string;
  severity?: string;
  message: string;
  value?: string;
}

export interface EngineRule {
  id: string;
  name: string;
  description?: string | null;
  priority: number;
  conditions: Condition[];
  actions: Action[];
  version?: number;
  rule_set_id?: string;
}

export type RangeAnswer = { type: 'range'; min: number; max: number };
export type AnswerValue = number | string | boolean | RangeAnswer | null;
/** Keyed by parameter id. */
export type Answers = Record<string, AnswerValue>;
export type Tri = true | false | 'unknown';

/** The value an option submits when the honest answer is "not known". */
export const UNKNOWN_ANSWER = 'unknown';

export type CanonicalOperator =
  | 'equals'
  | 'not_equals'
  | 'greater_than'
  | 'less_than'
  | 'greater_equal'
  | 'less_equal'
  | 'contains'
  | 'starts_with'
  | 'ends_with'
  | 'before'
  | 'after'
  | 'within_days';

export type LogicOperator = 'AND' | 'OR';

export interface AnswerOption {
  label: string;
  value: AnswerValue | 'unknown';
}

export interface EvaluationOptions {
  /** Reference time for within_days. Without it within_days is unknown, never guessed. */
  now?: Date | number | string;
  /**
   * 'unknown' (default, clinical): an unanswered condition is unknown.
   * 'skip' (chat assistant): an unanswered condition is not checked at all.
   */
  unanswered?: 'unknown' | 'skip';
}

/** Why a condition is not simply true or false. */
export type ConditionReason =
  | 'missing_answer'
  | 'unknown_answer'
  | 'uninterpretable_answer'
  | 'unknown_operator'
  | 'invalid_threshold'
  | 'no_reference_time'
  | 'not_checked';

export interface ConditionTrace {
  index: number;
  /** Conditions joined by AND share a group; groups are joined by OR. */
  group: number;
  /** The reference as written in the rule. */
  parameter: string;
  parameter_id: string | null;
  parameter_name: string | null;
  operator: string;
  canonical_operator: CanonicalOperator | null;
  threshold: unknown;
  /** The answer given, or null when there is none. */
  value: unknown;
  /** 'skipped' only when unanswered conditions are not checked (chat assistant). */
  result: Tri | 'skipped';
  reason?: ConditionReason;
}

export interface RuleEvaluation {
  result: Tri;
  trace: ConditionTrace[];
}

export type LogType = 'info' | 'success' | 'warning' | 'error';

export interface LogEntry {
  type: LogType;
  message: string;
  data?: unknown;
}

export interface BasisItem {
  parameter_id: string | null;
  parameter_name: string | null;
  operator: string;
  threshold: unknown;
  value: unknown;
}

export interface UndeterminedRule {
  rule_id: string;
  rule_name: string;
  /** Parameters whose value is unknown in a part of the rule that could still decide it. */
  unknown_parameters: { parameter_id: string | null; parameter_name: string | null }[];
}

export interface Recommendation {
  rule_id: string;
  rule_name: string;
  rule_version?: number;
  actions: Action[];
  severity: string;
  basis: BasisItem[];
  /** Rules ranked above the recommended one that could not be decided. */
  undetermined_higher_rules?: UndeterminedRule[];
}

export interface ClinicalQuestionStep {
  status: 'question';
  parameter_id: string;
  parameter_name: string;
  display_name: string;
  text: string;
  options: AnswerOption[];
  log: LogEntry[];
}

export interface ClinicalCompletedStep {
  status: 'completed';
  recommendation: Recommendation | null;
  /** Rules that could not be decided when the assessment ended (shown to the clinician). */
  undetermined_rules: UndeterminedRule[];
  log: LogEntry[];
}

export type ClinicalStep = ClinicalQuestionStep | ClinicalCompletedStep;

export interface ChatQuestion {
  parameter_id: string;
  parameter_name: string;
  display_name: string;
  text: string;
  options: AnswerOption[];
}

export interface ChatMatch {
  rule: EngineRule;
  trace: ConditionTrace[];
}

export type ChatStep =
  | { status: 'question'; question: ChatQuestion }
  | {
      status: 'choice';
      message: string;
      /** label: rule name, value: rule id */
      options: { label: string; value: string }[];
      matches: ChatMatch[];
    }
  | {
      status: 'completed';
      message: string;
      rule: EngineRule | null;
      final_recommendations: Action[];
      matches: ChatMatch[];
    };

export type Severity = 'error' | 'warning' | 'info';

export type FindingCode =
  | 'no_conditions'
  | 'no_actions'
  | 'unsatisfiable_rule'
  | 'partly_unsatisfiable_rule'
  | 'duplicate_rule'
  | 'shadowed_rule'
  | 'missing_parameter'
  | 'inactive_parameter'
  | 'ambiguous_parameter'
  | 'parameter_by_name'
  | 'unknown_operator'
  | 'operator_invalid_for_type'
  | 'invalid_value'
  | 'invalid_logic'
  | 'cut_point_gap'
  | 'cut_point_overlap';

export interface Finding {
  code: FindingCode;
  severity: Severity;
  rule_ids: string[];
  parameter_id?: string;
  message: string;
}

export interface ValidationError {
  field: 'parameter' | 'operator' | 'value' | 'logic';
  message: string;
}
