import { anObservation } from '../testing/records';
import { prepareCriterion } from './evaluate';
import type { Criterion } from './types';

// ADA 2026 §2: without unequivocal hyperglycaemia, diabetes needs two abnormal results, the same
// sample or two samples. "A1C ≥ 6.5 % on how many days in the last year" is what a rule reads.
const NOW = Date.parse('2026-11-26T12:00:00Z');
const scale = {
  unit: '%',
  min: 3,
  max: 20,
  conversions: [{ code: 'mmol/mol', factor: 0.09148, offset: 2.152, equivalents: [[48, 6.5]] as [number, number][] }],
};
const criterion: Criterion = {
  resource_type: 'Observation',
  codes: ['http://loinc.org|4548-4', 'http://loinc.org|59261-8'],
  window: { anchor: 'now', days: 365 },
  take: 'distinct_days',
  where: { operator: '>=', value: 6.5 },
};
const days = prepareCriterion(criterion, { scale });
const a1c = (value: number, when: string, extra: Record<string, unknown> = {}) => anObservation('4548-4', value, '%', when, extra);

describe('a diabetes diagnosis needs two abnormal A1C results on different days', () => {
  it('one A1C of 6.5 % is one abnormal day: not yet confirmed', () => {
    expect(days.evaluate([a1c(6.5, '2026-11-20')], { now: NOW }).value).toBe(1);
  });

  it('6.7 % then 6.9 % a month apart are two abnormal days', () => {
    const r = days.evaluate([a1c(6.7, '2026-10-20'), a1c(6.9, '2026-11-20'), a1c(5.4, '2026-01-10')], { now: NOW });
    expect(r.value).toBe(2);
    expect(r.evidence.map((e) => new Date(e.at).toISOString().slice(0, 10))).toEqual(['2026-11-20', '2026-10-20']);
  });

  it('two abnormal results drawn the same morning are one day', () => {
    expect(days.evaluate([a1c(6.8, '2026-11-20T08:00:00Z'), a1c(6.6, '2026-11-20T09:30:00Z')], { now: NOW }).value).toBe(1);
  });

  it('an IFCC result of 48 mmol/mol is an abnormal day like 6.5 %', () => {
    const ifcc = anObservation('59261-8', 48, 'mmol/mol', '2026-09-01');
    expect(days.evaluate([ifcc, a1c(6.6, '2026-11-20')], { now: NOW }).value).toBe(2);
  });

  it('an entered-in-error or preliminary result does not count', () => {
    const r = days.evaluate(
      [a1c(6.6, '2026-11-20'), a1c(7.1, '2026-11-01', { status: 'entered-in-error' }), a1c(7.0, '2026-10-01', { status: 'preliminary' })],
      { now: NOW },
    );
    expect(r.value).toBe(1);
  });

  it('a result older than the year does not count', () => {
    expect(days.evaluate([a1c(6.6, '2026-11-20'), a1c(7.0, '2025-11-01')], { now: NOW }).value).toBe(1);
  });

  it('a result dated in the future is not counted and is reported', () => {
    const r = days.evaluate([a1c(6.6, '2026-11-20'), a1c(7.0, '2030-01-01')], { now: NOW });
    expect(r.value).toBe(1);
    expect(r.future).toHaveLength(1);
  });

  it('an unreadable result leaves the count open between 1 and 2, and is named', () => {
    const r = days.evaluate([a1c(6.6, '2026-11-20'), anObservation('4548-4', 48, 'g/L', '2026-10-01')], { now: NOW });
    expect(r.value).toEqual({ type: 'range', min: 1, max: 2, min_inclusive: true, max_inclusive: true });
    expect(r.set_aside).toEqual([expect.objectContaining({ problem: expect.stringMatching(/unit/) })]);
  });

  it('a result reported as "< 6.0 %" is a normal day, "> 14 %" an abnormal one', () => {
    const below = a1c(6.0, '2026-10-01', {
      valueQuantity: { value: 6.0, comparator: '<', unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
    });
    const above = a1c(14, '2026-11-01', {
      valueQuantity: { value: 14, comparator: '>', unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
    });
    expect(days.evaluate([below, above], { now: NOW }).value).toBe(1);
  });

  it('no A1C at all: zero abnormal days', () => {
    expect(days.evaluate([], { now: NOW }).value).toBe(0);
  });
});

describe('a count of abnormal days reads results in the criterion’s own unit', () => {
  // The parameter counts days; its criterion says its filter is in %, and how IFCC results convert.
  const ownUnit = prepareCriterion({
    ...criterion,
    unit: '%',
    units_accepted: [{ code: 'mmol/mol', factor: 0.09148, offset: 2.152, equivalents: [[48, 6.5]] }],
  });

  it('6.6 % and 48 mmol/mol on two days are two abnormal days, without the parameter’s scale', () => {
    expect(ownUnit.evaluate([a1c(6.6, '2026-11-20'), anObservation('59261-8', 48, 'mmol/mol', '2026-09-01')], { now: NOW }).value).toBe(2);
  });

  it('a result in a unit it does not know leaves the count open', () => {
    expect(ownUnit.evaluate([a1c(6.6, '2026-11-20'), anObservation('4548-4', 7, 'g/dL', '2026-09-01')], { now: NOW }).value).toEqual({
      type: 'range',
      min: 1,
      max: 2,
      min_inclusive: true,
      max_inclusive: true,
    });
  });
});
