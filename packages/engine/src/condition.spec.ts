import { ANTIBODIES, aParameter, BMI, checkCondition, DIABETES_TYPE, HBA1C, LAST_EYE_EXAM, NOTES } from './testing/builders';

describe('numeric conditions (number, lab_range, vitals, calculated)', () => {
  it.each([
    ['greater_than', 7, 7.1, true],
    ['greater_than', 7, 7, false],
    ['greater_equal', 7, 7, true],
    ['greater_equal', 7, 6.9, false],
    ['less_than', 6.5, 6.4, true],
    ['less_than', 6.5, 6.5, false],
    ['less_equal', 6.5, 6.5, true],
    ['less_equal', 6.5, 6.6, false],
    ['equals', 6.5, 6.5, true],
    ['equals', 6.5, 6.6, false],
    ['not_equals', 6.5, 6.6, true],
    ['not_equals', 6.5, 6.5, false],
  ])('HbA1c %s %s with answer %s is %s', (op, threshold, answer, expected) => {
    expect(checkCondition(HBA1C, op, threshold, answer)).toBe(expected);
  });

  it('reads numbers written as text on either side (older rules were saved from text inputs)', () => {
    expect(checkCondition(HBA1C, '>', '7', 8)).toBe(true);
    expect(checkCondition(HBA1C, '>', 7, ' 8.5 ')).toBe(true);
    expect(checkCondition(HBA1C, '==', '6.5', 6.5)).toBe(true);
  });

  it('compares a calculated parameter (BMI) as a number', () => {
    expect(checkCondition(BMI, '>=', 30, 31.2)).toBe(true);
  });

  it.each([
    ['the "unknown" option', 'unknown'],
    ['"Unknown" in any case', ' Unknown '],
    ['text that is not a number', 'high'],
    ['a yes/no answer', true],
    ['infinity', Infinity],
    ['a list', [7]],
  ])('is unknown, never false, for %s', (_label, answer) => {
    expect(checkCondition(HBA1C, '>', 7, answer)).toBe('unknown');
    expect(checkCondition(HBA1C, '<=', 7, answer)).toBe('unknown');
    expect(checkCondition(HBA1C, '!=', 7, answer)).toBe('unknown');
  });

  it.each([
    ['no answer', undefined],
    ['null', null],
    ['blank text', '  '],
  ])('is unknown when the question is unanswered (%s)', (_label, answer) => {
    expect(checkCondition(HBA1C, '<', 7, answer)).toBe('unknown');
  });

  it.each([
    ['text', 'high'],
    ['nothing', null],
    ['infinity', Infinity],
    ['an object', { min: 1 }],
  ])('always fails when the threshold is not a number (%s): a broken rule must not fire', (_label, threshold) => {
    expect(checkCondition(HBA1C, '>', threshold, 8)).toBe(false);
    expect(checkCondition(HBA1C, '!=', threshold, 8)).toBe(false);
    expect(checkCondition(HBA1C, '>', threshold, undefined)).toBe(false);
  });
});

describe('boolean conditions', () => {
  it.each([
    ['equals', true, true, true],
    ['equals', true, false, false],
    ['not_equals', true, false, true],
    ['not_equals', false, false, false],
    ['is', 'true', true, true],
    ['is_not', 'TRUE', 'false', true],
  ])('Antibodies %s %j with answer %j is %s', (op, threshold, answer, expected) => {
    expect(checkCondition(ANTIBODIES, op, threshold, answer)).toBe(expected);
  });

  it('is unknown for an answer that is not true or false', () => {
    expect(checkCondition(ANTIBODIES, 'equals', true, 'unknown')).toBe('unknown');
    expect(checkCondition(ANTIBODIES, 'equals', true, 1)).toBe('unknown');
  });

  it('always fails when the threshold is not true or false', () => {
    expect(checkCondition(ANTIBODIES, 'equals', 'yes', true)).toBe(false);
  });
});

