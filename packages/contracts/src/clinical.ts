/**
 * Answers, questions and results of the Clinical Assessment and the Diagnostic Assistant.
 * Written once here; the API returns these shapes and the web app reads them.
 * (Issue 9: what the clinician enters is stored and shown as entered; every finding is shown.)
 */
import type { Answers, NumericInput } from '@cds/engine';
import type { RecordPatientJson } from './cds-hooks';
import type { ResultHistoryJson } from './panel';

/** A band chosen from the partition: an interval, never a representative point. `null` = open end. */
export interface RangeValue {
  type: 'range';
  min: number | null;
  max: number | null;
  min_inclusive: boolean;
  max_inclusive: boolean;
}

/** The sentinel an answer carries when the value is not available. Unknown, never false. */
export const NOT_AVAILABLE = 'unknown' as const;
export const NOT_AVAILABLE_LABEL = 'Not available';

/**
 * What a client sends as an answer value:
 * - a measured number (in the parameter's unit, or in `unit` when the parameter lists it);
 * - a band (`RangeValue`);
 * - `'unknown'` (not available);
 * - `true`/`false` for booleans, an option value for selects, text or an ISO date otherwise.
 */
export type AnswerInput = number | string | boolean | RangeValue;

/** `POST /api/assessments/:id/answers` and `POST /api/chat-sessions/:id/answers`. */
export interface AnswerRequest {
  parameter_id: string;
  value: AnswerInput;
  /** UCUM code of the unit the value was typed in; one of `input.units_accepted`. Default: the parameter's unit. */
  unit?: string;
  /** When the value was measured (ISO date or date-time). */
  observed_at?: string;
  /**
   * The value is one offered from the assessment's record context (the stored record, or the EHR),
   * confirmed unchanged; 400 when the assessment was not started with values from there.
   */
  confirmed_from?: 'record' | 'ehr';
  /** The step the question was shown at; a different current step is 409 `stale_step`. */
  step?: number;
}

export interface AnswerOptionJson {
  label: string;
  value: AnswerInput;
}

/** Typed entry of a numeric question: the engine's `NumericInput` (unit, units accepted, limits, decimals). */
export type NumericInputJson = NumericInput;

export interface QuestionJson {
  parameter_id: string;
  name: string;
  display_name: string;
  text: string;
  /** UCUM code of the parameter's unit (null when it has none). */
  units: string | null;
  data_type: string;
  /** Present for numeric questions (number, lab_range, vitals, calculated). */
  input?: NumericInputJson;
  /** Bands that partition the line at every cut-point, or Yes/No, or the configured options; always ends with Not available. */
  options: AnswerOptionJson[];
}

export type EnteredAs = 'typed' | 'band' | 'option' | 'not_available';

/** One answer as stored and shown: the value as entered, never a stand-in. */
export interface AnswerDetailJson {
  parameter_id: string;
  parameter_name: string;
  display_name: string;
  /** UCUM code of the parameter's unit. */
  units: string | null;
  /** The value in the parameter's unit (a number, a band, true/false, an option value, or 'unknown'). */
  value: AnswerInput;
  /** UCUM code of the unit the clinician typed the value in (may differ from `units`). */
  unit: string | null;
  /** The value (or band) as typed, in `unit`, when it was converted. */
  entered_value?: number | RangeValue | null;
  /**
   * Decimal places the parameter is recorded at (declared, else its thresholds' precision), sent with a
   * converted value so it can be shown at one place finer; absent on answers stored before it was sent.
   */
  decimals?: number | null;
  entered_as: EnteredAs;
  /** What the clinician saw: the band's or option's label, or the typed value with its unit. */
  label: string;
  observed_at?: string | null;
  /**
   * Set when the clinician confirmed, unchanged, a value offered from the clinic's stored record (the
   * Panel) or from the EHR (a CDS card); absent when they typed or chose it themselves.
   */
  confirmed_from?: 'record' | 'ehr';
  answered_at: string;
}

export type SeverityLevel = 'critical' | 'high' | 'medium' | 'low';

export interface ActionJson {
  type: string;
  severity: string;
  message: string;
  value: string | null;
}

/** One condition of a fired rule and the answer that satisfied it. */
export interface BasisJson {
  parameter_id: string | null;
  parameter_name: string | null;
  display_name: string | null;
  /** UCUM code. */
  units: string | null;
  operator: string;
  threshold: unknown;
  /** The answer as entered (a number, a band, ...). */
  value: unknown;
  /** The label the clinician chose or the typed value with its unit. */
  label?: string | null;
  unit?: string | null;
}

/** One card: a rule that fired. */
export interface FindingJson {
  rule_id: string;
  rule_name: string;
  rule_version: number;
  rule_set_id: string;
  rule_set_name: string;
  rule_set_version_id: string;
  description: string;
  priority: number;
  severity: string;
  actions: ActionJson[];
  basis: BasisJson[];
  /** Citation, e.g. "ADA Standards of Care in Diabetes—2026, Section 2". */
  source: string | null;
}

export interface MissingInputJson {
  parameter_id: string | null;
  parameter_name: string | null;
  display_name?: string | null;
}

/** A rule that could not be evaluated, with the inputs it still needs. */
export interface UndeterminedRuleJson {
  rule_id: string;
  rule_name: string;
  rule_version?: number;
  rule_set_name?: string;
  severity?: string;
  unknown_parameters: MissingInputJson[];
}

/**
 * A condition the answers made false, in a rule they ruled out: a result with no finding lists
 * these, so the physician sees what was checked ("HbA1c 5.2 % is below 5.7 %").
 */
