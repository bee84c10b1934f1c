import { clinicalOptions } from './clinical';
import { aRule, cond, DIABETES_TYPE, LAST_EYE_EXAM } from './testing/builders';

describe('Text and date questions without configured options', () => {
  it('offer each value the rules compare with by equality, once, then Not available', () => {
    const rules = [
      aRule('T2', [cond(DIABETES_TYPE.id, 'equals', 'Type 2')]),
      aRule('T1', [cond(DIABETES_TYPE.id, 'equals', 'Type 1')]),
      aRule('Not T2', [cond(DIABETES_TYPE.id, 'not_equals', 'Type 2')]),
    ];
    expect(clinicalOptions(DIABETES_TYPE, rules)).toEqual([
      { label: 'Diabetes Type = Type 2', value: 'Type 2' },
      { label: 'Diabetes Type = Type 1', value: 'Type 1' },
      { label: 'Not available', value: 'unknown' },
    ]);
  });

  // Offering a rule's threshold date as the patient's date would be a stand-in; dates are typed.
  it('do not offer a threshold of "before" as if it were the patient’s date', () => {
    expect(clinicalOptions(LAST_EYE_EXAM, [aRule('Overdue', [cond(LAST_EYE_EXAM.id, 'before', '2024-01-01')])])).toEqual([
      { label: 'Not available', value: 'unknown' },
    ]);
  });
});
