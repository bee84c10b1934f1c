import type { EngineParameter } from '@cds/engine';
import {
  CODE_PARAM_MAX_CHARS,
  historyInputOf,
  historyQuery,
  MAX_SEARCHES_PER_INPUT,
  observationSearches,
  onceEach,
  readHistoryInput,
  type HistoryInput,
} from './record-history';

// Issue 20: an Observation criterion naming a value set ("HbA1c Laboratory Test") is read in a hook call
// by the codes of its expansion, never by searching all of the patient's Observations (unbounded).
const NOW = new Date('2026-11-26T12:00:00Z');
const HBA1C_VS = 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.198.12.1013';
const HBA1C_CODES = ['17855-8', '17856-6', '4548-4', '4549-2', '96595-4'].map((c) => `http://loinc.org|${c}`);
const latestA1c: EngineParameter = {
  id: 'p-a1c',
  name: 'a1c_latest',
  display_name: 'Latest A1C',
  data_type: 'number',
  units: '%',
  validation_rules: {
    min: 3,
    max: 20,
    criterion: { resource_type: 'Observation', value_sets: [HBA1C_VS], window: { anchor: 'now', days: 365 }, take: 'latest' },
  },
};
const expansions = new Map([[HBA1C_VS, HBA1C_CODES]]);
const input = (p: EngineParameter, vs: ReadonlyMap<string, readonly string[]> = expansions) => historyInputOf(p, vs) as HistoryInput;
const a1c = (id: string, code: string, value: number, when: string) => ({
  resourceType: 'Observation',
  id,
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code }] },
  effectiveDateTime: when,
  valueQuantity: { value, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
});

