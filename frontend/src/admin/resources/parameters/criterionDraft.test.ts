import { describe, expect, it } from 'vitest';
import { criterionOf, draftOf, sameJson, withResourceType } from './criterionDraft';

// What the editor shows of a stored criterion is what it writes back: untouched, nothing changes.
const ROUND_TRIPS: [string, Record<string, unknown>][] = [
  [
    'a diagnosis coded in SNOMED CT and ICD-10-CM',
    {
      resource_type: 'Condition',
      codes: ['http://snomed.info/sct|44054006', 'http://hl7.org/fhir/sid/icd-10-cm|E11.9'],
      window: { anchor: 'now', relation: 'overlaps' },
      take: 'exists',
    },
  ],
  [
    'an office visit in the measurement period (CMS122)',
    {
      resource_type: 'Encounter',
      value_sets: ['http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.101.12.1001'],
      statuses: ['finished'],
      window: { anchor: 'period', relation: 'during' },
      take: 'exists',
    },
  ],
  [
    'a prescription ordered, kept with its intent',
    {
      resource_type: 'MedicationRequest',
      codes: ['http://www.nlm.nih.gov/research/umls/rxnorm|860975'],
      intents: ['order'],
      take: 'count',
    },
  ],
  ['age at the end of the period', { resource_type: 'Patient', take: 'age', window: { anchor: 'period', at: 'end' } }],
  ['age today', { resource_type: 'Patient', take: 'age' }],
  [
    'an eGFR persisting below 60 for two years',
    {
      resource_type: 'Observation',
      codes: ['http://loinc.org|98979-8', 'http://loinc.org|62238-1'],
      window: { anchor: 'now', days: 730 },
      take: 'days_persisting',
      where: { operator: '<', value: 60 },
      unit: 'mL/min/{1.73_m2}',
    },
  ],
];

describe('a stored criterion, shown and written back', () => {
  it.each(ROUND_TRIPS)('%s is edited in fields and written back as it was', (_name, criterion) => {
    const draft = draftOf({ criterion });
    expect(draft.fixed).toBeNull();
    expect(sameJson(criterionOf(draft), criterion)).toBe(true);
  });

  it('codes of a second system are shown as system|code', () => {
    expect(draftOf({ criterion: ROUND_TRIPS[0][1] }).codes).toBe('44054006, http://hl7.org/fhir/sid/icd-10-cm|E11.9');
  });

  it('a reading of part of the period, or of the latest code, stays in words', () => {
    expect(
      draftOf({
        criterion: {
          resource_type: 'Condition',
          codes: ['http://snomed.info/sct|1'],
          window: { anchor: 'period', first_months: 6 },
          take: 'exists',
        },
      }).fixed,
    ).not.toBeNull();
    expect(
      draftOf({
        criterion: {
          resource_type: 'Observation',
          codes: ['http://loinc.org|71802-3'],
          has_code: { element: 'value', codes: ['http://snomed.info/sct|1'] },
          take: 'latest_is',
        },
      }).fixed,
    ).not.toBeNull();
  });

  it('another kind of record drops what does not apply to it: the value filter, the unit, a request intent', () => {
    const egfr = draftOf({ criterion: ROUND_TRIPS[5][1] });
    const asCondition = criterionOf(withResourceType(egfr, 'Condition', 'number'));
    expect(asCondition).toEqual({
      resource_type: 'Condition',
      codes: ['http://loinc.org|98979-8', 'http://loinc.org|62238-1'],
      take: 'count',
      window: { anchor: 'now', days: 730 },
    });
    const rx = draftOf({ criterion: ROUND_TRIPS[2][1] });
    expect(criterionOf(withResourceType(rx, 'Procedure', 'number'))).not.toHaveProperty('intents');
  });
});
