import { chatEvaluate } from './chat';
import { aRule, cond, GLUCOSE, HBA1C } from './testing/builders';

describe('Chat session: "Unknown operators fail."', () => {
  it('does not match a rule whose answered condition uses an unknown operator', () => {
    const rule = aRule('R', [cond(HBA1C.id, '>', 7), cond(GLUCOSE.id, '≫', 126)]);
    expect(chatEvaluate([rule], [HBA1C, GLUCOSE], { [HBA1C.id]: 8, [GLUCOSE.id]: 200 })).toEqual([]);
  });

  it('lets another OR branch still match', () => {
    const rule = aRule('R', [cond(GLUCOSE.id, 'between', 126, 'OR'), cond(HBA1C.id, '>', 7)]);
    expect(chatEvaluate([rule], [HBA1C, GLUCOSE], { [HBA1C.id]: 8, [GLUCOSE.id]: 200 })).toHaveLength(1);
  });
});
