import { clinicalOptions } from './clinical';
import { aRule, cond, WT_LB } from './testing/builders';

describe('Clinical assessment: "With no numeric thresholds the single option is \'{name} (no specific range)\' with value unknown."', () => {
  it('offers only the unknown option', () => {
    expect(clinicalOptions(WT_LB, [aRule('Odd', [cond(WT_LB.id, '>', 'heavy')])])).toEqual([
      { label: 'Wt_lb (no specific range)', value: 'unknown' },
    ]);
  });
});
