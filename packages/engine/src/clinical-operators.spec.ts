import { clinicalStep } from './clinical';
import { aRule, cond, DIABETES_TYPE, HBA1C } from './testing/builders';
import type { AnswerValue, EngineParameter } from './types';

describe('Clinical assessment: "Clinical operators: equals (strict equality), greater_than, greater_equal, less_than, less_equal (numeric)."', () => {
  const recommends = (parameter: EngineParameter, operator: string, threshold: unknown, answer: AnswerValue): boolean => {
    const step = clinicalStep([aRule('R', [cond(parameter.id, operator, threshold)])], [parameter], { [parameter.id]: answer });
    return step.status === 'completed' && step.recommendation !== null;
  };

  it.each([
    ['greater_than', 7, 7.5, true],
    ['greater_than', 7, 7, false],
    ['greater_equal', 7, 7, true],
    ['less_than', 7, 6.9, true],
    ['less_than', 7, 7, false],
    ['less_equal', 7, 7, true],
    ['equals', 7, 7, true],
    ['equals', 7, 7.01, false],
  ])('%s %s with %s recommends: %s', (operator, threshold, answer, expected) => {
    expect(recommends(HBA1C, operator, threshold, answer)).toBe(expected);
  });

  it('compares text strictly (letter case matters)', () => {
    expect(recommends(DIABETES_TYPE, 'equals', 'Type 2', 'Type 2')).toBe(true);
    expect(recommends(DIABETES_TYPE, 'equals', 'Type 2', 'type 2')).toBe(false);
  });

  it('compares numbers as numbers, so a threshold saved as text still works', () => {
    expect(recommends(HBA1C, 'equals', '7', 7)).toBe(true);
  });
});
