import fc from 'fast-check';
import { compileRuleSet } from './compile';
import { evaluateRule } from './evaluate';
import { buildParameterIndex } from './parameters';
import type { AnswerValue, Answers, Condition, EngineParameter, EngineRule } from './types';

const SENTINEL = '__engineInjected';
const g = globalThis as Record<string, unknown>;

const PAYLOADS = [
  `"];globalThis.${SENTINEL}=1;//`,
  `'+(globalThis.${SENTINEL}=1)+'`,
  `\`;globalThis.${SENTINEL}=1;\``,
  '${globalThis.' + SENTINEL + '=1}',
  `*/globalThis.${SENTINEL}=1;/*`,
  `\u2028globalThis.${SENTINEL}=1;//`,
  `\u2029globalThis.${SENTINEL}=1;//`,
  `\\"];globalThis.${SENTINEL}=1;//`,
  `}globalThis.${SENTINEL}=1;function x(){`,
  `7);globalThis.${SENTINEL}=(1`,
  `1;globalThis.${SENTINEL}=1`,
  `</script><script>globalThis.${SENTINEL}=1</script>`,
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '1e999',
  '0x10',
  ' 7 ',
  '-0',
  '',
];

const hostile: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PAYLOADS),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.tuple(fc.constantFrom(...PAYLOADS), fc.string({ unit: 'binary', maxLength: 6 })).map(([a, b]) => a + b),
);
const dataTypes = fc.constantFrom('number', 'lab_range', 'boolean', 'date', 'text', 'select', 'calculated', 'time_based', 'vitals');
const operators = fc.oneof(
  fc.constantFrom('equals', 'not_equals', '>', '<', '>=', '<=', 'contains', 'starts_with', 'ends_with', 'before', 'after', 'within_days'),
  hostile,
);
const values: fc.Arbitrary<unknown> = fc.oneof(hostile, fc.double(), fc.boolean(), fc.constant(null));

/** Own properties even for '__proto__', which plain assignment would turn into a prototype change. */
function ownRecord(entries: [string, unknown][]): Answers {
  const record: Answers = {};
  for (const [key, value] of entries) {
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return record;
}

const GENERATED_CODE_ALPHABET = /^[A-Za-z0-9_\s.,;:(){}[\]=!<>?&|^+-]*$/;

describe('compileRuleSet with hostile names and values', () => {
  afterEach(() => {
    delete g[SENTINEL];
  });

  it('never turns rule text into code, and still agrees with the interpreter', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: hostile, name: hostile, display_name: hostile, data_type: dataTypes }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.array(
          fc.record({
            id: hostile,
            name: hostile,
            conditions: fc.array(
              fc.record({ parameter: hostile, operator: operators, value: values, logic: fc.constantFrom('AND', 'OR') }),
              { maxLength: 4 },
            ),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        fc.array(fc.tuple(hostile, values), { maxLength: 8 }),
        fc.boolean(),
        (rawParameters, rawRules, answerEntries, referToParameters) => {
          const parameters: EngineParameter[] = rawParameters.map((p) => ({ ...p }));
          const rules: EngineRule[] = rawRules.map((r, i) => ({
            ...r,
            priority: 0,
            actions: [{ type: 'alert', message: r.name }],
            conditions: r.conditions.map((c, j): Condition => ({
              ...c,
              // Half of the conditions point at real (hostile-named) parameters.
              parameter: referToParameters && j % 2 === 0 ? parameters[(i + j) % parameters.length].name : c.parameter,
            })),
          }));
          const answers = ownRecord([
            ...answerEntries,
            ...parameters.map((p, i): [string, unknown] => [p.id, answerEntries[i]?.[1] ?? null]),
          ]);
          const compiled = compileRuleSet(rules, parameters, { conditionsPerFunction: 3 });
          const index = buildParameterIndex(parameters);
          for (const unanswered of ['unknown', 'skip'] as const) {
            const results = compiled.evaluate(answers, { unanswered, now: '2024-06-01' });
            rules.forEach((rule, i) => {
              const plain = evaluateRule(rule, answers, index, { unanswered, now: '2024-06-01' }).result;
              if (results[i] !== plain) expect({ rule, answers, compiled: results[i] }).toEqual({ rule, answers, compiled: plain });
            });
            expect(compiled.generatedSource(unanswered)).toMatch(GENERATED_CODE_ALPHABET);
          }
          expect(g[SENTINEL]).toBeUndefined();
        },
      ),
      { numRuns: 400 },
    );
  });

  it('reads an answer keyed "__proto__" or "constructor" only when it is really given', () => {
    const parameters: EngineParameter[] = [
      { id: '__proto__', name: '__proto__', display_name: 'Proto', data_type: 'number' },
      { id: 'constructor', name: 'constructor', display_name: 'Ctor', data_type: 'text' },
    ];
    const rules: EngineRule[] = [
      { id: 'a', name: 'A', priority: 0, actions: [], conditions: [{ parameter: '__proto__', operator: '>', value: 1 }] },
      { id: 'b', name: 'B', priority: 0, actions: [], conditions: [{ parameter: 'constructor', operator: 'contains', value: 'function' }] },
    ];
    const compiled = compileRuleSet(rules, parameters);
    expect(compiled.evaluate({})).toEqual(['unknown', 'unknown']);
    expect(compiled.evaluate(ownRecord([['__proto__', 5 as AnswerValue]]))).toEqual([true, 'unknown']);
  });
});
