import fc from 'fast-check';
import { allValues, count, dayOf, distinctDays, exists, isStale, latest, lowestOnLatestDay, within, type Dated } from './takes';

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

  it('all values newest first, their count, the days they were measured on, and whether any exists', () => {
    expect(allValues(history).map((v) => v.value)).toEqual([136, 148, 152, 7.0]);
    expect(count(history)).toBe(4);
    expect(distinctDays(history)).toBe(2);
    expect(exists(history)).toBe(true);
    expect(exists([])).toBe(false);
  });

  it('a window of 10 days keeps only the latest visit; a value older than the lookback is stale', () => {
    expect(within(history, NOW, 10).map((v) => v.value)).toEqual([148, 136, 152]);
    expect(isStale(at('2026-08-01T00:00:00Z'), NOW, 90)).toBe(true);
    expect(isStale(at('2026-09-01T00:00:00Z'), NOW, 90)).toBe(false);
  });

  const dated = fc.array(
    fc.record({ at: fc.integer({ min: NOW - 400 * 86_400_000, max: NOW }), value: fc.integer({ min: 20, max: 400 }) }),
    { maxLength: 30 },
  );

  it('properties: the latest is no older than any value, lowest-on-latest-day is on that day and no higher than its peers, counts agree', () => {
    fc.assert(
      fc.property(dated, (xs) => {
        const last = latest(xs);
        const lowest = lowestOnLatestDay(xs);
        expect(exists(xs)).toBe(xs.length > 0);
        expect(count(xs)).toBe(xs.length);
        expect(distinctDays(xs)).toBeLessThanOrEqual(xs.length);
        expect(allValues(xs)).toHaveLength(xs.length);
        if (!last || !lowest) return expect(xs).toHaveLength(0);
        for (const x of xs) expect(x.at).toBeLessThanOrEqual(last.at);
        expect(dayOf(lowest.at)).toBe(dayOf(last.at));
        for (const x of xs) if (dayOf(x.at) === dayOf(last.at)) expect(lowest.value).toBeLessThanOrEqual(x.value);
        // Taking a window never adds values, and the order given does not change the answers.
        expect(within(xs, NOW, 30).length).toBeLessThanOrEqual(xs.length);
        const reversed = [...xs].reverse();
        expect(latest(reversed)!.at).toBe(last.at);
        expect(distinctDays(reversed)).toBe(distinctDays(xs));
      }),
    );
  });
});
