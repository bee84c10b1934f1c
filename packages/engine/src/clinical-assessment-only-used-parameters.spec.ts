import { clinicalQuestionOrder } from './clinical';
import { ANTIBODIES, aParameter, aRule, cond, HBA1C, TSH, WT_LB } from './testing/builders';

describe('Clinical assessment: "Only parameters used in rules are included."', () => {
  it('leaves out parameters no rule uses, the fixed ones included', () => {
    const rules = [aRule('A1c', [cond(HBA1C.id, '>', 7)]), aRule('Weight', [cond('wt_lb', '>', 250)])];
    expect(clinicalQuestionOrder(rules, [TSH, ANTIBODIES, WT_LB, HBA1C])).toEqual([WT_LB, HBA1C]);
  });

  it('leaves out inactive parameters, which can no longer be asked', () => {
    const retired = aParameter('old_a1c', 'number', { is_active: false });
    expect(clinicalQuestionOrder([aRule('Old', [cond(retired.id, '>', 7)])], [retired])).toEqual([]);
  });
});
