import fc from 'fast-check';
import { anObservation } from '../testing/records';
import { readInterval } from '../values';
import { prepareCriterion } from './evaluate';
import type { Criterion } from './types';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const scale = { unit: '%', min: 3, max: 20, conversions: [] };
const base: Criterion = {
  resource_type: 'Observation',
  codes: ['http://loinc.org|4548-4'],
  take: 'count',
  window: { anchor: 'now', days: 730 },
};

/** A history of A1C results: some unreadable (a unit outside the parameter's), some not final, spread over three years. */
const history = fc.array(
  fc.record({
    value: fc.integer({ min: 30, max: 150 }).map((n) => n / 10),
    daysAgo: fc.integer({ min: -30, max: 1100 }),
    unreadable: fc.boolean(),
    status: fc.constantFrom('final', 'final', 'amended', 'preliminary', 'entered-in-error'),
  }),
  { maxLength: 25 },
);
const toResources = (h: { value: number; daysAgo: number; unreadable: boolean; status: string }[]) =>
  h.map((x) =>
    anObservation('4548-4', x.value, x.unreadable ? 'g/L' : '%', new Date(NOW - x.daysAgo * 86_400_000).toISOString(), {
      status: x.status,
    }),
  );

const bounds = (v: unknown) => readInterval(v) ?? { lo: NaN, hi: NaN };

describe('criteria over any history', () => {
  it('the order the record comes in never changes the answer', () => {
    const takes = ['latest', 'lowest_on_latest_day', 'count', 'distinct_days', 'exists', 'days_persisting'] as const;
    fc.assert(
      fc.property(history, fc.constantFrom(...takes), (h, t) => {
        const c = prepareCriterion(
          { ...base, take: t, where: t === 'latest' || t === 'lowest_on_latest_day' ? undefined : { operator: '>=', value: 6.5 } },
          { scale },
        );
        const resources = toResources(h);
        expect(c.evaluate([...resources].reverse(), { now: NOW }).value).toEqual(c.evaluate(resources, { now: NOW }).value);
      }),
    );
  });

  it('values that meet a filter are never more than all values, and unreadable ones only widen the answer', () => {
    const all = prepareCriterion(base, { scale });
    const abnormal = prepareCriterion({ ...base, where: { operator: '>=', value: 6.5 } }, { scale });
    const abnormalReadable = prepareCriterion({ ...base, where: { operator: '>=', value: 6.5 } }, { scale });
    fc.assert(
      fc.property(history, (h) => {
        const total = all.evaluate(toResources(h), { now: NOW }).value as number;
        const some = bounds(abnormal.evaluate(toResources(h), { now: NOW }).value);
        expect(some.lo).toBeGreaterThanOrEqual(0);
        expect(some.hi).toBeLessThanOrEqual(total);
        // The readable ones alone give the low end: unreadable results can only add to it.
        const readable = abnormalReadable.evaluate(toResources(h.filter((x) => !x.unreadable)), { now: NOW }).value as number;
        expect(some.lo).toBe(readable);
      }),
    );
  });

  it('a result from the future or outside the window never changes the answer', () => {
    const c = prepareCriterion({ ...base, take: 'distinct_days', where: { operator: '>=', value: 6.5 } }, { scale });
    fc.assert(
      fc.property(history, fc.boolean(), (h, future) => {
        const inside = h.filter((x) => x.daysAgo >= 0 && x.daysAgo <= 700);
        const outside = anObservation('4548-4', 9.9, '%', new Date(NOW + (future ? 40 : -800) * 86_400_000).toISOString());
        expect(c.evaluate([...toResources(inside), outside], { now: NOW }).value).toEqual(
          c.evaluate(toResources(inside), { now: NOW }).value,
        );
      }),
    );
  });
});
