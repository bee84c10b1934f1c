import { describe, expect, it } from 'vitest';
import { parameter } from '../test/fixtures';
import { changeParameter, operatorLabel, operatorsFor, typedValue, valueKind, valueProblem, type ConditionDraft } from './conditionRules';

describe('operator lists by data type (spec section 5)', () => {
  it.each(['number', 'vitals', 'lab_range'])('%s: equals, not_equals, greater_than, less_than, greater_equal, less_equal', (t) => {
    expect(operatorsFor(t)).toEqual(['equals', 'not_equals', 'greater_than', 'less_than', 'greater_equal', 'less_equal']);
  });
  it('text: equals, not_equals, contains, starts_with, ends_with', () => {
    expect(operatorsFor('text')).toEqual(['equals', 'not_equals', 'contains', 'starts_with', 'ends_with']);
  });
  it.each(['date', 'time_based'])('%s: equals, not_equals, before, after, within_days', (t) => {
    expect(operatorsFor(t)).toEqual(['equals', 'not_equals', 'before', 'after', 'within_days']);
  });
  it("boolean: 'Is' and 'Is Not'", () => {
    expect(operatorsFor('boolean').map((op) => operatorLabel(op, 'boolean'))).toEqual(['Is', 'Is Not']);
  });
  it.each(['select', 'something_new', '', undefined])('select and any unknown type (%j): equals, not_equals', (t) => {
    expect(operatorsFor(t)).toEqual(['equals', 'not_equals']);
  });
});

describe('changing the parameter resets the operator (spec section 4)', () => {
  const lab = parameter({ id: 'lab', data_type: 'lab_range' });
  const flag = parameter({ id: 'flag', data_type: 'boolean' });
  const note = parameter({ id: 'note', data_type: 'text' });
  const start: ConditionDraft = { key: 'k', parameter: 'lab', operator: 'greater_than', value: '7', logic: 'OR' };

  it('to the first operator valid for the new data type', () => {
    expect(changeParameter(start, flag, lab)).toMatchObject({ parameter: 'flag', operator: 'equals' });
    expect(changeParameter({ ...start, operator: 'less_equal' }, note, lab)).toMatchObject({ parameter: 'note', operator: 'equals' });
  });
  it('even when the new parameter has the same type', () => {
    expect(changeParameter(start, parameter({ id: 'lab2', data_type: 'number' }), lab)).toMatchObject({ operator: 'equals', value: '7' });
  });
  it('clears a value of the wrong kind, keeps the logic', () => {
    expect(changeParameter(start, flag, lab)).toMatchObject({ value: '', logic: 'OR' });
  });
});

describe('value input follows the type', () => {
  it('True/False for boolean, a number for numeric types, days and dates for date operators, text otherwise', () => {
    expect(valueKind(parameter({ data_type: 'boolean' }), 'equals')).toBe('boolean');
    expect(valueKind(parameter({ data_type: 'number' }), 'equals')).toBe('number');
    expect(valueKind(parameter({ data_type: 'calculated' }), 'equals')).toBe('number');
    expect(valueKind(parameter({ data_type: 'date' }), 'within_days')).toBe('days');
    expect(valueKind(parameter({ data_type: 'date' }), 'before')).toBe('date');
    expect(valueKind(parameter({ data_type: 'text' }), 'contains')).toBe('text');
    expect(valueKind(parameter({ data_type: 'select' }), 'equals')).toBe('text');
    expect(valueKind(parameter({ data_type: 'select', validation_rules: { options: [{ label: 'Type 1', value: 't1' }] } }), 'equals')).toBe(
      'option',
    );
  });
  it('stores typed values and refuses what the server would', () => {
    expect(typedValue('7.5', 'number')).toBe(7.5);
    expect(typedValue('true', 'boolean')).toBe(true);
    expect(typedValue('30', 'days')).toBe(30);
    expect(valueProblem('abc', 'number')).toBe('Enter a number.');
    expect(valueProblem('1.5', 'days')).toMatch(/whole number/);
    expect(valueProblem('2025-13-45', 'date')).toMatch(/date/);
    expect(valueProblem('', 'text')).toBe('Enter a value.');
    expect(valueProblem('2025-01-31', 'date')).toBeNull();
  });
});
