import { clinicalQuestionOrder, clinicalStart } from './clinical';
import { ANTIBODIES, aParameter, aRule, cond, GLUCOSE, HBA1C, TSH, WT_LB } from './testing/builders';

describe('Clinical assessment: "Parameter order: fixed names first, TSH then Antibodies then Wt_lb, then any other parameter appearing in active rules."', () => {
  const rules = [
    aRule('Glycaemia', [cond(HBA1C.id, '>', 6.5), cond(GLUCOSE.id, '>', 126)], { priority: 90 }),
    aRule('Weight', [cond(WT_LB.id, '>', 250)], { priority: 50 }),
    aRule('Thyroid', [cond(ANTIBODIES.id, 'equals', true), cond(TSH.id, '>', 4.5)], { priority: 10 }),
  ];

  it('asks TSH, Antibodies, Wt_lb first, then the others in the order the rules use them (highest priority first)', () => {
    expect(clinicalQuestionOrder(rules, [GLUCOSE, HBA1C, WT_LB, ANTIBODIES, TSH]).map((p) => p.name)).toEqual([
      'TSH',
      'Antibodies',
      'Wt_lb',
      'hba1c',
      'fasting_glucose',
    ]);
  });

  it('starts the assessment with TSH', () => {
    expect(clinicalStart(rules, [GLUCOSE, HBA1C, WT_LB, ANTIBODIES, TSH])).toMatchObject({ status: 'question', parameter_id: TSH.id });
  });

  it('recognises the fixed names whatever their case', () => {
    const tsh = aParameter('tsh', 'lab_range', { id: 'p-thyroid' });
    expect(clinicalQuestionOrder([aRule('A', [cond(HBA1C.id, '>', 7), cond(tsh.id, '>', 4.5)])], [HBA1C, tsh])[0]).toBe(tsh);
  });
});
