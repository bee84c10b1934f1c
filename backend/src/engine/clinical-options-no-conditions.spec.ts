import { clinicalOptions } from './clinical';
import { aRule, cond, HBA1C, WT_LB } from './testing/builders';

describe('Clinical assessment: "With no rule conditions: Normal ({name}) / Abnormal ({name})."', () => {
  it('offers Normal and Abnormal when no rule mentions the parameter', () => {
    expect(clinicalOptions(WT_LB, [aRule('A1c', [cond(HBA1C.id, '>', 7)])])).toEqual([
      { label: 'Normal (Wt_lb)', value: 'normal' },
      { label: 'Abnormal (Wt_lb)', value: 'abnormal' },
    ]);
  });
});
