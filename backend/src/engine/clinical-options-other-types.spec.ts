import { clinicalOptions } from './clinical';
import { aRule, cond, DIABETES_TYPE, LAST_EYE_EXAM } from './testing/builders';

describe('Clinical assessment: "Other types give one option per distinct value, \'{name} = {value}\'."', () => {
  it('offers each distinct value once, in the order the rules use them', () => {
    const rules = [
      aRule('T2', [cond(DIABETES_TYPE.id, 'equals', 'Type 2')]),
      aRule('T1', [cond(DIABETES_TYPE.id, 'equals', 'Type 1')]),
      aRule('Not T2', [cond(DIABETES_TYPE.id, 'not_equals', 'Type 2')]),
    ];
    expect(clinicalOptions(DIABETES_TYPE, rules)).toEqual([
      { label: 'diabetes_type = Type 2', value: 'Type 2' },
      { label: 'diabetes_type = Type 1', value: 'Type 1' },
    ]);
  });

  it('applies to dates too', () => {
    expect(clinicalOptions(LAST_EYE_EXAM, [aRule('Overdue', [cond(LAST_EYE_EXAM.id, 'before', '2024-01-01')])])).toEqual([
      { label: 'last_eye_exam = 2024-01-01', value: '2024-01-01' },
    ]);
  });
});
