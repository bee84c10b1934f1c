import { parseInstant } from './dates';

describe('parseInstant: RFC 3339 date-times with an offset, in a plausible range', () => {
  it.each([
    ['2026-11-02T10:15:00Z', '2026-11-02T10:15:00.000Z'],
    ['2026-11-02t10:15:00z', '2026-11-02T10:15:00.000Z'],
    ['2026-11-02T11:15:00.5+01:00', '2026-11-02T10:15:00.500Z'],
    ['2026-11-02T05:15:00.123456-05:00', '2026-11-02T10:15:00.123Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['1900-01-01T00:00:00Z', '1900-01-01T00:00:00.000Z'],
    ['2200-12-31T23:59:59Z', '2200-12-31T23:59:59.000Z'],
  ])('%s is %s', (text, iso) => {
    expect(parseInstant(text)?.toISOString()).toBe(iso);
  });

  it.each([
    ['a bare number', '1'],
    ['the largest JavaScript date', '+275760-09-13T00:00:00Z'],
    ['the smallest JavaScript date', '-271821-04-20T00:00:00Z'],
    ['year zero (no such year in PostgreSQL)', '0000-01-01T00:00:00Z'],
    ['a year before 1900', '1899-12-31T23:59:59Z'],
    ['a year after 2200', '2201-01-01T00:00:00Z'],
    ['no offset (local time of an unknown zone)', '2026-11-02T10:15:00'],
    ['a date without a time', '2026-11-02'],
    ['February 30th', '2026-02-30T00:00:00Z'],
    ['February 29th of a common year', '2025-02-29T00:00:00Z'],
    ['hour 24', '2026-11-02T24:00:00Z'],
    ['a leap second', '2026-12-31T23:59:60Z'],
    ['an offset of 24 hours', '2026-11-02T10:15:00+24:00'],
    ['a human date', 'Mon, 02 Nov 2026 10:15:00 GMT'],
    ['a number', 1_767_000_000_000],
    ['null', null],
  ])('%s is refused', (_what, value) => {
    expect(parseInstant(value)).toBeNull();
  });
});
