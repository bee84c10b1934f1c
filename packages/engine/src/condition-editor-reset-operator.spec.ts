import { operatorsForDataType } from './operators';

describe('Condition editor: "changing a condition\'s parameter resets its operator to the first operator valid for that parameter\'s data type"', () => {
  it.each([
    ['number', 'equals'],
    ['text', 'equals'],
    ['date', 'equals'],
    ['boolean', 'equals'],
    ['select', 'equals'],
  ])('the first operator for %s is %s', (type, first) => {
    expect(operatorsForDataType(type)[0]).toBe(first);
  });
});
