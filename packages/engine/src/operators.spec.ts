import { canonicalOperator, operatorsForDataType, typeClassOf } from './operators';

describe('canonicalOperator', () => {
  it.each([
    ['equals', 'equals'],
    ['==', 'equals'],
    ['=', 'equals'],
    ['is', 'equals'],
    ['Is', 'equals'],
    ['not_equals', 'not_equals'],
    ['!=', 'not_equals'],
    ['is_not', 'not_equals'],
    ['Is Not', 'not_equals'],
    ['greater_than', 'greater_than'],
    ['>', 'greater_than'],
    ['less_than', 'less_than'],
    ['<', 'less_than'],
    ['greater_equal', 'greater_equal'],
    ['>=', 'greater_equal'],
    ['less_equal', 'less_equal'],
    ['<=', 'less_equal'],
    [' GREATER_THAN ', 'greater_than'],
    ['contains', 'contains'],
    ['starts_with', 'starts_with'],
    ['ends_with', 'ends_with'],
    ['before', 'before'],
    ['after', 'after'],
    ['within_days', 'within_days'],
  ])('reads %j as %s', (spelling, canonical) => {
    expect(canonicalOperator(spelling)).toBe(canonical);
  });

  it.each(['', '===', '=>', '≥', 'between', 'constructor', '__proto__', 'toString'])('does not know %j', (spelling) => {
    expect(canonicalOperator(spelling)).toBeNull();
  });

  it('does not know non-text operators', () => {
    expect(canonicalOperator(undefined)).toBeNull();
    expect(canonicalOperator(5)).toBeNull();
  });
});

describe('operatorsForDataType', () => {
  it('treats calculated parameters (BMI) like numbers', () => {
    expect(operatorsForDataType('calculated')).toEqual(operatorsForDataType('number'));
    expect(typeClassOf('calculated')).toBe('numeric');
  });

  it('ignores case and surrounding spaces in the data type', () => {
    expect(operatorsForDataType(' Lab_Range ')).toEqual(operatorsForDataType('lab_range'));
  });

  it('returns a fresh list each time, so a caller cannot change the next answer', () => {
    const first = operatorsForDataType('number');
    first.pop();
    expect(operatorsForDataType('number')).toHaveLength(6);
  });
});
