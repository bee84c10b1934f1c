import { chatEvaluate } from './chat';
import { aRule, cond, HBA1C } from './testing/builders';
import type { AnswerValue } from './types';

describe('Chat session: "Range answers (type range with min and max): >= uses min, <= uses max, > uses min, < uses max, == passes when the value lies within min..max."', () => {
  const range = (min: number, max: number): AnswerValue => ({ type: 'range', min, max });
  const matches = (operator: string, threshold: number, answer: AnswerValue): boolean =>
    chatEvaluate([aRule('R', [cond(HBA1C.id, operator, threshold)])], [HBA1C], { [HBA1C.id]: answer }).length === 1;

  it.each([
    ['>=', 6, true],
    ['>=', 6.5, false],
    ['>', 5.9, true],
    ['>', 6, false],
  ])('"%s %s" uses min (range 6-7): %s', (operator, threshold, expected) => {
    expect(matches(operator, threshold, range(6, 7))).toBe(expected);
  });

  it.each([
    ['<=', 7, true],
    ['<=', 6.5, false],
    ['<', 7.1, true],
    ['<', 7, false],
  ])('"%s %s" uses max (range 6-7): %s', (operator, threshold, expected) => {
    expect(matches(operator, threshold, range(6, 7))).toBe(expected);
  });

  it.each([
    [6, true],
    [6.5, true],
    [7, true],
    [5.9, false],
    [7.1, false],
  ])('"== %s" passes when the threshold lies within 6..7: %s', (threshold, expected) => {
    expect(matches('==', threshold, range(6, 7))).toBe(expected);
  });

  it('"!=" passes when the threshold lies outside min..max (the negation of ==)', () => {
    expect(matches('!=', 8, range(6, 7))).toBe(true);
    expect(matches('!=', 6.5, range(6, 7))).toBe(false);
  });

  it('does not match on a range it cannot read (min above max)', () => {
    expect(matches('>=', 0, range(7, 6))).toBe(false);
    expect(chatEvaluate([aRule('R', [cond(HBA1C.id, '>=', 0)])], [HBA1C], { [HBA1C.id]: range(7, 6) })).toEqual([]);
  });
});
