import { chatOptions } from './chat';
import { aRule, cond, GLUCOSE, SMOKER } from './testing/builders';

describe('Chat session: "Option derivation: if no active rule mentions the parameter, options are Normal (normal), Abnormal (abnormal), Not Sure (unknown)."', () => {
  it('offers Normal, Abnormal and Not Sure', () => {
    expect(chatOptions(SMOKER, [aRule('Glucose', [cond(GLUCOSE.id, '>', 126)])])).toEqual([
      { label: 'Normal', value: 'normal' },
      { label: 'Abnormal', value: 'abnormal' },
      { label: 'Not Sure', value: 'unknown' },
    ]);
  });
});
