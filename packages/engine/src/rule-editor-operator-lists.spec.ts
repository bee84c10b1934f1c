import { operatorsForDataType } from './operators';

describe('Rule editor: "Operator lists by parameter data type in the rule editor"', () => {
  it.each(['number', 'vitals', 'lab_range'])(
    '"number, vitals, lab_range: equals, not_equals, greater_than, less_than, greater_equal, less_equal" (%s)',
    (type) => {
      expect(operatorsForDataType(type)).toEqual(['equals', 'not_equals', 'greater_than', 'less_than', 'greater_equal', 'less_equal']);
    },
  );

  it('"text: equals, not_equals, contains, starts_with, ends_with"', () => {
    expect(operatorsForDataType('text')).toEqual(['equals', 'not_equals', 'contains', 'starts_with', 'ends_with']);
  });

  it.each(['date', 'time_based'])('"date, time_based: equals, not_equals, before, after, within_days" (%s)', (type) => {
    expect(operatorsForDataType(type)).toEqual(['equals', 'not_equals', 'before', 'after', 'within_days']);
  });

  it("\"boolean: 'Is' and 'Is Not'\" — stored as the canonical equals / not_equals", () => {
    expect(operatorsForDataType('boolean')).toEqual(['equals', 'not_equals']);
  });

  it.each(['select', 'something_new', '', undefined])('"select and any unknown type: equals, not_equals" (%j)', (type) => {
    expect(operatorsForDataType(type)).toEqual(['equals', 'not_equals']);
  });
});
