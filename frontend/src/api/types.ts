/** Shapes of the HTTP contract (shared/spec/api.md plus the agreed extensions). */

export type Role = 'admin' | 'super_admin' | 'pcp';

export interface UserMetadata {
  first_name?: string | null;
  last_name?: string | null;
  role?: string | null;
}

export interface User {
  id: string;
  email: string;
  created_at: string;
  email_confirmed_at?: string | null;
  role?: string | null;
  user_metadata?: UserMetadata;
}

export interface Session {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  /** Unix time in seconds. */
  expires_at: number;
  token_type: 'bearer';
  user: User | null;
}

export interface Profile {
  id: string;
  first_name: string | null;
  last_name: string | null;
  updated_at: string | null;
}

export interface MeResponse {
  user: User;
  role: Role | null;
  profile: Profile | null;
}

export interface ErrorBody {
  statusCode: number;
  code?: string;
  message?: string;
  details?: Array<{ field: string; message: string }> | string[];
}

export type Severity = 'low' | 'medium' | 'high' | 'critical';

export interface AnswerOption {
  label: string;
  value: unknown;
}

export interface Question {
  parameter_id: string;
  name: string;
  display_name: string;
  text: string;
  units?: string | null;
  options: AnswerOption[];
}

export interface RecommendationAction {
  type: string;
  severity?: Severity | string | null;
  message?: string | null;
  value?: unknown;
}

export interface BasisItem {
  parameter_id: string;
  parameter_name: string;
  operator: string;
  threshold: unknown;
  value: unknown;
}

export interface Recommendation {
  rule_id: string;
  rule_name: string;
  rule_version?: number | string | null;
  rule_set_id?: string | null;
  rule_set_name?: string | null;
  description?: string | null;
  severity?: Severity | string | null;
  actions: RecommendationAction[];
  basis: BasisItem[];
}

export interface DebugLogEntry {
  id: string;
  timestamp: string;
  type: 'info' | 'success' | 'warning' | 'error';
  message: string;
  data?: unknown;
}

export interface Assessment {
  id: string;
  user_id: string;
  is_completed: boolean;
  step: number;
  current_parameter_id: string | null;
  current_question: Question | null;
  answers: Record<string, unknown>;
  completed_parameter_ids: string[];
  recommendation: Recommendation | null;
  rule_set_versions?: Array<{ rule_set_id: string; name: string; version: number | string }>;
  created_at: string;
  completed_at: string | null;
  debug_log?: DebugLogEntry[];
}

export interface ChatMessage {
  id: string;
  type: 'question' | 'answer' | 'recommendation';
  content: string;
  parameter_id?: string;
  options?: AnswerOption[];
  timestamp: string;
}

export type ChatPending =
  | null
  | { kind: 'question'; parameter_id: string; options: AnswerOption[] }
  | { kind: 'choice'; options: AnswerOption[] };

export interface ChatSession {
  id: string;
  user_id: string;
  session_data: Record<string, unknown>;
  answered_parameters: string[];
  matched_rules: unknown;
  conversation_history: ChatMessage[];
  current_step: number;
  is_completed: boolean;
  final_recommendations: RecommendationAction[] | null;
  pending: ChatPending;
  created_at: string;
}
