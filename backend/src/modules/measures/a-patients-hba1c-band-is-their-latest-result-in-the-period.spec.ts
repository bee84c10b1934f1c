import { bandOf, hba1cBand, hba1cDistribution } from './hba1c-distribution';
import { trendMonths } from './measures.service';

const PERIOD = { start: '2026-01-01', end: '2026-12-31' };
const NOW = Date.parse('2026-11-26T12:00:00Z');
const a1c = (id: string, at: string, value: number | null, unit = '%', extra: Record<string, unknown> = {}) => ({
  resourceType: 'Observation',
  id,
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code: unit === 'mmol/mol' ? '59261-8' : '4548-4' }] },
  effectiveDateTime: at,
  ...(value === null ? {} : { valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit, ...extra } }),
});

describe("a patient's HbA1c band", () => {
  it('bands meet half-open: 6.99 below 7; 7 and 7.99 in 7–7.9; 8 and 9.0 in 8–9 (9.0 is at CMS122’s goal); 9.01 above 9', () => {
    expect([6.99, 7, 7.99, 8, 9, 9.01].map(bandOf)).toEqual([
      'below_7',
      'from_7_below_8',
      'from_7_below_8',
      'from_8_to_9',
      'from_8_to_9',
      'above_9',
    ]);
  });

  it('an IFCC 75 mmol/mol is 9.0 % through the HbA1c history’s conversion, so at goal; 58 mmol/mol is 7–7.9', () => {
    expect(hba1cBand([a1c('x', '2026-10-01', 75, 'mmol/mol')], PERIOD, NOW)).toBe('from_8_to_9');
    expect(hba1cBand([a1c('x', '2026-10-01', 58, 'mmol/mol')], PERIOD, NOW)).toBe('from_7_below_8');
  });

  it('the most recent day counts, its lowest result; an older higher result and one before the period do not', () => {
    const record = [
      a1c('last-year', '2025-12-30', 6.1),
      a1c('spring', '2026-03-01', 10.4),
      a1c('autumn-a', '2026-10-01T08:00:00Z', 9.4),
      a1c('autumn-b', '2026-10-01T15:00:00Z', 8.7),
    ];
    expect(hba1cBand(record, PERIOD, NOW)).toBe('from_8_to_9');
    expect(hba1cBand([a1c('last-year', '2025-12-30', 6.1)], PERIOD, NOW)).toBe('no_result');
  });

  it('a result without a value is no result; a “> 14 %” or a result in kg is not readable', () => {
    expect(hba1cBand([a1c('x', '2026-10-01', null)], PERIOD, NOW)).toBe('no_result');
    expect(hba1cBand([a1c('x', '2026-10-01', 14, '%', { comparator: '>' })], PERIOD, NOW)).toBe('not_readable');
    expect(hba1cBand([a1c('x', '2026-10-01', 8, 'kg')], PERIOD, NOW)).toBe('not_readable');
  });

  it('the distribution lists every band, zeros included, and counts the patients', () => {
    const d = hba1cDistribution({ id: 'm', identifier: 'CMS122' }, ['above_9', 'no_result', 'above_9']);
    expect(d.patients).toBe(3);
    expect(d.bands.map((b) => [b.band, b.count])).toEqual([
      ['below_7', 0],
      ['from_7_below_8', 0],
      ['from_8_to_9', 0],
      ['above_9', 2],
      ['no_result', 1],
      ['not_readable', 0],
    ]);
  });
});

describe("the trend's months", () => {
  it('in January the last point is the 12 months ending January 31, the first the 12 months ending the February before', () => {
    const months = trendMonths(new Date('2026-01-10T09:00:00Z'));
    expect(months).toHaveLength(12);
    expect(months[11]).toEqual({ month: '2026-01', period: { start: '2025-02-01', end: '2026-01-31' } });
    expect(months[0]).toEqual({ month: '2025-02', period: { start: '2024-03-01', end: '2025-02-28' } });
  });

  it('a leap February ends on the 29th', () => {
    expect(trendMonths(new Date('2028-02-15T00:00:00Z'))[11]).toEqual({
      month: '2028-02',
      period: { start: '2027-03-01', end: '2028-02-29' },
    });
  });
});
