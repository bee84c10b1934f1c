import { canonicalOperator } from './operators';
import type { Action, Condition, LogicOperator } from './types';

type Raw = Record<string, unknown>;

function asRecord(raw: unknown): Raw {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Raw) : {};
}

function own(src: Raw, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(src, key) ? src[key] : undefined;
}

/** Older rows name the parameter differently (docs/product-spec.md section 3); the first filled-in key wins. */
const PARAMETER_KEYS = ['parameter', 'parameter_id', 'parameterId', 'field', 'name'] as const;

export interface ReadCondition {
  id?: string;
  parameter: string;
  /** As written. */
  operator: string;
  value: unknown;
  /** As written; undefined when absent. */
  logic: unknown;
}

/** Reads a stored condition in any of its historical shapes without changing its meaning. */
export function readCondition(raw: unknown): ReadCondition {
  const src = asRecord(raw);
  let parameter = '';
  for (const key of PARAMETER_KEYS) {
    const value = own(src, key);
    if ((typeof value === 'string' && value.trim() !== '') || typeof value === 'number') {
      parameter = String(value);
      break;
    }
  }
  const operator = own(src, 'operator');
  const id = own(src, 'id');
  return {
    ...(typeof id === 'string' ? { id } : {}),
    parameter,
    operator: typeof operator === 'string' ? operator : '',
    value: own(src, 'value') ?? null,
    logic: own(src, 'logic') ?? own(src, 'logicOperator'),
  };
}

export function parseLogic(logic: unknown): LogicOperator {
  return typeof logic === 'string' && logic.trim().toUpperCase() === 'OR' ? 'OR' : 'AND';
}

export function isValidLogic(logic: unknown): boolean {
  return logic === undefined || logic === null || (typeof logic === 'string' && /^(and|or)$/i.test(logic.trim()));
}

/**
 * The one stored shape of a condition: `parameter`, canonical operator (unknown operators are
 * kept as written so validation can report them), `logic` AND unless OR, type 'parameter'.
 */
export function normalizeCondition(raw: unknown): Condition {
  const read = readCondition(raw);
  return {
    ...(read.id !== undefined ? { id: read.id } : {}),
    type: 'parameter',
    parameter: read.parameter,
    operator: canonicalOperator(read.operator) ?? read.operator.trim(),
    value: read.value,
    logic: parseLogic(read.logic),
  };
}

export const DEFAULT_ACTION_SEVERITY = 'medium';
export const DEFAULT_ACTION_TYPE = 'recommendation';

export function normalizeAction(raw: unknown): Action {
  const src = asRecord(raw);
  const id = own(src, 'id');
  const type = own(src, 'type');
  const severity = own(src, 'severity');
  const message = own(src, 'message');
  const value = own(src, 'value');
  return {
    ...(typeof id === 'string' ? { id } : {}),
    type: typeof type === 'string' && type.trim() !== '' ? type.trim() : DEFAULT_ACTION_TYPE,
    severity: typeof severity === 'string' && severity.trim() !== '' ? severity.trim().toLowerCase() : DEFAULT_ACTION_SEVERITY,
    message: typeof message === 'string' ? message : typeof value === 'string' ? value : '',
    ...(typeof value === 'string' ? { value } : {}),
  };
}
