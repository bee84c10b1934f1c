import { canonicalOperator, typeClassOf, type TypeClass } from './operators';
import { parseLogic, readCondition } from './normalize';
import { resolveParameter, type ParameterIndex, type ResolvedParameter } from './parameters';
import type { AnswerValue, CanonicalOperator, ConditionReason, EngineParameter, Tri } from './types';
import { BOOL_UNKNOWN, isBlank, isUnknownSentinel, readInterval, toBooleanCode, toDay, toNumber, toText, type Interval } from './values';

/**
 * How a condition compares, fixed when the rule is prepared:
 * - numeric: numbers, numeric text and range answers;
 * - boolean: true/false (also as text);
 * - date: calendar days of ISO dates; within_days: distance in days from the reference day;
 * - text_exact: exact, case-sensitive text (the spec's "strict equality");
 * - text_search: contains / starts_with / ends_with, ignoring case.
 */
export type Domain = 'numeric' | 'boolean' | 'date' | 'within_days' | 'text_exact' | 'text_search';

export interface PreparedCondition {
  index: number;
  reference: string;
  operator: string;
  threshold: unknown;
  resolved: ResolvedParameter | null;
  parameter: EngineParameter | null;
  /** Where the answer is looked up: the parameter id, or the reference when it resolves to nothing. */
  key: string;
  typeClass: TypeClass;
  op: CanonicalOperator | null;
  domain: Domain;
  /** Numeric threshold, threshold day, or number of days. */
  num: number;
  bool: 0 | 1;
  /** Exact text, or lower-cased text for text_search. */
  text: string;
  /** Set when the condition can never be true, whatever the answer. */
  failure: 'unknown_operator' | 'invalid_threshold' | null;
  /**
   * The answer 'unknown' means "not available" for every type (issue 9: every question offers it,
   * selects included), so "≠ Type 2" never fires on it. Kept as a field for the compiler.
   */
  sentinelIsUnknown: boolean;
  orNext: boolean;
}

function domainFor(op: CanonicalOperator | null, typeClass: TypeClass, threshold: unknown): Domain {
  switch (op) {
    case 'greater_than':
    case 'less_than':
    case 'greater_equal':
    case 'less_equal':
      return 'numeric';
    case 'before':
    case 'after':
      return 'date';
    case 'within_days':
      return 'within_days';
    case 'contains':
    case 'starts_with':
    case 'ends_with':
      return 'text_search';
    default:
      break;
  }
  switch (typeClass) {
    case 'numeric':
      return 'numeric';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'text':
    case 'choice':
      return 'text_exact';
    default:
      // No data type to go by (unknown parameter or type): read the threshold.
      if (toBooleanCode(threshold) !== BOOL_UNKNOWN) return 'boolean';
      if (!Number.isNaN(toNumber(threshold))) return 'numeric';
      return 'text_exact';
  }
}

export function prepareCondition(raw: unknown, index: number, parameters: ParameterIndex): PreparedCondition {
  const read = readCondition(raw);
  const resolved = resolveParameter(read.parameter, parameters);
  const parameter = resolved?.parameter ?? null;
  const typeClass = parameter ? typeClassOf(parameter.data_type) : 'unknown';
  const op = canonicalOperator(read.operator);
  const domain = domainFor(op, typeClass, read.value);
  let num = NaN;
  let bool: 0 | 1 = 0;
  let text = '';
  let valid: boolean;
  switch (domain) {
    case 'numeric':
      num = toNumber(read.value);
      valid = !Number.isNaN(num);
      break;
    case 'boolean': {
      const code = toBooleanCode(read.value);
      bool = code === 1 ? 1 : 0;
      valid = code !== BOOL_UNKNOWN;
      break;
    }
    case 'date':
      num = toDay(read.value);
      valid = !Number.isNaN(num);
      break;
    case 'within_days':
      num = toNumber(read.value);
      valid = num >= 0;
      break;
    case 'text_exact':
    case 'text_search': {
      const t = toText(read.value);
      valid = t !== null && t !== '';
      text = t === null ? '' : domain === 'text_search' ? t.toLowerCase() : t;
      break;
    }
  }
  return {
    index,
    reference: read.parameter,
    operator: read.operator,
    threshold: read.value,
    resolved,
    parameter,
    key: parameter ? parameter.id : read.parameter,
    typeClass,
    op,
    domain,
    num,
    bool,
    text,
    failure: op === null ? 'unknown_operator' : valid ? null : 'invalid_threshold',
    sentinelIsUnknown: true,
    orNext: parseLogic(read.logic) === 'OR',
  };
}

