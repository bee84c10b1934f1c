import { ANTIBODIES, HBA1C, NOTES, WT_LB } from './testing/builders';
import { validateCondition } from './validate';

describe('Rule editor: "Condition value input: True/False dropdown for boolean, numeric input for number, otherwise text"', () => {
  it('boolean parameters take true or false, not the words', () => {
    expect(validateCondition({ parameter: ANTIBODIES.id, operator: 'equals', value: true }, ANTIBODIES)).toEqual([]);
    expect(validateCondition({ parameter: ANTIBODIES.id, operator: 'equals', value: 'True' }, ANTIBODIES)).toEqual([
      { field: 'value', message: 'Thyroid Antibodies is compared with True or False; "True" is neither.' },
    ]);
  });

  it('number parameters take a number, not a number written as text', () => {
    expect(validateCondition({ parameter: WT_LB.id, operator: 'greater_than', value: 200 }, WT_LB)).toEqual([]);
    expect(validateCondition({ parameter: WT_LB.id, operator: 'greater_than', value: '200' }, WT_LB)).toEqual([
      { field: 'value', message: 'Weight is compared with a number; "200" is not a number.' },
    ]);
  });

  it('lab values (numeric types) take a number too', () => {
    expect(validateCondition({ parameter: HBA1C.id, operator: 'less_than', value: Number.NaN }, HBA1C)).toHaveLength(1);
  });

  it('other types take text', () => {
    expect(validateCondition({ parameter: NOTES.id, operator: 'equals', value: 'insulin' }, NOTES)).toEqual([]);
    expect(validateCondition({ parameter: NOTES.id, operator: 'equals', value: 12 }, NOTES)).toEqual([
      { field: 'value', message: 'Clinical Notes is compared with a text value; enter one.' },
    ]);
  });
});
