/** Parameters (the questions rules ask about) and their change history. */
import type { DataType } from '@cds/engine';

export const PARAMETER_DATA_TYPES = [
  'number',
  'text',
  'boolean',
  'date',
  'select',
  'lab_range',
  'time_based',
  'vitals',
  'calculated',
] as const satisfies readonly DataType[];
export type ParameterDataType = (typeof PARAMETER_DATA_TYPES)[number];

export const PARAMETER_CATEGORIES = ['demographics', 'vitals', 'labs', 'history', 'symptoms', 'other'] as const;
export type ParameterCategory = (typeof PARAMETER_CATEGORIES)[number];

/** Length limits of the parameter fields, in characters (validation_rules: of its JSON). */
export const PARAMETER_LIMITS = {
  name: 100,
  display_name: 200,
  description: 2000,
  units: 50,
  template_name: 100,
  question_override: 200,
  change_reason: 500,
  validation_rules: 20_000,
} as const;

/** LOINC codes are up to seven digits, a dash and a check digit (4548-4). */
export const LOINC_PATTERN = /^[0-9]{1,7}-[0-9]$/;

/**
 * The LOINC check digit of the part before the dash: from the right, every other digit (the
 * first, third, ...) is doubled, the digits of the results are summed, and the check digit is
 * what brings the sum to the next multiple of ten (Regenstrief's "mod 10" algorithm).
 */
export function loincCheckDigit(body: string): number {
  let sum = 0;
  [...body].reverse().forEach((ch, i) => {
    const d = Number(ch);
    const v = i % 2 === 0 ? d * 2 : d;
    sum += Math.floor(v / 10) + (v % 10);
  });
  return (10 - (sum % 10)) % 10;
}

/** Why a LOINC code is not valid, or null when it is (the API and the console say the same). */
export function loincProblem(code: string): string | null {
  if (!LOINC_PATTERN.test(code)) return `LOINC code "${code}" must look like 4548-4 (up to seven digits, a dash and a check digit).`;
  const [body, check] = code.split('-');
  const expected = loincCheckDigit(body);
  return Number(check) === expected
    ? null
    : `LOINC code "${code}" has a wrong check digit: the code for ${body} ends in -${expected}. Check the code against loinc.org.`;
}

/**
 * Fields `PUT /api/parameters/:id` accepts; anything else is refused with 400. (react-admin sends
 * the whole record, so the web app sends only these.)
 */
export const PARAMETER_WRITABLE_FIELDS = [
  'name',
  'display_name',
  'description',
  'data_type',
  'category',
  'units',
  'is_required',
  'template_name',
  'validation_rules',
  'loinc_code',
  'question_override',
  'change_reason',
] as const;

export interface ParameterJson {
  id: string;
  name: string;
  display_name: string;
  description: string | null;
  data_type: ParameterDataType | string;
  category: ParameterCategory | string;
  /** UCUM code. */
  units: string | null;
  is_required: boolean;
  is_template: boolean;
  template_name: string | null;
  is_diabetes_specific: boolean;
  version: number;
  is_active: boolean;
  validation_rules: Record<string, unknown>;
  loinc_code: string | null;
  /** The question as asked: the override, else the polished wording, else the default. */
  question_text: string;
  question_override: string | null;
  polished_question: string | null;
  polished_provider: string | null;
  polished_input_hash: string | null;
  polished_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** `POST /api/parameters`. */
export interface CreateParameterRequest {
  name: string;
  display_name: string;
  data_type: ParameterDataType;
  category: ParameterCategory;
  description?: string | null;
  units?: string | null;
  validation_rules?: Record<string, unknown>;
  loinc_code?: string | null;
  is_required?: boolean;
  is_template?: boolean;
  template_name?: string | null;
  question_override?: string | null;
  change_reason?: string;
}

/** `PUT /api/parameters/:id`: any of the writable fields. */
export type UpdateParameterRequest = Partial<Omit<CreateParameterRequest, 'is_template'>>;

/** `POST /api/parameters/seed-templates`. */
export interface SeedResultJson {
  created: number;
  message: string;
  templates: ParameterJson[];
}

export const CHANGE_TYPES = ['created', 'updated', 'deleted', 'activated', 'deactivated'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** `GET /api/parameter-changes` filter.period. */
export const CHANGE_PERIODS = ['all', 'today', 'week', 'month'] as const;

export interface ParameterChangeJson {
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
