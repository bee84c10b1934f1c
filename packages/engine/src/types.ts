import type { PreparedRuleSet } from './prepared';

export type DataType = 'number' | 'text' | 'boolean' | 'date' | 'select' | 'lab_range' | 'time_based' | 'vitals' | 'calculated';

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
  /** Citation of the guideline the rule follows, shown on its finding. */
  source?: string | null;
}

/**
 * A band or interval answer. `null` is an open end. Absent inclusivity flags mean inclusive, so
 * answers stored before the flags existed ({min, max}) still read as the closed interval.
 */
export type RangeAnswer = {
  type: 'range';
  min: number | null;
  max: number | null;
  min_inclusive?: boolean;
  max_inclusive?: boolean;
};
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

/** Severity of an action or a finding, most severe first. */
export type SeverityLevel = 'critical' | 'high' | 'medium' | 'low';

/** Typed entry of a numeric question (matches `NumericInputJson` in @cds/contracts). */
export interface NumericInput {
  kind: 'number';
  /** UCUM code of the parameter's unit. */
  unit: string | null;
  unit_display: string | null;
  /** The parameter's unit first, then validation_rules.units_accepted. */
  units_accepted: { code: string; display: string }[];
  min: number | null;
  max: number | null;
  decimals: number | null;
}

/** One question, as both strategies ask it (matches `QuestionJson` in @cds/contracts, plus extras). */
export interface EngineQuestion {
  parameter_id: string;
  name: string;
  /** Same as `name`; kept for callers written against the older shape. */
  parameter_name: string;
  display_name: string;
  text: string;
  units: string | null;
  data_type: string;
  input?: NumericInput;
  /** Bands / Yes-No / configured options; always ends with Not available. */
  options: AnswerOption[];
  /** Set when the parameter is asked again because the band given straddles a rule's threshold. */
  exact_value_requested?: boolean;
  exact_value_reason?: string;
}

export interface EvaluationOptions {
  /** Reference time for within_days. Without it within_days is unknown, never guessed. */
  now?: Date | number | string;
  /**
   * 'unknown' (default, both strategies): an unanswered condition is unknown.
   * 'skip': an unanswered condition is not checked at all. No strategy uses it any more (a
   * question that could not be asked is unknown, never satisfied); kept for the compiler's
   * property tests and older callers.
   */
  unanswered?: 'unknown' | 'skip';
}

export interface ClinicalStepOptions extends Omit<EvaluationOptions, 'unanswered'> {
  /**
   * Parameter ids already asked again for their exact value (the caller records every question
   * returned with `exact_value_requested`). A second non-exact answer then stays unknown instead
   * of being asked a third time.
   */
  exactValueRequested?: readonly string[];
  /** These rules and parameters prepared once (prepareRuleSet); ignored unless made from the same arrays. */
  prepared?: PreparedRuleSet;
}

/** Why a condition is not simply true or false. */
export type ConditionReason =
  | 'missing_answer'
  | 'unknown_answer'
  | 'uninterpretable_answer'
  | 'unknown_operator'
  | 'invalid_threshold'
  | 'no_reference_time'
  | 'not_checked'
  /** An interval answer (band) with values on both sides of the threshold. */
  | 'straddles_threshold';

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

/** One condition that held, with the answer as given (a number, a band, true/false, ...). */
export interface BasisItem {
  parameter_id: string | null;
  parameter_name: string | null;
  /** Always set by the engine (optional only so older callers that build basis items still compile). */
  display_name?: string | null;
  /** UCUM code of the parameter's unit. Always set by the engine. */
  units?: string | null;
  /** Canonical operator name (greater_equal, ...). */
  operator: string;
  /** The operator as people read it (≥, <, =, ...). Always set by the engine. */
  operator_symbol?: string;
  threshold: unknown;
  value: unknown;
}

/** A condition the answers made false, in a rule they ruled out (a result with no finding says these). */
export interface RuledOutItem {
  parameter_id: string | null;
  parameter_name: string | null;
  display_name: string;
  /** UCUM code of the parameter's unit. */
  units: string | null;
  /** Canonical operator of the condition that is false. */
  operator: string;
  threshold: unknown;
  value: unknown;
  /** The rules this condition ruled out, by name. */
  rule_names: string[];
  /** "HbA1c 5.2 % is below 5.7 %". */
  statement: string;
}

