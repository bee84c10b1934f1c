import type { CanonicalOperator } from './types';

export const CANONICAL_OPERATORS: readonly CanonicalOperator[] = [
  'equals',
  'not_equals',
  'greater_than',
  'less_than',
  'greater_equal',
  'less_equal',
  'contains',
  'starts_with',
  'ends_with',
  'before',
  'after',
  'within_days',
];

const BY_SPELLING = new Map<string, CanonicalOperator>([
  ...CANONICAL_OPERATORS.map((op) => [op, op] as const),
  ['==', 'equals'],
  ['=', 'equals'],
  ['is', 'equals'],
  ['!=', 'not_equals'],
  ['is_not', 'not_equals'],
  ['>', 'greater_than'],
  ['<', 'less_than'],
  ['>=', 'greater_equal'],
  ['<=', 'less_equal'],
]);

/**
 * The canonical name of an operator, or null when it is not one the engine knows.
 * Case and inner spaces are ignored so the editor's labels ('Is Not') are accepted too.
 */
export function canonicalOperator(operator: unknown): CanonicalOperator | null {
  if (typeof operator !== 'string') return null;
  return BY_SPELLING.get(operator.trim().toLowerCase().replace(/\s+/g, '_')) ?? null;
}

/** How the engine reads values of a parameter's data type. */
export type TypeClass = 'numeric' | 'text' | 'choice' | 'date' | 'boolean' | 'unknown';

export function typeClassOf(dataType: unknown): TypeClass {
  switch (typeof dataType === 'string' ? dataType.trim().toLowerCase() : '') {
    // BMI, the seeded calculated parameter, is a number; a calculated value is compared like one.
    case 'number':
    case 'lab_range':
    case 'vitals':
    case 'calculated':
      return 'numeric';
    case 'text':
      return 'text';
    case 'select':
      return 'choice';
    case 'date':
    case 'time_based':
      return 'date';
    case 'boolean':
      return 'boolean';
    default:
      return 'unknown';
  }
}

const NUMERIC_OPERATORS: readonly CanonicalOperator[] = [
  'equals',
  'not_equals',
  'greater_than',
  'less_than',
  'greater_equal',
  'less_equal',
];
const TEXT_OPERATORS: readonly CanonicalOperator[] = ['equals', 'not_equals', 'contains', 'starts_with', 'ends_with'];
const DATE_OPERATORS: readonly CanonicalOperator[] = ['equals', 'not_equals', 'before', 'after', 'within_days'];
const EQUALITY_OPERATORS: readonly CanonicalOperator[] = ['equals', 'not_equals'];

/**
 * Operators the rule editor offers for a data type (docs/product-spec.md section 5), first one is the default
 * the editor resets to. Boolean's 'Is' / 'Is Not' are the canonical equals / not_equals.
 */
export function operatorsForDataType(dataType: unknown): CanonicalOperator[] {
  switch (typeClassOf(dataType)) {
    case 'numeric':
      return [...NUMERIC_OPERATORS];
    case 'text':
      return [...TEXT_OPERATORS];
    case 'date':
      return [...DATE_OPERATORS];
    default:
      return [...EQUALITY_OPERATORS];
  }
}

export const OPERATOR_SYMBOL: Readonly<Record<CanonicalOperator, string>> = {
  equals: '=',
  not_equals: '≠',
  greater_than: '>',
  less_than: '<',
  greater_equal: '≥',
  less_equal: '≤',
  contains: 'contains',
  starts_with: 'starts with',
  ends_with: 'ends with',
  before: 'before',
  after: 'after',
  within_days: 'within days',
};

export function isOrderingOperator(op: CanonicalOperator | null): boolean {
  return op === 'greater_than' || op === 'less_than' || op === 'greater_equal' || op === 'less_equal';
}
