import { operatorsForDataType, typeClassOf } from '@cds/engine';
import type { ParameterJson } from '@cds/contracts';

/**
 * The condition editor's rules (product spec sections 4 and 5), pure so they are tested on
 * their own. Operators are stored in their canonical names; boolean's 'Is' / 'Is Not' are
 * equals / not_equals, as the engine reads them.
 */

// One definition for the editor and the server's validation: the engine is pure TypeScript, so the
// browser imports it directly and can never offer an operator the server would refuse.
export { typeClassOf, type TypeClass } from '@cds/engine';

/** docs/product-spec.md section 5: operator lists by data type; select and any unknown type get equals / not_equals. */
export function operatorsFor(dataType: string | null | undefined): string[] {
  return operatorsForDataType(dataType);
}

const LABELS: Record<string, string> = {
  equals: 'Equals',
  not_equals: 'Not Equals',
  greater_than: 'Greater Than',
  less_than: 'Less Than',
  greater_equal: 'Greater or Equal',
  less_equal: 'Less or Equal',
  contains: 'Contains',
  starts_with: 'Starts With',
  ends_with: 'Ends With',
  before: 'Before',
  after: 'After',
  within_days: 'Within Days',
};

export function operatorLabel(operator: string, dataType?: string | null): string {
  if (typeClassOf(dataType) === 'boolean') {
    if (operator === 'equals') return 'Is';
    if (operator === 'not_equals') return 'Is Not';
  }
  return LABELS[operator] ?? operator;
}

/** Older rows may carry symbols or other spellings; the editor shows the canonical name. */
const SPELLINGS: Record<string, string> = {
  '==': 'equals',
  '=': 'equals',
  is: 'equals',
  '!=': 'not_equals',
  is_not: 'not_equals',
  '>': 'greater_than',
  '<': 'less_than',
  '>=': 'greater_equal',
  '<=': 'less_equal',
};
export function canonicalOperator(op: string): string {
  const key = op.trim().toLowerCase().replace(/\s+/g, '_');
  return SPELLINGS[key] ?? key;
}

export type ValueKind = 'boolean' | 'number' | 'days' | 'date' | 'option' | 'text';

export interface SelectOption {
  label: string;
  value: string | number | boolean;
}

export function selectOptions(p: Pick<ParameterJson, 'validation_rules'> | undefined): SelectOption[] {
  const options = (p?.validation_rules as { options?: unknown } | undefined)?.options;
  if (!Array.isArray(options)) return [];
  return options.filter(
    (o): o is SelectOption =>
      !!o &&
      typeof o === 'object' &&
      typeof (o as SelectOption).label === 'string' &&
      ['string', 'number', 'boolean'].includes(typeof (o as SelectOption).value),
  );
}

/**
 * docs/product-spec.md section 5: a True/False dropdown for boolean, a numeric input for numbers, otherwise
 * text. The engine also needs a whole number of days for "within days" and a YYYY-MM-DD date
 * for the other date comparisons; a select parameter with options offers them.
 */
export function valueKind(parameter: Pick<ParameterJson, 'data_type' | 'validation_rules'> | undefined, operator: string): ValueKind {
  if (operator === 'within_days') return 'days';
  if (['greater_than', 'less_than', 'greater_equal', 'less_equal'].includes(operator)) return 'number';
  switch (typeClassOf(parameter?.data_type)) {
    case 'boolean':
      return 'boolean';
    case 'numeric':
      return 'number';
    case 'date':
      return 'date';
    case 'choice':
      return selectOptions(parameter).length ? 'option' : 'text';
    default:
      return 'text';
  }
}

/** The editor keeps what is typed as text; this is the value stored in the rule. */
export function typedValue(raw: string, kind: ValueKind, options: SelectOption[] = []): unknown {
  const text = raw.trim();
  switch (kind) {
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : null;
    case 'number':
      return text === '' || !Number.isFinite(Number(text)) ? null : Number(text);
    case 'days':
      return /^\d+$/.test(text) ? Number(text) : null;
    case 'option': {
      const found = options.find((o) => String(o.value) === text);
      return found ? found.value : text || null;
    }
    default:
      return text || null;
  }
}

/** The stored value as the editor's text. */
export function rawValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Why a value cannot be saved for this kind, or null. Mirrors the server's checks. */
export function valueProblem(raw: string, kind: ValueKind): string | null {
  const text = raw.trim();
  switch (kind) {
    case 'boolean':
      return text === 'true' || text === 'false' ? null : 'Choose True or False.';
    case 'number':
      return text !== '' && Number.isFinite(Number(text)) ? null : 'Enter a number.';
    case 'days':
      return /^\d+$/.test(text) ? null : 'Enter a whole number of days (0 or more).';
    case 'date':
      return DATE_RE.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) ? null : 'Enter a date (YYYY-MM-DD).';
    default:
      if (!text) return 'Enter a value.';
      return text.length > 500 ? 'At most 500 characters.' : null;
  }
}

export interface ConditionDraft {
  key: string;
  id?: string;
  parameter: string;
  operator: string;
  /** As typed (see typedValue). */
  value: string;
  logic: 'AND' | 'OR';
}

/**
 * docs/product-spec.md section 4: changing a condition's parameter resets its operator to the first operator
 * valid for that parameter's data type. The value is cleared too when its kind changes, so a
 * number typed for a lab value is never saved as the answer to a yes/no question.
 */
export function changeParameter(
  condition: ConditionDraft,
  next: Pick<ParameterJson, 'id' | 'data_type' | 'validation_rules'> | undefined,
  previous: Pick<ParameterJson, 'data_type' | 'validation_rules'> | undefined,
): ConditionDraft {
  const operator = operatorsFor(next?.data_type)[0];
  const keepValue = valueKind(previous, condition.operator) === valueKind(next, operator);
  return { ...condition, parameter: next?.id ?? '', operator, value: keepValue ? condition.value : '' };
}

export function changeOperator(
  condition: ConditionDraft,
  operator: string,
  parameter: Pick<ParameterJson, 'data_type' | 'validation_rules'> | undefined,
): ConditionDraft {
  const keepValue = valueKind(parameter, condition.operator) === valueKind(parameter, operator);
  return { ...condition, operator, value: keepValue ? condition.value : '' };
}