export type MissingReason =
  'missing_answer' | 'unknown_answer' | 'uninterpretable_answer' | 'straddles_threshold' | 'no_reference_time' | 'cannot_be_asked';

export interface MissingInput {
  parameter_id: string | null;
  parameter_name: string | null;
  display_name: string | null;
  /** Why it is unknown: never answered, "Not available", a band across the threshold, ... */
  reason: MissingReason;
}

export interface UndeterminedRule {
  rule_id: string;
  rule_name: string;
  rule_version?: number;
  priority: number;
  severity: SeverityLevel;
  /** Inputs whose value is unknown in a part of the rule that could still decide it. */
  unknown_parameters: MissingInput[];
}

/** A rule that fired: one card. Also the primary recommendation (the first card). */
export interface Recommendation {
  rule_id: string;
  rule_name: string;
  rule_version?: number;
  rule_set_id?: string;
  description: string | null;
  priority: number;
  /** The most severe of the rule's actions (an action without severity is medium). */
  severity: SeverityLevel;
  actions: Action[];
  basis: BasisItem[];
  source: string | null;
  /** Rules ranked above this one that could not be decided. */
  undetermined_higher_rules?: UndeterminedRule[];
}

/** Same shape as Recommendation: every fired rule is a finding, the first one is the recommendation. */
export type RuleFinding = Recommendation;

export interface ClinicalQuestionStep {
  status: 'question';
  parameter_id: string;
  parameter_name: string;
  display_name: string;
  text: string;
  options: AnswerOption[];
  /** The full question (units, typed input, exact-value request). */
  question: EngineQuestion;
  input?: NumericInput;
  exact_value_requested?: boolean;
  exact_value_reason?: string;
  log: LogEntry[];
}

export interface ClinicalCompletedStep {
  status: 'completed';
  /** findings[0], or null when no rule fired. */
  recommendation: Recommendation | null;
  /** Every rule that fired: critical, then high, then the rest; each tier in ranking order. */
  findings: RuleFinding[];
  /** Every rule still undecided when the assessment ended, with its missing inputs. */
  undetermined_rules: UndeterminedRule[];
  /** With no finding: the conditions the answers made false (empty when a rule fired). */
  ruled_out: RuledOutItem[];
  log: LogEntry[];
}

export type ClinicalStep = ClinicalQuestionStep | ClinicalCompletedStep;

export type ChatQuestion = EngineQuestion;

export interface ChatMatch {
  rule: EngineRule;
  trace: ConditionTrace[];
  /** The rule as a finding card (severity, actions, basis). */
  finding: RuleFinding;
}

/** One button of the multiple-match choice: enough to see what each choice means. */
export interface ChatChoiceOption {
  /** Rule name. */
  label: string;
  /** Rule id. */
  value: string;
  severity: SeverityLevel;
  actions: Action[];
  basis: BasisItem[];
}

export type ChatStep =
  | { status: 'question'; question: ChatQuestion }
  | {
      status: 'choice';
      message: string;
      options: ChatChoiceOption[];
      /** Fired rules in finding order (critical, high, then the rest). */
      matches: ChatMatch[];
      undetermined_rules: UndeterminedRule[];
    }
  | {
      status: 'completed';
      message: string;
      rule: EngineRule | null;
      /** The chosen (or only) finding; null when no rule fired. */
      finding: RuleFinding | null;
      final_recommendations: Action[];
      /** Every other finding, in finding order: a choice can never hide one. */
      other_findings: RuleFinding[];
      /** Every fired rule, in finding order. */
      findings: RuleFinding[];
      matches: ChatMatch[];
      undetermined_rules: UndeterminedRule[];
      /** With no finding: the conditions the answers made false (empty when a rule fired). */
      ruled_out: RuledOutItem[];
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
  | 'cut_point_overlap'
  /** A range of a parameter where the published version gave a finding and the draft gives none. */
  | 'uncovered_band';

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
