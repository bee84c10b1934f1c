import type { EngineParameter } from '@cds/engine';
import { hasNextPage } from './observations';
import { historyInputOf, historyQuery, readHistoryInput, type HistoryInput } from './record-history';

// A hook call reads at most 100 resources per search: when the EHR had more, what was read is part
// of the record, so "no diabetes diagnosis" there is unknown and a count is at least what was counted.
const NOW = new Date('2026-11-26T12:00:00Z');
const VS = 'http://example.org/ValueSet/diabetes';
const diagnosed: EngineParameter = {
  id: 'p-dx',
  name: 'diabetes_diagnosed',
  display_name: 'Diagnosed diabetes',
  data_type: 'boolean',
  units: null,
  validation_rules: {
    criterion: {
      resource_type: 'Condition',
      value_sets: [VS],
      statuses: ['active'],
      window: { anchor: 'now', relation: 'overlaps' },
      take: 'exists',
    },
  },
};
const days: EngineParameter = {
  id: 'p-days',
  name: 'a1c_days',
  display_name: 'Days with A1C ≥ 6.5 %',
  data_type: 'number',
  units: null,
  validation_rules: {
    criterion: {
      resource_type: 'Observation',
      codes: ['http://loinc.org|4548-4'],
      take: 'distinct_days',
      where: { operator: '>=', value: 6.5 },
      unit: '%',
    },
  },
};
const codes = new Map([[VS, ['http://hl7.org/fhir/sid/icd-10-cm|E11.9']]]);
const input = (p: EngineParameter) => historyInputOf(p) as HistoryInput;
const condition = (code: string) => ({
  resourceType: 'Condition',
  id: code,
  clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
  code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code }] },
  onsetDateTime: '2024-01-01',
});
const a1c = (value: number, when: string) => ({
  resourceType: 'Observation',
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code: '4548-4' }] },
  effectiveDateTime: when,
  valueQuantity: { value, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
});

describe('a history read from part of the record is never a no', () => {
  it('Conditions are searched by type, the value set filtering them', () => {
    expect(historyQuery('p1', input(diagnosed).searches[0])).toBe('Condition?patient=p1&_count=100');
  });

  it('no diabetes among all the Conditions read: not diagnosed', () => {
    expect(readHistoryInput([condition('J45.909')], input(diagnosed), NOW, codes, false).answer).toBe(false);
  });

  it('no diabetes among the first 100 of more: unknown, and said why', () => {
    const r = readHistoryInput([condition('J45.909')], input(diagnosed), NOW, codes, true);
    expect(r.answer).toBe('unknown');
    expect(r.setAside.join('\n')).toMatch(/more than 100 Condition resources/);
  });

  it('diabetes among the first 100: diagnosed, whatever the rest', () => {
    expect(readHistoryInput([condition('E11.9')], input(diagnosed), NOW, codes, true).answer).toBe(true);
  });

  it('a value set that is not loaded leaves the answer unknown', () => {
    expect(readHistoryInput([condition('E11.9')], input(diagnosed), NOW, new Map(), false).answer).toBe('unknown');
  });

  it('one abnormal day among the first 100 results: at least one day', () => {
    const r = readHistoryInput([a1c(6.8, '2026-10-01'), a1c(5.9, '2026-06-01')], input(days), NOW, new Map(), true);
    expect(r.answer).toEqual({ type: 'range', min: 1, max: null, min_inclusive: true, max_inclusive: false });
  });

  it('a search Bundle with a next link has more pages', () => {
    expect(
      hasNextPage({
        resourceType: 'Bundle',
        link: [
          { relation: 'self', url: 'x' },
          { relation: 'next', url: 'y' },
        ],
      }),
    ).toBe(true);
    expect(hasNextPage({ resourceType: 'Bundle', link: [{ relation: 'self', url: 'x' }] })).toBe(false);
  });

  it('a search Bundle without a next link that says it matched more than it holds (Medplum) is part of the record', () => {
    const entry = (mode: string) => ({ resource: { resourceType: 'Observation' }, search: { mode } });
    const bundle = (total: number, modes: string[]) => ({ resourceType: 'Bundle', type: 'searchset', total, entry: modes.map(entry) });
    expect(hasNextPage(bundle(105, Array(100).fill('match')))).toBe(true);
    expect(hasNextPage(bundle(2, ['match', 'match']))).toBe(false);
    // An included resource or an OperationOutcome is not a match: two matches of two, whatever else came with them.
    expect(hasNextPage(bundle(2, ['match', 'include', 'match', 'outcome']))).toBe(false);
    expect(hasNextPage(bundle(3, ['match', 'include', 'match']))).toBe(true);
  });
});
