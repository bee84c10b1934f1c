import fc from 'fast-check';
import { compileRuleSet, RESULT_FALSE, RESULT_TRUE, RESULT_UNKNOWN } from './compile';
import { evaluateRule } from './evaluate';
import { buildParameterIndex } from './parameters';
import { aParameter, aRule, cond } from './testing/builders';
import type { AnswerValue, Answers, Condition, EngineParameter, EngineRule, EvaluationOptions } from './types';

const PARAMETERS: EngineParameter[] = [
  aParameter('hba1c', 'lab_range', { display_name: 'HbA1c' }),
  aParameter('Wt_lb', 'number', { display_name: 'Weight' }),
  aParameter('bmi', 'calculated', { display_name: 'BMI' }),
  aParameter('bp', 'vitals', { display_name: 'Systolic' }),
  aParameter('Antibodies', 'boolean', { display_name: 'Thyroid Antibodies' }),
  aParameter('exam', 'date', { display_name: 'Last Eye Exam' }),
  aParameter('onset', 'time_based', { display_name: 'Onset' }),
  aParameter('notes', 'text', { display_name: 'Notes' }),
  aParameter('dtype', 'select', { display_name: 'Diabetes Type' }),
  aParameter('mystery', 'something_new', { display_name: 'Mystery' }),
];
const INDEX = buildParameterIndex(PARAMETERS);

const references = fc.constantFrom(
  ...PARAMETERS.map((p) => p.id),
  ...PARAMETERS.map((p) => p.name.toUpperCase()),
  ...PARAMETERS.map((p) => p.display_name.toLowerCase()),
  'not-a-parameter',
  'constructor',
  '',
);
const operators = fc.constantFrom(
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
  '==',
  '=',
  'is',
  '!=',
  'is_not',
  'Is Not',
  '>',
  '<',
  '>=',
  '<=',
  'bogus',
  '',
);
const numbers = fc.constantFrom(-1, 0, 0.5, 1, 4.5, 5, 6.5, 7, 10, 30, 365);
const dates = fc.constantFrom('2024-01-01', '2024-01-31', '2024-02-29', '2024-03-01T23:30:00-05:00', '2023-02-29', '2024-13-01');
const texts = fc.constantFrom('Type 1', 'type 1', 'Type 2', 'ty', '1', 'pe 2', 'unknown', 'Unknown', 'true', 'False', ' ', '');
const scalar: fc.Arbitrary<unknown> = fc.oneof(
  numbers,
  numbers.map(String),
  fc.boolean(),
  dates,
  texts,
  fc.constant(null),
  fc.constant(Number.NaN),
  fc.constant(Infinity),
);
const threshold = fc.oneof({ weight: 4, arbitrary: scalar }, { weight: 1, arbitrary: fc.constant({ weird: true }) });
const logic = fc.constantFrom<Condition['logic'] | 'or' | 'xor' | undefined>('AND', 'OR', undefined, 'or', 'xor');
const condition = fc
  .record({ parameter: references, operator: operators, value: threshold, logic })
  .map(({ parameter, operator, value, logic: l }) => ({ ...cond(parameter, operator, value), logic: l }) as Condition);
const rule = fc.array(condition, { minLength: 0, maxLength: 5 }).map((conditions) => aRule('Generated', conditions));
// Bands as the partition gives them (null = open end, inclusivity flags) and as older rows stored
// them (no flags), plus malformed ones: every one must read the same in both evaluators.
const inclusive = fc.constantFrom<boolean | undefined | string>(true, false, undefined, 'yes');
const range = fc
  .record({
    min: fc.oneof(numbers, numbers.map(String), fc.constant(null), fc.constant(Number.NaN)),
    max: fc.oneof(numbers, fc.constant(null), fc.constant('x')),
    min_inclusive: inclusive,
    max_inclusive: inclusive,
  })
  .map(({ min, max, min_inclusive, max_inclusive }) => {
    const value: Record<string, unknown> = { type: 'range', min, max };
    if (min_inclusive !== undefined) value.min_inclusive = min_inclusive;
    if (max_inclusive !== undefined) value.max_inclusive = max_inclusive;
    return value as unknown as AnswerValue;
  });
const answer: fc.Arbitrary<AnswerValue | undefined> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: scalar as fc.Arbitrary<AnswerValue> },
  { weight: 3, arbitrary: range },
);
const answerSet = fc.tuple(...PARAMETERS.map(() => answer), answer).map((values) => {
  const answers: Answers = {};
  [...PARAMETERS.map((p) => p.id), 'not-a-parameter'].forEach((key, i) => {
    if (values[i] !== undefined) answers[key] = values[i] as AnswerValue;
  });
  return answers;
});
const evaluationOptions = fc.record({
  unanswered: fc.constantFrom<EvaluationOptions['unanswered']>('unknown', 'skip', undefined),
  now: fc.constantFrom<EvaluationOptions['now']>(undefined, '2024-02-15', Date.UTC(2024, 0, 20, 12)),
});

