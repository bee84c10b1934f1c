import fc from 'fast-check';
import { dayOf, isStale, latest, lowestOnLatestDay, type Dated } from './takes';

const at = (iso: string) => Date.parse(iso);
const NOW = at('2026-11-23T12:00:00Z');

describe('what a criterion takes from a history', () => {
  const history: Dated[] = [
    { at: at('2026-11-02T09:00:00Z'), value: 7.0 },
    { at: at('2026-11-22T08:00:00Z'), value: 148 },
    { at: at('2026-11-22T08:20:00Z'), value: 136 },
    { at: at('2026-11-22T07:40:00Z'), value: 152 },
  ];

  it('latest: the most recent value; none in an empty history', () => {
    expect(latest(history)?.value).toBe(136);
    expect(latest([])).toBeNull();
  });

  it('lowest on the latest day: three pressures in one visit, the lowest stands', () => {
    expect(lowestOnLatestDay(history)?.value).toBe(136);
    expect(
      lowestOnLatestDay([
        { at: NOW, value: { type: 'range', min: null, max: 15, max_inclusive: false } },
        { at: NOW, value: 20 },
      ])?.value,
    ).toEqual({
      type: 'range',
      min: null,
      max: 15,
      max_inclusive: false,
    });
  });

  it('a value older than the lookback is stale', () => {
    expect(isStale(at('2026-08-01T00:00:00Z'), NOW, 90)).toBe(true);
    expect(isStale(at('2026-09-01T00:00:00Z'), NOW, 90)).toBe(false);
  });

  const dated = fc.array(
    fc.record({ at: fc.integer({ min: NOW - 400 * 86_400_000, max: NOW }), value: fc.integer({ min: 20, max: 400 }) }),
    { maxLength: 30 },
  );

  it('properties: the latest is no older than any value, lowest-on-latest-day is on that day and no higher than its peers, order does not matter', () => {
    fc.assert(
      fc.property(dated, (xs) => {
        const last = latest(xs);
        const lowest = lowestOnLatestDay(xs);
        if (!last || !lowest) return expect(xs).toHaveLength(0);
        for (const x of xs) expect(x.at).toBeLessThanOrEqual(last.at);
        expect(dayOf(lowest.at)).toBe(dayOf(last.at));
        for (const x of xs) if (dayOf(x.at) === dayOf(last.at)) expect(lowest.value).toBeLessThanOrEqual(x.value);
        // The order given does not change the answer.
        const reversed = [...xs].reverse();
        expect(latest(reversed)!.at).toBe(last.at);
      }),
    );
  });
});
