import { HISTORY_BOUND, historyQuery, observationSearches } from './record-history';
import { HISTORY_COUNT, observationKey, observationQuery, observationTokens } from './record-needs';
import { mayHoldLess, readShared, shareSearches, type PlannedSearch } from './search-sharing';

// Issue 22: a hook call without prefetch made 24 searches of the EHR's FHIR server, some of them asking
// again for what another search of the same call returns. A search that another answers is read from
// it, but only when its bundle proves it holds what the search's own would have.
const LOINC = 'http://loinc.org';
const latest = (loinc: string): PlannedSearch => ({
  key: observationKey(loinc),
  codes: observationTokens(loinc),
  count: HISTORY_COUNT,
  pages: false,
});
const history = (codes: string[], name: string): PlannedSearch => {
  const [s] = observationSearches(codes.map((c) => (c.includes('|') ? c : `${LOINC}|${c}`)).sort(), name)!;
  return { key: s.key, codes: s.codes!, count: HISTORY_BOUND, pages: true };
};
const UACR_VS = ['13705-9', '14585-4', '14958-3', '9318-7', '32294-1'];
const systolicReadings = history(['8480-6'], '8480-6');
const diastolicReadings = history(['8462-4'], '8462-4');
const uacr = history(UACR_VS, 'vs-uacr');

const obs = (id: string, code: string, day: number) => ({
  resourceType: 'Observation',
  id,
  status: 'final',
  code: { coding: [{ system: LOINC, code }] },
  effectiveDateTime: `2026-01-${String(day).padStart(2, '0')}`,
});
/** `n` results of `code`, newest first. */
const results = (code: string, n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => obs(`${code}-${from + i}`, code, 28 - ((from + i) % 28)));

describe('which searches of a call another answers', () => {
  const shared = shareSearches(
    [latest('8480-6'), latest('8462-4'), latest('9318-7'), latest('1558-6')],
    [systolicReadings, diastolicReadings, uacr],
  );

  it('a systolic pressure searched with its panel is not searched again: one search of 8480-6 and 85354-9 answers both', () => {
    const forLatest = shared.get(observationKey('8480-6'))!;
    const forReadings = shared.get(systolicReadings.key)!;
    expect(forLatest.search).toBe(forReadings.search);
    expect(historyQuery('P', forLatest.search)).toBe(
      `Observation?patient=P&code=${LOINC}|8480-6,${LOINC}|85354-9&status=final,amended,corrected&_sort=-date&_count=${HISTORY_BOUND}`,
    );
    // Each still reads only its own codes: the readings search never sees a panel it did not ask for.
    expect([...forReadings.codes]).toEqual([`${LOINC}|8480-6`]);
    expect([...forLatest.codes]).toEqual(observationTokens('8480-6'));
    // The diastolic pair is its own search: the panel code alone does not join two histories.
    expect(shared.get(observationKey('8462-4'))!.search).toBe(shared.get(diastolicReadings.key)!.search);
    expect(shared.get(observationKey('8462-4'))!.search).not.toBe(forLatest.search);
  });

  it("the latest UACR is read from CMS951's value-set search, which asks for 9318-7 already; that search is unchanged", () => {
    const r = shared.get(observationKey('9318-7'))!;
    expect(r.search.key).toBe(uacr.key);
    expect(r.search.codes).toEqual(uacr.codes);
    expect(shared.has(uacr.key)).toBe(false);
  });

  it('a fasting glucose no history asks for is searched on its own, as before', () => {
    expect(shared.has(observationKey('1558-6'))).toBe(false);
  });

  it('the same Observation codes planned by two measures are searched once', () => {
    const twice = { ...systolicReadings, key: 'hist-8480-6-again' };
    const r = shareSearches([], [systolicReadings, twice]);
    expect(r.get(twice.key)!.search.key).toBe(systolicReadings.key);
    expect(r.has(systolicReadings.key)).toBe(false);
  });

  it('a union of codes too long for one URL is not made: the latest value is searched on its own', () => {
    const long = history(
      Array.from({ length: 60 }, (_, i) => `${90000 + i}-${i % 10}`),
      'long',
    );
    expect(shareSearches([latest('8480-6')], [{ ...long, codes: [...long.codes, `${LOINC}|8480-6`] }]).size).toBe(0);
  });

  it("the latest value's query is the one its own search made, so a prefetch template is unchanged", () => {
    expect(observationQuery('P', '8480-6')).toBe(
      `Observation?patient=P&code=${LOINC}|8480-6,${LOINC}|85354-9&status=final,amended,corrected&_sort=-date&_count=${HISTORY_COUNT}`,
    );
  });
});

describe('what a shared bundle proves', () => {
  const systolic = { codes: new Set([`${LOINC}|8480-6`]), count: HISTORY_BOUND, pages: true };
  const latestSystolic = { codes: new Set(observationTokens('8480-6')), count: HISTORY_COUNT, pages: false };

  it("a whole bundle gives each search its own codes' results, newest first, bounded by its own count", () => {
    const bundle = [...results('85354-9', 3), ...results('8480-6', 12)];
    expect(readShared(bundle, false, systolic)).toEqual({ resources: results('8480-6', 12), truncated: false });
    expect(readShared(bundle, false, latestSystolic)).toEqual({ resources: bundle.slice(0, 10), truncated: true });
  });

  it('a bundle with a next page gives the latest systolic its newest ten: the guarantee its own search of ten gave', () => {
    const bundle = results('85354-9', HISTORY_BOUND);
    expect(readShared(bundle, true, latestSystolic)!.resources).toEqual(bundle.slice(0, HISTORY_COUNT));
  });

  it('a bundle with a next page never answers a history: whether its own search had more is not known, so it is made', () => {
    const bundle = [...results('85354-9', 60), ...results('8480-6', 40)];
    expect(readShared(bundle, true, systolic)).toBeNull();
  });

  it('a latest value with fewer than ten of its results before the next page is searched on its own', () => {
    const bundle = [...results('9318-7', 5), ...results('14958-3', 95)];
    expect(readShared(bundle, true, { codes: new Set([`${LOINC}|9318-7`]), count: HISTORY_COUNT, pages: false })).toBeNull();
  });

  it('an Observation coded by its panel alone is not a systolic reading for the readings search (the server would not have sent it)', () => {
    const panel = obs('p1', '85354-9', 3);
    expect(readShared([panel], false, systolic)).toEqual({ resources: [], truncated: false });
  });

  it('a bundle without a next link is whole only when its total says so or, with none, it holds fewer than were asked', () => {
    const held = (n: number, extra: object = {}) => ({ resourceType: 'Bundle', type: 'searchset', entry: results('8480-6', n), ...extra });
    // Medplum gives no next link, only the total.
    expect(mayHoldLess(held(100, { total: 105 }), 100, HISTORY_BOUND)).toBe(true);
    expect(mayHoldLess(held(100), 100, HISTORY_BOUND)).toBe(true);
    expect(mayHoldLess(held(100, { total: 100 }), 100, HISTORY_BOUND)).toBe(false);
    expect(mayHoldLess(held(99), 99, HISTORY_BOUND)).toBe(false);
    expect(mayHoldLess(held(3, { link: [{ relation: 'next', url: 'x' }] }), 3, HISTORY_BOUND)).toBe(true);
  });
});