describe('text and choice conditions', () => {
  it('equals is strict: exact text, letter case included', () => {
    expect(checkCondition(DIABETES_TYPE, 'equals', 'Type 2', 'Type 2')).toBe(true);
    expect(checkCondition(DIABETES_TYPE, 'equals', 'Type 2', 'type 2')).toBe(false);
    expect(checkCondition(DIABETES_TYPE, 'not_equals', 'Type 2', 'Type 1')).toBe(true);
  });

  it('compares a numeric answer to a choice by its text', () => {
    expect(checkCondition(DIABETES_TYPE, 'equals', '2', 2)).toBe(true);
  });

  it.each([
    ['contains', 'metformin', 'Started Metformin 500 mg', true],
    ['contains', 'insulin', 'Started Metformin 500 mg', false],
    ['starts_with', 'STARTED', 'Started Metformin', true],
    ['starts_with', 'metformin', 'Started Metformin', false],
    ['ends_with', '500 MG', 'Metformin 500 mg', true],
    ['ends_with', 'metformin', 'Metformin 500 mg', false],
  ])('%s %j in %j is %s, ignoring case', (op, threshold, answer, expected) => {
    expect(checkCondition(NOTES, op, threshold, answer)).toBe(expected);
  });

  // Issue 9: every question, selects and text included, offers Not available ('unknown'); it must
  // never satisfy "≠ Type 2" or "contains know".
  it('reads "unknown" as Not available for free text and choices too', () => {
    expect(checkCondition(DIABETES_TYPE, 'not_equals', 'Type 2', 'unknown')).toBe('unknown');
    expect(checkCondition(DIABETES_TYPE, 'equals', 'unknown', 'unknown')).toBe('unknown');
    expect(checkCondition(NOTES, 'contains', 'know', 'unknown')).toBe('unknown');
  });

  it('treats "unknown" as not known when the parameter is not text (text operators on a number)', () => {
    expect(checkCondition(HBA1C, 'contains', 'know', 'unknown')).toBe('unknown');
  });

  it('is unknown for a range answer, which has no text', () => {
    expect(checkCondition(NOTES, 'contains', 'a', { type: 'range', min: 1, max: 2 })).toBe('unknown');
  });

  it('always fails on an empty threshold', () => {
    expect(checkCondition(NOTES, 'contains', '', 'anything')).toBe(false);
  });
});

describe('date conditions', () => {
  it.each([
    ['before', '2024-03-01', '2024-02-29', true],
    ['before', '2024-03-01', '2024-03-01', false],
    ['after', '2024-03-01', '2024-03-02', true],
    ['after', '2024-03-01', '2024-03-01', false],
    ['equals', '2024-03-01', '2024-03-01T08:30:00Z', true],
    ['not_equals', '2024-03-01', '2024-03-02', true],
  ])('%s %s with answer %s is %s', (op, threshold, answer, expected) => {
    expect(checkCondition(LAST_EYE_EXAM, op, threshold, answer)).toBe(expected);
  });

  it('uses the calendar day the clinician wrote, whatever the time zone', () => {
    expect(checkCondition(LAST_EYE_EXAM, 'equals', '2024-03-01', '2024-03-01T23:30:00-05:00')).toBe(true);
  });

  it('is unknown for a date that does not exist', () => {
    expect(checkCondition(LAST_EYE_EXAM, 'before', '2024-03-01', '2023-02-29')).toBe('unknown');
  });

  it('always fails when the threshold is not a date', () => {
    expect(checkCondition(LAST_EYE_EXAM, 'before', 'last spring', '2024-01-01')).toBe(false);
  });

  describe('within_days', () => {
    const now = '2024-06-30';

    it.each([
      ['2024-04-01', 90, true],
      ['2024-03-31', 90, false],
      ['2024-06-30', 0, true],
      ['2024-07-10', 30, true],
    ])('%s within %s days of %s is %s', (answer, days, expected) => {
      expect(checkCondition(LAST_EYE_EXAM, 'within_days', days, answer, { now })).toBe(expected);
    });

    it('accepts the reference time as a Date or epoch milliseconds', () => {
      expect(checkCondition(LAST_EYE_EXAM, 'within_days', 1, '2024-06-29', { now: new Date('2024-06-30T12:00:00Z') })).toBe(true);
      expect(checkCondition(LAST_EYE_EXAM, 'within_days', 1, '2024-06-28', { now: Date.UTC(2024, 5, 30) })).toBe(false);
    });

    it('is unknown without a reference time: the engine never reads the clock itself', () => {
      expect(checkCondition(LAST_EYE_EXAM, 'within_days', 90, '2024-06-01')).toBe('unknown');
    });

    it('always fails on a negative number of days', () => {
      expect(checkCondition(LAST_EYE_EXAM, 'within_days', -1, '2024-06-30', { now })).toBe(false);
    });
  });
});

describe('parameters the engine does not know the type of', () => {
  const mystery = aParameter('mystery', 'future_type');

  it('compares by the threshold: numbers as numbers, true/false as booleans, anything else as text', () => {
    expect(checkCondition(mystery, 'equals', 7, '7.0')).toBe(true);
    expect(checkCondition(mystery, 'equals', 'true', true)).toBe(true);
    expect(checkCondition(mystery, 'equals', 'abc', 'abc')).toBe(true);
    expect(checkCondition(mystery, 'equals', 'abc', 'unknown')).toBe('unknown');
  });
});
