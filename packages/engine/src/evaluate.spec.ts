import { and3, evaluateRule, or3 } from './evaluate';
import { buildParameterIndex } from './parameters';
import { aRule, cond, GLUCOSE, HBA1C, SMOKER, WT_LB } from './testing/builders';
import type { Answers, Condition, Tri } from './types';

const PARAMETERS = [HBA1C, GLUCOSE, SMOKER, WT_LB];
const T = { [HBA1C.id]: 8 }; // makes "hba1c > 7" true
const F = { [HBA1C.id]: 6 }; // makes it false

/** Condition i is true / false / unknown according to `values[i]`, each on its own parameter. */
function outcome(logics: ('AND' | 'OR' | undefined)[], values: Tri[]): Tri {
  const parameters = [HBA1C, GLUCOSE, WT_LB, SMOKER];
  const answers: Answers = {};
  const conditions: Condition[] = values.map((value, i) => {
    const p = parameters[i];
    if (value !== 'unknown') answers[p.id] = p === SMOKER ? value : value ? 100 : 0;
    return p === SMOKER ? cond(p.id, 'equals', true, logics[i]) : cond(p.id, '>', 50, logics[i]);
  });
  return evaluateRule(aRule('R', conditions), answers, PARAMETERS).result;
}

describe('Kleene logic', () => {
  it.each<[Tri, Tri, Tri]>([
    [true, true, true],
    [true, false, false],
    [true, 'unknown', 'unknown'],
    [false, 'unknown', false],
    ['unknown', 'unknown', 'unknown'],
  ])('AND(%s, %s) = %s', (a, b, expected) => {
    expect(and3(a, b)).toBe(expected);
    expect(and3(b, a)).toBe(expected);
  });

  it.each<[Tri, Tri, Tri]>([
    [false, false, false],
    [true, false, true],
    [true, 'unknown', true],
    [false, 'unknown', 'unknown'],
    ['unknown', 'unknown', 'unknown'],
  ])('OR(%s, %s) = %s', (a, b, expected) => {
    expect(or3(a, b)).toBe(expected);
    expect(or3(b, a)).toBe(expected);
  });
});

describe('conditions joined by their logic links', () => {
  it('links with AND by default', () => {
    expect(outcome([undefined, undefined], [true, false])).toBe(false);
    expect(outcome([undefined, undefined], [true, true])).toBe(true);
  });

  it('reads condition.logic as the link to the next condition', () => {
    expect(outcome(['OR', undefined], [false, true])).toBe(true);
    expect(outcome(['AND', 'OR', undefined], [false, true, true])).toBe(true);
  });

  it('binds AND tighter than OR: a OR b AND c is a OR (b AND c)', () => {
    // Left to right it would be (a OR b) AND c = false.
    expect(outcome(['OR', 'AND', undefined], [true, true, false])).toBe(true);
  });

  it('binds AND tighter than OR: a AND b OR c AND d is (a AND b) OR (c AND d)', () => {
    expect(outcome(['AND', 'OR', 'AND', undefined], [false, true, true, true])).toBe(true);
    expect(outcome(['AND', 'OR', 'AND', undefined], [true, false, false, true])).toBe(false);
  });

  it('is unknown, not false, when an unanswered condition could still decide the rule', () => {
    expect(outcome(['AND', undefined], [true, 'unknown'])).toBe('unknown');
    expect(outcome(['OR', undefined], [false, 'unknown'])).toBe('unknown');
  });

  it('is decided despite an unanswered condition when that condition cannot matter', () => {
    expect(outcome(['AND', undefined], [false, 'unknown'])).toBe(false);
    expect(outcome(['OR', undefined], [true, 'unknown'])).toBe(true);
  });

  it('reads lower-case "or" as OR and anything else as AND', () => {
    const rule = aRule('R', [{ ...cond(HBA1C.id, '>', 7), logic: 'or' as 'OR' }, cond(GLUCOSE.id, '>', 126)]);
    expect(evaluateRule(rule, { [HBA1C.id]: 8, [GLUCOSE.id]: 90 }, PARAMETERS).result).toBe(true);
    const xor = aRule('R', [{ ...cond(HBA1C.id, '>', 7), logic: 'XOR' as 'OR' }, cond(GLUCOSE.id, '>', 126)]);
    expect(evaluateRule(xor, { [HBA1C.id]: 8, [GLUCOSE.id]: 90 }, PARAMETERS).result).toBe(false);
  });
});

describe('evaluateRule', () => {
  it('never fires a rule without conditions', () => {
    expect(evaluateRule(aRule('Empty', []), T, PARAMETERS).result).toBe(false);
  });

  it('traces every condition: parameter, operator, threshold, value given and result', () => {
    const rule = aRule('R', [cond('HbA1c', '>', 7, 'OR'), cond(GLUCOSE.id, 'greater_equal', 126), cond(SMOKER.id, 'bogus', true)]);
    const { result, trace } = evaluateRule(rule, { [HBA1C.id]: 6.2 }, PARAMETERS);
    expect(result).toBe(false);
    expect(trace).toEqual([
      {
        index: 0,
        group: 0,
        parameter: 'HbA1c',
        parameter_id: HBA1C.id,
        parameter_name: 'hba1c',
        operator: '>',
        canonical_operator: 'greater_than',
        threshold: 7,
        value: 6.2,
        result: false,
      },
      {
        index: 1,
        group: 1,
        parameter: GLUCOSE.id,
        parameter_id: GLUCOSE.id,
        parameter_name: 'fasting_glucose',
        operator: 'greater_equal',
        canonical_operator: 'greater_equal',
        threshold: 126,
        value: null,
        result: 'unknown',
        reason: 'missing_answer',
      },
      {
        index: 2,
        group: 1,
        parameter: SMOKER.id,
        parameter_id: SMOKER.id,
        parameter_name: 'smoker',
        operator: 'bogus',
        canonical_operator: null,
        threshold: true,
        value: null,
        result: false,
        reason: 'unknown_operator',
      },
    ]);
  });

  it('reads conditions stored in older shapes (parameter_id, parameterId, field, name, logicOperator)', () => {
    const legacy = [
      { parameter_id: HBA1C.id, operator: '>', value: 7, logicOperator: 'OR' },
      { parameterId: GLUCOSE.id, operator: '>', value: 126 },
    ] as unknown as Condition[];
    expect(evaluateRule(aRule('Legacy', legacy), { [GLUCOSE.id]: 130 }, PARAMETERS).result).toBe(true);
    const named = [
      { field: 'hba1c', operator: '>', value: 7 },
      { name: 'Weight', operator: '<', value: 300 },
    ] as unknown as Condition[];
    const { trace } = evaluateRule(aRule('Named', named), { [HBA1C.id]: 8, [WT_LB.id]: 180 }, PARAMETERS);
    expect(trace.map((t) => [t.parameter_id, t.result])).toEqual([
      [HBA1C.id, true],
      [WT_LB.id, true],
    ]);
  });

  it('accepts a prebuilt parameter index with the same results', () => {
    const rule = aRule('R', [cond('HbA1c', '>', 7)]);
    expect(evaluateRule(rule, T, buildParameterIndex(PARAMETERS))).toEqual(evaluateRule(rule, T, PARAMETERS));
    expect(evaluateRule(rule, F, buildParameterIndex(PARAMETERS)).result).toBe(false);
  });

  it('looks answers up by own property only: an answer keyed "constructor" is not Object.prototype.constructor', () => {
    const rule = aRule('R', [cond('constructor', 'contains', 'function')]);
    expect(evaluateRule(rule, {}, PARAMETERS).result).toBe('unknown');
  });
});