export interface RuledOutJson {
  parameter_id: string | null;
  display_name: string;
  /** UCUM code of the parameter's unit. */
  units: string | null;
  /** Canonical operator of the condition that is false (greater_equal, ...). */
  operator: string;
  threshold: unknown;
  /** The answer in the parameter's unit. */
  value: unknown;
  /** The answer as the clinician gave it, when it was recorded with one. */
  label: string | null;
  /** The rules this condition ruled out, by name. */
  rule_names: string[];
  /** The sentence shown: display name, answer as entered, display unit. */
  statement: string;
}

/**
 * The result of an assessment: `recommendation` is the primary card (findings[0]), `findings` every fired
 * rule ranked priority high first, then number of conditions, then name, with critical and high
 * severity never hidden; `undetermined_rules` are shown under "Could not be evaluated".
 */
export interface AssessmentResultJson {
  recommendation: FindingJson | null;
  findings: FindingJson[];
  undetermined_rules: UndeterminedRuleJson[];
  /**
   * With no finding: what the answers ruled out, merged per parameter (empty when a rule fired, and
   * for assessments completed before it was recorded).
   */
  ruled_out?: RuledOutJson[];
}

/** `POST /api/rule-sets/:id/publish`. */
export interface PublishRequest {
  acknowledge_warnings?: { reason: string };
  /** The impact preview the admin saw (POST /api/rule-sets/:id/impact-preview); required to publish. */
  impact_preview_id?: string;
}

/** Recorded in a version when warnings were acknowledged at publish. */
export interface WarningAcknowledgementJson {
  reason: string;
  by: string;
  by_email?: string;
  at: string;
  findings: { code: string; message: string }[];
}

// ---- stored assessments and chat sessions (`/api/assessments`, `/api/chat-sessions`) ----

/** A published rule-set version an assessment or chat session was decided with. */
export interface RuleSetVersionRefJson {
  version_id: string;
  rule_set_id: string;
  name: string;
  version: number;
}

/** One line of an assessment's debug log (administrators only). */
export interface DebugLogEntryJson {
  id: string;
  timestamp: string;
  type: 'info' | 'success' | 'warning' | 'error';
  message: string;
  data: unknown;
}

/** A clinical assessment as returned; `debug_log` only for administrators who ask for it. */
export interface AssessmentJson extends AssessmentResultJson {
  id: string;
  user_id: string;
  user_email: string;
  is_completed: boolean;
  step: number;
  current_parameter_id: string | null;
  current_question: QuestionJson | null;
  /** Engine answers keyed by parameter id; shown only through `answer_details`. */
  answers: Answers;
  completed_parameter_ids: string[];
  /** Every answer as entered, in the order given. */
  answer_details: AnswerDetailJson[];
  rule_set_versions: RuleSetVersionRefJson[];
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  debug_log?: DebugLogEntryJson[];
  /**
   * Whose values the assessment was started with, when it named the record context of a prefill
   * (the Panel's "Start assessment" or a CDS card); null otherwise.
   */
  patient?: RecordPatientJson | null;
  /**
   * `GET /api/assessments/:id` only, when `patient` is set: each parameter's results as they were read
   * when the assessment started (a snapshot: the EHR is not read again), oldest first.
   */
  histories?: ResultHistoryJson[];
}

/** `GET /api/assessments/summary`: the caller's assessments (all of them for administrators) and the rules in force. */
export interface AssessmentSummaryJson {
  total: number;
  completed: number;
  with_recommendation: number;
  active_rules: number;
}

/** A rule the chat matched, as a finding card, and whether it is the one whose actions became final. */
export interface ChatMatchedRuleJson extends FindingJson {
  selected: boolean;
}

/** One button of the multiple-match choice: the rule, and what choosing it means. */
export interface ChoiceOptionJson {
  label: string;
  value: string;
  severity: string;
  actions: ActionJson[];
  basis: BasisJson[];
}

export interface ChatMessageJson {
  id: string;
  type: 'question' | 'answer' | 'recommendation';
  content: string;
  parameter_id?: string;
  options?: AnswerOptionJson[];
  /** On a numeric question: typed entry (unit, units accepted, limits). */
  input?: NumericInputJson;
  /** On an answer: how it was given (typed, band, option, not_available). */
  entered_as?: string;
  /** On a choice or the final message: each matching rule with its severity, actions and basis. */
  rules?: ChatMatchedRuleJson[];
  /** On the final message: rules the conversation could not decide, with the inputs they miss. */
  undetermined_rules?: UndeterminedRuleJson[];
  /** On a final message with no finding: what the answers ruled out. */
  ruled_out?: RuledOutJson[];
  timestamp: string;
}

/** What a chat session waits for: an answer to a question, or a choice between matching rules. */
export type ChatPendingJson =
  { kind: 'question'; parameter_id: string; options: AnswerOptionJson[] } | { kind: 'choice'; options: ChoiceOptionJson[] };

/** A Diagnostic Assistant session as returned. */
export interface ChatSessionJson {
  id: string;
  user_id: string;
  /** Answers keyed by parameter id. */
  session_data: Answers;
  answered_parameters: string[];
  /** The answers as entered (value, unit, how given, label), in the order given. */
  answer_details: AnswerDetailJson[];
  matched_rules: ChatMatchedRuleJson[];
  conversation_history: ChatMessageJson[];
  current_step: number;
  is_completed: boolean;
  final_recommendations: ActionJson[] | null;
  pending: ChatPendingJson | null;
  rule_set_versions: RuleSetVersionRefJson[];
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}
