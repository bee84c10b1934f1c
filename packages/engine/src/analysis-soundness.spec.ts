import fc from 'fast-check';
import { analyzeRuleSet } from './analysis';
import { evaluatePreparedRule, prepareRule } from './evaluate';
import { buildParameterIndex } from './parameters';
import { ANTIBODIES, aRule, cond, GLUCOSE, HBA1C, LAST_EYE_EXAM } from './testing/builders';
import type { AnswerValue, Answers, Condition, EngineRule } from './types';

const PARAMETERS = [HBA1C, GLUCOSE, ANTIBODIES, LAST_EYE_EXAM];
const INDEX = buildParameterIndex(PARAMETERS);
const numbers = [6, 6.5, 7];
const dates = ['2024-01-01', '2024-01-02', '2024-01-03'];

const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(HBA1C.id, GLUCOSE.id),
      fc.constantFrom('>', '<', '>=', '<=', '==', '!='),
      fc.constantFrom(...numbers),
      fc.constantFrom<'AND' | 'OR'>('AND', 'AND', 'OR'),
    )
    .map(([p, op, v, l]) => cond(p, op, v, l)),
  fc.tuple(fc.constantFrom('equals', 'not_equals'), fc.boolean()).map(([op, v]) => cond(ANTIBODIES.id, op, v)),
  fc
    .tuple(fc.constantFrom('before', 'after', 'equals', 'not_equals'), fc.constantFrom(...dates))
    .map(([op, v]) => cond(LAST_EYE_EXAM.id, op, v)),
);
const rules = fc
  .array(fc.array(condition, { minLength: 1, maxLength: 4 }), { minLength: 2, maxLength: 8 })
  .map((sets) => sets.map((conditions, i) => aRule(`Rule ${i}`, conditions)));

/** Every combination of answers that sits on, just below and just above each threshold. */
function answerSets(withRanges: boolean): Answers[] {
  const points = [4.5, 5, 5.75, 6, 6.25, 6.5, 7, 7.5];
  const numeric: AnswerValue[] = [
    ...points,
    ...(withRanges ? [{ type: 'range', min: 5, max: 7 } as AnswerValue, { type: 'range', min: 6, max: 6.5 } as AnswerValue] : []),
  ];
  const sets: Answers[] = [];
  for (const a of numeric)
    for (const g of numeric)
      for (const b of [true, false])
        for (const d of ['2023-12-31', ...dates, '2024-01-04'])
          sets.push({ [HBA1C.id]: a, [GLUCOSE.id]: g, [ANTIBODIES.id]: b, [LAST_EYE_EXAM.id]: d });
  return sets;
}
const SCALAR = answerSets(false);
const WITH_RANGES = answerSets(true);

describe('analyzeRuleSet is sound: what it claims holds for every answer', () => {
  it('rules it says can never fire never fire; shadowed rules never fire without the rule above; duplicates agree', () => {
    fc.assert(
      fc.property(rules, (ruleSet: EngineRule[]) => {
        const findings = analyzeRuleSet(ruleSet, PARAMETERS);
        const byId = new Map(ruleSet.map((r) => [r.id, prepareRule(r, INDEX)]));
        const fires = (id: string, answers: Answers): boolean => evaluatePreparedRule(byId.get(id)!, answers).result === true;
        for (const f of findings) {
          if (f.code === 'unsatisfiable_rule') {
            const counterexample = (f.severity === 'error' ? WITH_RANGES : SCALAR).find((answers) => fires(f.rule_ids[0], answers));
            expect({ finding: f, counterexample }).toEqual({ finding: f, counterexample: undefined });
          }
          if (f.code === 'shadowed_rule' || f.code === 'duplicate_rule') {
            const [above, below] = f.rule_ids;
            const counterexample = WITH_RANGES.find((answers) => fires(below, answers) && !fires(above, answers));
            expect({ finding: f, counterexample }).toEqual({ finding: f, counterexample: undefined });
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
