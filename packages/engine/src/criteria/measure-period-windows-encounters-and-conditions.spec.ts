import { aCondition, anEncounter } from '../testing/records';
import { prepareCriterion } from './evaluate';

// Quality measures read the record against a measurement period: a qualifying encounter during it,
// a diagnosis whose prevalence overlaps it (CMS122's initial population).
const NOW = Date.parse('2026-11-26T12:00:00Z');
const PERIOD = { start: '2025-01-01', end: '2025-12-31' };
const OFFICE_VISIT = 'http://snomed.info/sct|185463005';
const DIABETES = 'http://snomed.info/sct|44054006';
const visit = prepareCriterion({ resource_type: 'Encounter', codes: [OFFICE_VISIT], window: { anchor: 'period' }, take: 'exists' });
const diabetes = prepareCriterion({
  resource_type: 'Condition',
  codes: [DIABETES],
  window: { anchor: 'period', relation: 'overlaps' },
  take: 'exists',
});

describe('an office visit during the measurement period', () => {
  it('a finished visit on the last day of the period counts', () => {
    const r = visit.evaluate([anEncounter('185463005', '2025-12-31T15:00:00Z', '2025-12-31T15:30:00Z')], { now: NOW, period: PERIOD });
    expect(r.value).toBe(true);
    expect(r.evidence).toHaveLength(1);
  });

  it('a visit the day after the period ends does not', () => {
    expect(
      visit.evaluate([anEncounter('185463005', '2026-01-01T09:00:00Z', '2026-01-01T09:30:00Z')], { now: NOW, period: PERIOD }).value,
    ).toBe(false);
  });

  it('a cancelled visit does not count', () => {
    const cancelled = anEncounter('185463005', '2025-06-01T09:00:00Z', '2025-06-01T09:30:00Z', { status: 'cancelled' });
    expect(visit.evaluate([cancelled], { now: NOW, period: PERIOD }).value).toBe(false);
  });

  it('a visit of another type does not count', () => {
    expect(
      visit.evaluate([anEncounter('185460008', '2025-06-01T09:00:00Z', '2025-06-01T09:30:00Z')], { now: NOW, period: PERIOD }).value,
    ).toBe(false);
  });

  it('one prepared criterion read for one period, then another, then none, answers each by its own (a trend reads twelve)', () => {
    const june = [anEncounter('185463005', '2025-06-01T09:00:00Z', '2025-06-01T09:30:00Z')];
    expect(visit.evaluate(june, { now: NOW, period: PERIOD }).value).toBe(true);
    expect(visit.evaluate(june, { now: NOW, period: { start: '2026-01-01', end: '2026-12-31' } }).value).toBe(false);
    expect(visit.evaluate(june, { now: NOW, period: { start: '2025-01-01', end: '2025-05-31' } }).value).toBe(false);
    expect(visit.evaluate(june, { now: NOW }).value).toBe('unknown');
    expect(visit.evaluate(june, { now: NOW, period: PERIOD }).value).toBe(true);
  });

  it('without a measurement period the answer is unknown, never false', () => {
    expect(visit.evaluate([], { now: NOW }).value).toBe('unknown');
  });

  it('"during the period or the year before" widens the window a year back', () => {
    const wider = prepareCriterion({
      resource_type: 'Encounter',
      codes: [OFFICE_VISIT],
      window: { anchor: 'period', years_before: 1 },
      take: 'exists',
    });
    const lastYear = anEncounter('185463005', '2024-03-01T09:00:00Z', '2024-03-01T09:30:00Z');
    expect(wider.evaluate([lastYear], { now: NOW, period: PERIOD }).value).toBe(true);
    expect(visit.evaluate([lastYear], { now: NOW, period: PERIOD }).value).toBe(false);
  });
});

describe('a diabetes diagnosis whose prevalence overlaps the period', () => {
  it('active since 2019, no abatement: prevalent through the period', () => {
    expect(diabetes.evaluate([aCondition('44054006', '2019-05-01', 'active')], { now: NOW, period: PERIOD }).value).toBe(true);
  });

  it('diagnosed after the period ends: not in this period', () => {
    expect(diabetes.evaluate([aCondition('44054006', '2026-02-01', 'active')], { now: NOW, period: PERIOD }).value).toBe(false);
  });

  it('resolved before the period began: not prevalent', () => {
    const resolved = aCondition('44054006', '2018-01-01', 'resolved', { abatementDateTime: '2020-01-01' });
    expect(diabetes.evaluate([resolved], { now: NOW, period: PERIOD }).value).toBe(false);
  });

  it('a refuted or entered-in-error diagnosis never counts', () => {
    const verification = (code: string) => ({
      verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code }] },
    });
    for (const code of ['refuted', 'entered-in-error'])
      expect(
        diabetes.evaluate([aCondition('44054006', '2019-05-01', 'active', verification(code))], { now: NOW, period: PERIOD }).value,
      ).toBe(false);
  });
});
