import { aPatient } from '../testing/records';
import { prepareCriterion } from './evaluate';

// CMS122: AgeInYearsAt(date from end of "Measurement Period") in Interval[18, 75].
const NOW = Date.parse('2026-11-26T12:00:00Z');
const PERIOD = { start: '2025-01-01', end: '2025-12-31' };
const ageAtEnd = prepareCriterion({ resource_type: 'Patient', take: 'age', window: { anchor: 'period' } });
const ageNow = prepareCriterion({ resource_type: 'Patient', take: 'age' });

describe('age at the end of the measurement period', () => {
  it('18th birthday on the last day of the period: 18', () => {
    expect(ageAtEnd.evaluate([aPatient('2007-12-31')], { now: NOW, period: PERIOD }).value).toBe(18);
  });

  it('18th birthday the day after: 17', () => {
    expect(ageAtEnd.evaluate([aPatient('2008-01-01')], { now: NOW, period: PERIOD }).value).toBe(17);
  });

  it('age now is counted at today', () => {
    expect(ageNow.evaluate([aPatient('1960-11-27')], { now: NOW }).value).toBe(65);
    expect(ageNow.evaluate([aPatient('1960-11-26')], { now: NOW }).value).toBe(66);
  });

  it('a birth year alone makes the age an interval when the birthday could fall either side', () => {
    expect(ageNow.evaluate([aPatient('1960')], { now: NOW }).value).toEqual({
      type: 'range',
      min: 65,
      max: 66,
      min_inclusive: true,
      max_inclusive: true,
    });
    expect(ageAtEnd.evaluate([aPatient('2000')], { now: NOW, period: PERIOD }).value).toBe(25);
  });

  it('no birth date, or no Patient, is unknown', () => {
    expect(ageNow.evaluate([{ resourceType: 'Patient', id: 'p1' }], { now: NOW }).value).toBe('unknown');
    expect(ageNow.evaluate([], { now: NOW }).value).toBe('unknown');
  });
});
