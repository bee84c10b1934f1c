import { evaluateRule } from './evaluate';
import { aRule, cond, GLUCOSE, HBA1C } from './testing/builders';

describe('Rule editor: "The logic operator is shown on every condition except the last."', () => {
  it('ignores the logic stored on the last condition: it links to nothing', () => {
    const withTrailingOr = aRule('R', [cond(HBA1C.id, '>', 7, 'AND'), cond(GLUCOSE.id, '>', 126, 'OR')]);
    const answers = { [HBA1C.id]: 8, [GLUCOSE.id]: 90 };
    expect(evaluateRule(withTrailingOr, answers, [HBA1C, GLUCOSE]).result).toBe(false);
    expect(evaluateRule(withTrailingOr, answers, [HBA1C, GLUCOSE]).trace.map((t) => t.group)).toEqual([0, 0]);
  });
});