describe('compileRuleSet', () => {
  it('gives the interpreter’s result for every rule on ≥ 100,000 random rule/answer pairs', () => {
    let pairs = 0;
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 25, maxLength: 25 }),
        fc.array(answerSet, { minLength: 20, maxLength: 20 }),
        evaluationOptions,
        fc.integer({ min: 1, max: 12 }),
        (rules: EngineRule[], answerSets: Answers[], options: EvaluationOptions, perFunction: number) => {
          const compiled = compileRuleSet(rules, INDEX, { conditionsPerFunction: perFunction });
          for (const answers of answerSets) {
            const fast = compiled.evaluate(answers, options);
            rules.forEach((r, i) => {
              const plain = evaluateRule(r, answers, INDEX, options).result;
              // toBe per pair would dominate the run time; report the first disagreement instead.
              if (fast[i] !== plain)
                expect({ rule: r, answers, options, compiled: fast[i] }).toEqual({ rule: r, answers, options, compiled: plain });
              pairs += 1;
            });
          }
        },
      ),
      { numRuns: 200 },
    );
    expect(pairs).toBeGreaterThanOrEqual(100_000);
  });

  it('agrees with the interpreter on every band with ends on, below and above the threshold', () => {
    const hba1c = PARAMETERS[0];
    const ops = ['>', '>=', '<', '<=', '==', '!='];
    const rules = ops.map((op) => aRule(op, [cond(hba1c.id, op, 6.5)]));
    const compiled = compileRuleSet(rules, PARAMETERS);
    const ends = [null, 5.7, 6.5, 9];
    let checked = 0;
    for (const min of ends)
      for (const max of ends)
        for (const min_inclusive of [true, false])
          for (const max_inclusive of [true, false]) {
            const answers = { [hba1c.id]: { type: 'range' as const, min, max, min_inclusive, max_inclusive } };
            const fast = compiled.evaluate(answers);
            rules.forEach((r, i) => {
              expect([r.name, answers[hba1c.id], fast[i]]).toEqual([r.name, answers[hba1c.id], evaluateRule(r, answers, INDEX).result]);
              checked += 1;
            });
          }
    expect(checked).toBe(ops.length * 64);
  });

  it('agrees with the interpreter when a threshold is the next double after an open end', () => {
    const hba1c = PARAMETERS[0];
    const next = 6.5 + Number.EPSILON * 4; // the double right after 6.5
    expect(next).toBeGreaterThan(6.5);
    expect((6.5 + next) / 2 === 6.5 || (6.5 + next) / 2 === next).toBe(true);
    const rules = ['>', '>=', '<', '<=', '==', '!='].flatMap((op) => [6.5, next].map((t) => aRule(`${op} ${t}`, [cond(hba1c.id, op, t)])));
    const compiled = compileRuleSet(rules, PARAMETERS);
    for (const answer of [
      { type: 'range' as const, min: 6.5, max: null, min_inclusive: false, max_inclusive: false },
      { type: 'range' as const, min: null, max: next, min_inclusive: false, max_inclusive: false },
      { type: 'range' as const, min: 6.5, max: next, min_inclusive: false, max_inclusive: true },
      { type: 'range' as const, min: 6.5, max: next, min_inclusive: true, max_inclusive: false },
    ]) {
      const fast = compiled.evaluate({ [hba1c.id]: answer });
      rules.forEach((r, i) =>
        expect([r.name, answer, fast[i]]).toEqual([r.name, answer, evaluateRule(r, { [hba1c.id]: answer }, INDEX).result]),
      );
    }
  });

  it('writes result codes in rule order without allocating results', () => {
    const hba1c = PARAMETERS[0];
    const rules = [
      aRule('High', [cond(hba1c.id, '>', 7)]),
      aRule('Low', [cond(hba1c.id, '<', 6)]),
      aRule('Exact', [cond(hba1c.id, '==', 6.5)]),
    ];
    const out = new Uint8Array(3);
    compileRuleSet(rules, PARAMETERS).evaluateInto({ [hba1c.id]: 8 }, out);
    expect([...out]).toEqual([RESULT_TRUE, RESULT_FALSE, RESULT_FALSE]);
    compileRuleSet(rules, PARAMETERS).evaluateInto({}, out);
    expect([...out]).toEqual([RESULT_UNKNOWN, RESULT_UNKNOWN, RESULT_UNKNOWN]);
  });

  it('refuses an output buffer too small for the rule set', () => {
    const rules = [aRule('A', [cond('hba1c', '>', 7)]), aRule('B', [cond('hba1c', '<', 6)])];
    expect(() => compileRuleSet(rules, PARAMETERS).evaluateInto({}, new Uint8Array(1))).toThrow(RangeError);
  });

  it('explains a rule with the interpreter’s trace', () => {
    const rules = [aRule('High', [cond('HbA1c', '>', 7)])];
    const explained = compileRuleSet(rules, PARAMETERS).explain(0, { [PARAMETERS[0].id]: 8 });
    expect(explained.result).toBe(true);
    expect(explained.trace[0]).toMatchObject({ parameter_id: PARAMETERS[0].id, threshold: 7, value: 8, result: true });
  });
});
