import { criterionText } from './text';

describe('a criterion in a physician’s words', () => {
  it('abnormal A1C days in a year', () => {
    expect(
      criterionText({
        resource_type: 'Observation',
        codes: ['http://loinc.org|4548-4', 'http://loinc.org|59261-8'],
        window: { anchor: 'now', days: 365 },
        take: 'distinct_days',
        where: { operator: '>=', value: 6.5 },
        unit: '%',
      }),
    ).toBe('Days with a result (LOINC 4548-4, 59261-8) ≥ 6.5 % in the last 365 days');
  });

  it('eGFR persistence and age at the end of the period', () => {
    expect(
      criterionText({
        resource_type: 'Observation',
        codes: ['http://loinc.org|98979-8'],
        take: 'days_persisting',
        where: { operator: '<', value: 60 },
      }),
    ).toBe('Days the result (LOINC 98979-8) has stayed < 60');
    expect(criterionText({ resource_type: 'Patient', take: 'age', window: { anchor: 'period' } })).toBe(
      'Age at the end of the measurement period',
    );
  });

  it('any of several, with value sets and the year before', () => {
    expect(
      criterionText({
        any_of: [
          {
            resource_type: 'Condition',
            value_sets: ['a'],
            window: { anchor: 'period', years_before: 1, relation: 'starts_during' },
            take: 'exists',
          },
          { resource_type: 'MedicationRequest', value_sets: ['b', 'c'], window: { anchor: 'period' }, take: 'exists' },
        ],
      }),
    ).toBe(
      'Any of: Any diagnosis (a value set) in the measurement period or the year before; or Any prescription (2 value sets) in the measurement period',
    );
  });
});