export interface ConditionOutcome {
  result: Tri | 'skipped';
  reason?: ConditionReason;
}

const TRUE: ConditionOutcome = { result: true };
const FALSE: ConditionOutcome = { result: false };

function unknown(reason: ConditionReason): ConditionOutcome {
  return { result: 'unknown', reason };
}

function unreadable(answer: unknown): ConditionOutcome {
  return unknown(isUnknownSentinel(answer) ? 'unknown_answer' : 'uninterpretable_answer');
}

function tri(holds: boolean): ConditionOutcome {
  return holds ? TRUE : FALSE;
}

/**
 * A numeric comparison over every value of an interval: true when all of them satisfy it, false
 * when none does, unknown when the interval straddles the threshold. An exact number is the
 * interval [v, v], so it is simply compared.
 */
export function compareInterval(op: CanonicalOperator | null, { lo, hi }: Interval, t: number): Tri {
  const three = (holds: boolean, fails: boolean): Tri => (holds ? true : fails ? false : 'unknown');
  switch (op) {
    case 'greater_equal':
      return three(lo >= t, hi < t);
    case 'greater_than':
      return three(lo > t, hi <= t);
    case 'less_than':
      return three(hi < t, lo >= t);
    case 'less_equal':
      return three(hi <= t, lo > t);
    case 'equals':
      return three(lo === t && hi === t, lo > t || hi < t);
    default:
      return three(lo > t || hi < t, lo === t && hi === t);
  }
}

/**
 * One condition against one answer. Order matters and is part of the contract:
 * unanswered-and-skipped, then authoring errors (always false: a broken condition never fires),
 * then missing answers (unknown, never false), then the comparison itself.
 */
export function evaluatePreparedCondition(
  c: PreparedCondition,
  answer: AnswerValue | undefined | unknown,
  skipUnanswered: boolean,
  referenceDay: number,
): ConditionOutcome {
  const missing = isBlank(answer);
  if (missing && skipUnanswered) return { result: 'skipped', reason: 'not_checked' };
  if (c.failure) return { result: false, reason: c.failure };
  if (missing) return unknown('missing_answer');
  switch (c.domain) {
    case 'numeric': {
      const interval = readInterval(answer);
      if (interval === null) return unreadable(answer);
      const result = compareInterval(c.op, interval, c.num);
      return result === 'unknown' ? unknown('straddles_threshold') : tri(result);
    }
    case 'boolean': {
      const code = toBooleanCode(answer);
      if (code === BOOL_UNKNOWN) return unreadable(answer);
      return tri((code === c.bool) === (c.op === 'equals'));
    }
    case 'date': {
      const day = toDay(answer);
      if (Number.isNaN(day)) return unreadable(answer);
      switch (c.op) {
        case 'before':
          return tri(day < c.num);
        case 'after':
          return tri(day > c.num);
        case 'equals':
          return tri(day === c.num);
        default:
          return tri(day !== c.num);
      }
    }
    case 'within_days': {
      const day = toDay(answer);
      if (Number.isNaN(day)) return unreadable(answer);
      if (Number.isNaN(referenceDay)) return unknown('no_reference_time');
      return tri(Math.abs(referenceDay - day) <= c.num);
    }
    case 'text_exact':
    case 'text_search': {
      if (c.sentinelIsUnknown && isUnknownSentinel(answer)) return unknown('unknown_answer');
      const text = toText(answer);
      if (text === null) return unreadable(answer);
      switch (c.op) {
        case 'equals':
          return tri(text === c.text);
        case 'not_equals':
          return tri(text !== c.text);
        case 'contains':
          return tri(text.toLowerCase().includes(c.text));
        case 'starts_with':
          return tri(text.toLowerCase().startsWith(c.text));
        default:
          return tri(text.toLowerCase().endsWith(c.text));
      }
    }
  }
}
