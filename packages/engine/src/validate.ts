import { canonicalOperator, operatorsForDataType, typeClassOf, type TypeClass } from './operators';
import { isValidLogic, readCondition } from './normalize';
import type { CanonicalOperator, Condition, EngineParameter, ValidationError } from './types';
import { toDay } from './values';

function show(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  if (value === null || value === undefined) return 'nothing';
  if (typeof value === 'object') return 'a list or object';
  return String(value);
}

function nameOf(parameter: EngineParameter): string {
  return parameter.display_name || parameter.name || parameter.id;
}

/** The kind of value a condition needs, from its operator first and the data type second. */
function expectedValue(op: CanonicalOperator | null, typeClass: TypeClass): 'number' | 'days' | 'date' | 'boolean' | 'text' | 'any' {
  switch (op) {
    case 'greater_than':
    case 'less_than':
    case 'greater_equal':
    case 'less_equal':
      return 'number';
    case 'within_days':
      return 'days';
    case 'before':
    case 'after':
      return 'date';
    case 'contains':
    case 'starts_with':
    case 'ends_with':
      return 'text';
    default:
      break;
  }
  switch (typeClass) {
    case 'numeric':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'text':
    case 'choice':
      return 'text';
    default:
      return 'any';
  }
}

function valueError(expected: ReturnType<typeof expectedValue>, value: unknown, parameter: EngineParameter): string | null {
  const name = nameOf(parameter);
  switch (expected) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? null
        : `${name} is compared with a number; ${show(value)} is not a number.`;
    case 'days':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0
        ? null
        : `"Within days" needs a whole number of days (0 or more); ${show(value)} is not one.`;
    case 'date':
      return typeof value === 'string' && !Number.isNaN(toDay(value))
        ? null
        : `${name} is compared with a date written as YYYY-MM-DD; ${show(value)} is not a valid date.`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `${name} is compared with True or False; ${show(value)} is neither.`;
    case 'text':
      return typeof value === 'string' && value.trim() !== '' ? null : `${name} is compared with a text value; enter one.`;
    default:
      return value === null || value === undefined || value === '' ? `Enter a value to compare ${name} with.` : null;
  }
}

/**
 * Checks one condition against its parameter the way the rule editor should: a known operator
 * the editor offers for the data type, a value of the right type, and AND/OR logic.
 * Accepts stored conditions in their older shapes too (parameter_id, logicOperator, ...).
 */
export function validateCondition(
  condition: Condition | Record<string, unknown>,
  parameter: EngineParameter | null | undefined,
): ValidationError[] {
  const read = readCondition(condition);
  const errors: ValidationError[] = [];
  if (!parameter) {
    errors.push({
      field: 'parameter',
      message: read.parameter === '' ? 'Choose a parameter.' : `Parameter "${read.parameter}" does not exist.`,
    });
  } else if (parameter.is_active === false) {
    errors.push({ field: 'parameter', message: `Parameter "${nameOf(parameter)}" is inactive and is no longer asked.` });
  }

  const op = canonicalOperator(read.operator);
  if (op === null) {
    errors.push({
      field: 'operator',
      message: read.operator.trim() === '' ? 'Choose an operator.' : `Unknown operator "${read.operator}".`,
    });
  } else if (parameter) {
    const allowed = operatorsForDataType(parameter.data_type);
    if (!allowed.includes(op)) {
      errors.push({
        field: 'operator',
        message: `"${op}" cannot be used with ${nameOf(parameter)} (${parameter.data_type}); use one of: ${allowed.join(', ')}.`,
      });
    }
  }

  if (parameter && (op !== null || read.operator.trim() === '')) {
    const problem = valueError(expectedValue(op, typeClassOf(parameter.data_type)), read.value, parameter);
    if (problem) errors.push({ field: 'value', message: problem });
  }

  if (!isValidLogic(read.logic)) {
    errors.push({ field: 'logic', message: `Logic must be AND or OR, not ${show(read.logic)}.` });
  }
  return errors;
}
