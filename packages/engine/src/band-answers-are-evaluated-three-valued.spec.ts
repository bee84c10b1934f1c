import { chatEvaluate } from './chat';
import { aRule, band, checkCondition, cond, HBA1C } from './testing/builders';
import type { AnswerValue } from './types';

/**
 * Issue 9: a band is true when every value in it satisfies the condition, false when none does,
 * and unknown when it straddles the threshold. (Product-spec §4's reading — ">= uses min, <= uses
 * max" — made a straddling band false, and "== passes when the value lies within min..max" made
 * a band equal to a value it merely contains.)
 */
describe('Band answers are evaluated three-valued', () => {
  const a1c = (operator: string, threshold: number, answer: AnswerValue) => checkCondition(HBA1C, operator, threshold, answer);

  it.each([
    ['>=', 6.5, band(6.5, null, true, false), true],
    ['>=', 6.5, band(5.7, 6.5, true, false), false],
    ['>=', 6.5, band(5.7, 7, true, false), 'unknown'],
    ['>', 6.5, band(6.5, null, false, false), true],
    ['>', 6.5, band(6.5, null, true, false), 'unknown'],
    ['>', 6.5, band(5.7, 6.5, true, true), false],
    ['<', 5.7, band(null, 5.7, false, false), true],
    ['<', 5.7, band(null, 5.7, false, true), 'unknown'],
    ['<', 5.7, band(5.7, 6.5, true, false), false],
    ['<=', 9, band(6.5, 9, true, true), true],
    ['<=', 9, band(9, null, false, false), false],
    ['<=', 9, band(9, null, true, false), 'unknown'],
  ])('"%s %s" on %j is %s', (operator, threshold, answer, expected) => {
    expect(a1c(operator as string, threshold as number, answer as AnswerValue)).toBe(expected);
  });

  it('"=" holds only for the point band, is false for a band without the value, unknown for one containing it', () => {
    expect(a1c('==', 7, band(7, 7, true, true))).toBe(true);
    expect(a1c('==', 7, band(6.5, 7, true, false))).toBe(false);
    expect(a1c('==', 7, band(6.5, 9, true, true))).toBe('unknown');
    expect(a1c('!=', 7, band(6.5, 7, true, false))).toBe(true);
    expect(a1c('!=', 7, band(7, 7, true, true))).toBe(false);
    expect(a1c('!=', 7, band(6.5, 9, true, true))).toBe('unknown');
  });

  it('compares an exact number as before', () => {
    expect(a1c('>=', 6.5, 6.5)).toBe(true);
    expect(a1c('<', 6.5, 6.5)).toBe(false);
    expect(a1c('>', 6.5, 6.5)).toBe(false);
    expect(a1c('==', 6.5, 6.5)).toBe(true);
  });

  it('reads ranges stored before the inclusivity flags as closed intervals', () => {
    expect(a1c('>=', 6, { type: 'range', min: 6, max: 7 })).toBe(true);
    expect(a1c('<=', 7, { type: 'range', min: 6, max: 7 })).toBe(true);
    expect(a1c('>=', 6.5, { type: 'range', min: 6, max: 7 })).toBe('unknown');
  });

  it('treats an open band (null ends) as reaching to infinity', () => {
    expect(a1c('>', 100, band(6.5, null, true, false))).toBe('unknown');
    expect(a1c('<', -100, band(null, 5.7, false, false))).toBe('unknown');
    expect(a1c('>=', 0, band(null, null, false, false))).toBe('unknown');
  });

  it('is unknown, never matched, for an empty or inverted interval', () => {
    expect(a1c('>=', 0, { type: 'range', min: 7, max: 6 })).toBe('unknown');
    expect(a1c('>=', 0, band(6, 6, true, false))).toBe('unknown');
    expect(chatEvaluate([aRule('R', [cond(HBA1C.id, '>=', 0)])], [HBA1C], { [HBA1C.id]: { type: 'range', min: 7, max: 6 } })).toEqual([]);
  });
});
