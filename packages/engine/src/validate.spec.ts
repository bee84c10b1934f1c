import { aParameter, ANTIBODIES, DIABETES_TYPE, HBA1C, LAST_EYE_EXAM, NOTES } from './testing/builders';
import { validateCondition } from './validate';

describe('validateCondition', () => {
  it('accepts a well-formed condition', () => {
    expect(validateCondition({ parameter: HBA1C.id, operator: 'greater_than', value: 6.5, logic: 'AND' }, HBA1C)).toEqual([]);
  });

  it('reports a missing parameter', () => {
    expect(validateCondition({ parameter: 'p-gone', operator: '>', value: 1 }, null)).toEqual([
      { field: 'parameter', message: 'Parameter "p-gone" does not exist.' },
    ]);
    expect(validateCondition({ parameter: '', operator: '>', value: 1 }, undefined)[0]).toEqual({
      field: 'parameter',
      message: 'Choose a parameter.',
    });
  });

  it('reports an inactive parameter', () => {
    const retired = aParameter('old_a1c', 'number', { display_name: 'Old A1c', is_active: false });
    expect(validateCondition({ parameter: retired.id, operator: '>', value: 7 }, retired)).toEqual([
      { field: 'parameter', message: 'Parameter "Old A1c" is inactive and is no longer asked.' },
    ]);
  });

  it('reports an unknown operator and an empty one', () => {
    expect(validateCondition({ parameter: HBA1C.id, operator: 'between', value: 7 }, HBA1C)).toEqual([
      { field: 'operator', message: 'Unknown operator "between".' },
    ]);
    expect(validateCondition({ parameter: HBA1C.id, operator: '', value: 7 }, HBA1C)).toEqual([
      { field: 'operator', message: 'Choose an operator.' },
    ]);
  });

  it('reports an operator the editor does not offer for the data type', () => {
    expect(validateCondition({ parameter: HBA1C.id, operator: 'contains', value: '7' }, HBA1C)).toEqual([
      {
        field: 'operator',
        message:
          '"contains" cannot be used with HbA1c (lab_range); use one of: equals, not_equals, greater_than, less_than, greater_equal, less_equal.',
      },
    ]);
  });

  it('reports logic that is neither AND nor OR', () => {
    expect(validateCondition({ parameter: HBA1C.id, operator: '>', value: 7, logic: 'XOR' }, HBA1C)).toEqual([
      { field: 'logic', message: 'Logic must be AND or OR, not "XOR".' },
    ]);
  });

  it('reads older condition shapes', () => {
    expect(validateCondition({ parameter_id: HBA1C.id, operator: '>=', value: 6.5, logicOperator: 'OR' }, HBA1C)).toEqual([]);
  });

  it('checks within_days takes a whole number of days', () => {
    expect(validateCondition({ parameter: LAST_EYE_EXAM.id, operator: 'within_days', value: 365 }, LAST_EYE_EXAM)).toEqual([]);
    expect(validateCondition({ parameter: LAST_EYE_EXAM.id, operator: 'within_days', value: '2024-01-01' }, LAST_EYE_EXAM)).toEqual([
      { field: 'value', message: '"Within days" needs a whole number of days (0 or more); "2024-01-01" is not one.' },
    ]);
    expect(validateCondition({ parameter: LAST_EYE_EXAM.id, operator: 'within_days', value: -3 }, LAST_EYE_EXAM)).toHaveLength(1);
  });

  it('checks dates are real ISO dates', () => {
    expect(validateCondition({ parameter: LAST_EYE_EXAM.id, operator: 'before', value: '2024-02-29' }, LAST_EYE_EXAM)).toEqual([]);
    expect(validateCondition({ parameter: LAST_EYE_EXAM.id, operator: 'before', value: '2023-02-29' }, LAST_EYE_EXAM)).toEqual([
      { field: 'value', message: 'Last Eye Exam is compared with a date written as YYYY-MM-DD; "2023-02-29" is not a valid date.' },
    ]);
  });

  it('checks text and choice conditions have a non-empty value', () => {
    expect(validateCondition({ parameter: NOTES.id, operator: 'contains', value: 'insulin' }, NOTES)).toEqual([]);
    expect(validateCondition({ parameter: DIABETES_TYPE.id, operator: 'equals', value: '  ' }, DIABETES_TYPE)).toEqual([
      { field: 'value', message: 'Diabetes Type is compared with a text value; enter one.' },
    ]);
  });

  it('reports every problem at once', () => {
    expect(
      validateCondition({ parameter: ANTIBODIES.id, operator: '>', value: 'yes', logic: 'maybe' }, ANTIBODIES).map((e) => e.field),
    ).toEqual(['operator', 'value', 'logic']);
  });
});
