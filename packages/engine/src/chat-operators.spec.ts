import { chatEvaluate } from './chat';
import { aRule, cond, HBA1C } from './testing/builders';

describe('Chat session: "Chatbot condition operators: >=, <=, >, <, ==, !=."', () => {
  const matches = (operator: string, threshold: number, answer: number): boolean =>
    chatEvaluate([aRule('R', [cond(HBA1C.id, operator, threshold)])], [HBA1C], { [HBA1C.id]: answer }).length === 1;

  it.each([
    ['>=', 7, 7, true],
    ['>=', 7, 6.9, false],
    ['<=', 7, 7, true],
    ['<=', 7, 7.1, false],
    ['>', 7, 7.1, true],
    ['>', 7, 7, false],
    ['<', 7, 6.9, true],
    ['<', 7, 7, false],
    ['==', 7, 7, true],
    ['==', 7, 7.1, false],
    ['!=', 7, 7.1, true],
    ['!=', 7, 7, false],
  ])('%s %s with answer %s matches: %s', (operator, threshold, answer, expected) => {
    expect(matches(operator, threshold, answer)).toBe(expected);
  });
});
