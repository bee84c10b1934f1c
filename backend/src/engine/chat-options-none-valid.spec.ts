import { chatOptions } from './chat';
import { aRule, cond, NOTES, WT_LB } from './testing/builders';

describe('Chat session: "If none are valid: Low, Normal, High."', () => {
  it('falls back when no condition gives a usable option', () => {
    const rules = [aRule('Text', [cond(NOTES.id, 'contains', 'insulin')]), aRule('Not', [cond(NOTES.id, '!=', 'none')]), aRule('Bad', [cond(NOTES.id, 'bogus', 1)])];
    expect(chatOptions(NOTES, rules)).toEqual([
      { label: 'Low', value: 'low' },
      { label: 'Normal', value: 'normal' },
      { label: 'High', value: 'high' },
    ]);
  });

  it('treats a comparison with a threshold that is not a number as not valid', () => {
    expect(chatOptions(WT_LB, [aRule('Odd', [cond(WT_LB.id, '>', 'heavy')])]).map((o) => o.label)).toEqual(['Low', 'Normal', 'High']);
  });
});
