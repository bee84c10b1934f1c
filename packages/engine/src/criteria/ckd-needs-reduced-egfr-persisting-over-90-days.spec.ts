import { anObservation } from '../testing/records';
import { prepareCriterion } from './evaluate';

// KDIGO 2024: CKD is an abnormality of kidney function present for more than 3 months.
const NOW = Date.parse('2026-11-26T12:00:00Z');
const scale = { unit: 'mL/min/{1.73_m2}', min: 1, max: 200, conversions: [] };
const persisting = prepareCriterion(
  { resource_type: 'Observation', codes: ['http://loinc.org|98979-8'], take: 'days_persisting', where: { operator: '<', value: 60 } },
  { scale },
);
const egfr = (value: number, when: string, extra: Record<string, unknown> = {}) =>
  anObservation('98979-8', value, 'mL/min/{1.73_m2}', when, extra);

describe('CKD needs a reduced eGFR persisting over 90 days', () => {
  it('a first reduced value has persisted 0 days: persistence not yet shown', () => {
    expect(persisting.evaluate([egfr(52, '2026-11-20'), egfr(75, '2025-11-20')], { now: NOW }).value).toBe(0);
  });

  it('55 then 52 four months later: reduced for 122 days', () => {
    expect(persisting.evaluate([egfr(55, '2026-07-21'), egfr(52, '2026-11-20')], { now: NOW }).value).toBe(122);
  });

  it('a normal value in between starts the count again', () => {
    expect(persisting.evaluate([egfr(55, '2026-05-01'), egfr(72, '2026-08-01'), egfr(52, '2026-11-20')], { now: NOW }).value).toBe(0);
  });

  it('a latest normal value means nothing persists', () => {
    expect(persisting.evaluate([egfr(55, '2026-05-01'), egfr(65, '2026-11-20')], { now: NOW }).value).toBe(0);
  });

  it('an eGFR reported as "< 15" is reduced', () => {
    const below = egfr(15, '2026-07-01', { valueQuantity: { value: 15, comparator: '<', unit: 'mL/min/1.73m2' } });
    expect(persisting.evaluate([below, egfr(14, '2026-11-20')], { now: NOW }).value).toBe(142);
  });

  it('an unreadable value inside the run leaves the length open', () => {
    const r = persisting.evaluate([egfr(55, '2026-05-01'), anObservation('98979-8', null, '', '2026-08-01'), egfr(52, '2026-11-20')], {
      now: NOW,
    });
    expect(r.value).toEqual({ type: 'range', min: 0, max: 203, min_inclusive: true, max_inclusive: true });
  });

  it('no eGFR at all is unknown', () => {
    expect(persisting.evaluate([], { now: NOW }).value).toBe('unknown');
  });
});