describe('Observations named by a value set are searched by its codes', () => {
  it('one search, by every code of the expansion, newest first, final results only, bounded', () => {
    const { searches } = input(latestA1c);
    expect(searches).toHaveLength(1);
    expect(searches[0].key).toBe('hist-vs-cts.nlm.nih.gov-fhir-ValueSet-2.16.840.1.113883.3.464.1003.198.12.1013');
    expect(historyQuery('p1', searches[0])).toBe(
      `Observation?patient=p1&code=${HBA1C_CODES.join(',')}&status=final,amended,corrected&_sort=-date&_count=100`,
    );
  });

  it('codes and value sets together are one search over both', () => {
    const p = {
      ...latestA1c,
      validation_rules: {
        criterion: { resource_type: 'Observation', codes: ['http://loinc.org|59261-8'], value_sets: [HBA1C_VS], take: 'latest' },
      },
    };
    const [s] = input(p).searches;
    expect(s.key).toBe('hist-59261-8_vs-cts.nlm.nih.gov-fhir-ValueSet-2.16.840.1.113883.3.464.1003.198.12.1013');
    expect(s.params).toContain('http://loinc.org|59261-8');
    expect(s.params).toContain('http://loinc.org|17856-6');
  });

  it('a value set that is neither stored nor shipped is not searched, and reading nothing names it: unknown', () => {
    const unknown = input(latestA1c, new Map());
    expect(unknown.searches).toEqual([]);
    const r = readHistoryInput([], unknown, NOW, new Map(), false);
    expect(r.answer).toBe('unknown');
    expect(r.setAside).toEqual([`Latest A1C not read: value set ${HBA1C_VS} is neither stored nor shipped`]);
  });

  it('a long expansion is split into searches whose code lists stay short enough for one URL', () => {
    const tokens = Array.from({ length: 120 }, (_, i) => `http://loinc.org|${10000 + i}-${i % 10}`);
    const searches = observationSearches(tokens, 'vs-big')!;
    expect(searches.length).toBeGreaterThan(1);
    expect(searches.map((s) => s.key)).toEqual(searches.map((_, i) => `hist-vs-big-part${i + 1}`));
    for (const s of searches) expect(/code=([^&]*)/.exec(s.params)![1].length).toBeLessThanOrEqual(CODE_PARAM_MAX_CHARS);
    // Every code is asked for once.
    const asked = searches.flatMap((s) => /code=([^&]*)/.exec(s.params)![1].split(','));
    expect(asked.sort()).toEqual([...tokens].sort());
  });

  it(`an expansion that would need more than ${MAX_SEARCHES_PER_INPUT} searches is not read, and says why`, () => {
    const big = Array.from({ length: 400 }, (_, i) => `http://snomed.info/sct|${1_000_000_000 + i}`);
    const h = input(latestA1c, new Map([[HBA1C_VS, big]]));
    expect(h.searches).toEqual([]);
    expect(h.unsearchable).toMatch(/400\).*more than 4 searches/);
  });

  it('two value sets named alike on two hosts get two searches, and a very long key keeps a tag of the whole', () => {
    const one = input(
      {
        ...latestA1c,
        validation_rules: { criterion: { resource_type: 'Observation', value_sets: ['http://a.example/ValueSet/a1c'], take: 'latest' } },
      },
      new Map([['http://a.example/ValueSet/a1c', HBA1C_CODES]]),
    );
    const two = input(
      {
        ...latestA1c,
        validation_rules: { criterion: { resource_type: 'Observation', value_sets: ['http://b.example/ValueSet/a1c'], take: 'latest' } },
      },
      new Map([['http://b.example/ValueSet/a1c', HBA1C_CODES]]),
    );
    expect(one.searches[0].key).toBe('hist-vs-a.example-ValueSet-a1c');
    expect(two.searches[0].key).toBe('hist-vs-b.example-ValueSet-a1c');
    const long = (c: string) => observationSearches(['http://loinc.org|4548-4'], `vs-${'x'.repeat(300)}${c}`)![0].key;
    expect(long('1')).not.toBe(long('2'));
    expect(long('1').length).toBeLessThanOrEqual(200);
  });

  it('a code holding a comma or a space is escaped, not split into two codes', () => {
    const [s] = observationSearches(['http://example.org/codes|a,b c'], 'x')!;
    expect(s.params).toMatch(/^code=http:\/\/example\.org\/codes\|a%5C,b%20c&/);
  });

  it('a result returned by two of the searches is read once', () => {
    const r = a1c('o1', '4548-4', 7.2, '2026-11-01');
    expect(onceEach([r, r, { resourceType: 'Observation' }])).toHaveLength(2);
  });

  it('the latest result of any code of the value set is the answer', () => {
    const read = readHistoryInput(
      [a1c('o2', '17856-6', 9.4, '2026-11-20'), a1c('o1', '4548-4', 7.2, '2026-09-01')],
      input(latestA1c),
      NOW,
      expansions,
      false,
    );
    expect(read.answer).toBe(9.4);
  });
});

describe('a pressure kept as a panel is searched with it', () => {
  const latestSystolic: EngineParameter = {
    id: 'p-sbp',
    name: 'sbp_latest',
    display_name: 'Latest systolic blood pressure',
    data_type: 'number',
    units: 'mm[Hg]',
    validation_rules: {
      criterion: { resource_type: 'Observation', codes: ['http://loinc.org|8480-6'], window: { anchor: 'now', days: 365 }, take: 'latest' },
    },
  };

  it('a systolic criterion asks for the panel 85354-9 too (a search by 8480-6 alone never returns a panel), its key unchanged', () => {
    const [search] = input(latestSystolic).searches;
    expect(search.key).toBe('hist-8480-6');
    expect(search.codes).toEqual(['http://loinc.org|8480-6', 'http://loinc.org|85354-9']);
    expect(search.params).toMatch(/^code=http:\/\/loinc\.org\|8480-6,http:\/\/loinc\.org\|85354-9&/);
  });

  it('an HbA1c value set gets no panel: only blood pressure is carried in one', () => {
    expect(input(latestA1c).searches[0].codes).toEqual(HBA1C_CODES);
  });
});
