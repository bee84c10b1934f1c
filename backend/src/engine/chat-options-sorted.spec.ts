import { chatOptions } from './chat';
import { aRule, cond, WT_LB } from './testing/builders';

describe('Chat session: "Sorted ascending by value."', () => {
  it('orders options by the value they submit, not by rule order', () => {
    const rules = [aRule('Heavy', [cond(WT_LB.id, '>', 300)]), aRule('Light', [cond(WT_LB.id, '<', 100)]), aRule('Mid', [cond(WT_LB.id, '==', 180)])];
    expect(chatOptions(WT_LB, rules).map((o) => o.value)).toEqual([99, 180, 301]);
  });
});
