import { anObservation } from '../testing/records';
import { prepareCriterion } from './evaluate';

const NOW = Date.parse('2026-11-26T12:00:00Z');

describe('codes from a value set', () => {
  const HBA1C_VS = 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.198.12.1013';
  const criterion = { resource_type: 'Observation' as const, value_sets: [HBA1C_VS], take: 'exists' as const };

  it("any code of the value set's expansion counts", () => {
    const prepared = prepareCriterion(criterion, {
      valueSets: new Map([[HBA1C_VS, ['http://loinc.org|4548-4', 'http://loinc.org|17856-6']]]),
    });
    expect(prepared.evaluate([anObservation('17856-6', 6.1, '%', '2026-01-01')], { now: NOW }).value).toBe(true);
    expect(prepared.evaluate([anObservation('2345-7', 110, 'mg/dL', '2026-01-01')], { now: NOW }).value).toBe(false);
  });

  it('a value set that is not loaded makes the answer unknown and says so', () => {
    const r = prepareCriterion(criterion).evaluate([anObservation('4548-4', 6.1, '%', '2026-01-01')], { now: NOW });
    expect(r.value).toBe('unknown');
    expect(r.set_aside).toEqual([{ resource_type: 'ValueSet', id: HBA1C_VS, problem: 'the value set is not loaded' }]);
  });
});

describe('blood pressure: panels and the lowest of the latest visit', () => {
  const scale = { unit: 'mm[Hg]', min: 40, max: 300, conversions: [] };
  const sbp = prepareCriterion(
    { resource_type: 'Observation', codes: ['http://loinc.org|8480-6'], take: 'lowest_on_latest_day' },
    { scale },
  );
  const panel = (systolic: number, when: string) => ({
    ...anObservation('85354-9', null, '', when),
    component: [
      { code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] }, valueQuantity: { value: systolic, unit: 'mmHg' } },
      { code: { coding: [{ system: 'http://loinc.org', code: '8462-4' }] }, valueQuantity: { value: 80, unit: 'mmHg' } },
    ],
  });

  it('three readings at one visit: the lowest systolic stands, read from the panels', () => {
    const r = sbp.evaluate(
      [
        panel(152, '2026-11-20T09:00:00Z'),
        panel(138, '2026-11-20T09:10:00Z'),
        panel(145, '2026-11-20T09:20:00Z'),
        panel(120, '2026-10-01'),
      ],
      {
        now: NOW,
      },
    );
    expect(r.value).toBe(138);
  });

  it('an unreadable reading at the latest visit could be the lowest: unknown', () => {
    const bad = {
      ...panel(150, '2026-11-20T09:05:00Z'),
      component: [{ code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] }, valueQuantity: { value: 140, unit: 'kPa' } }],
    };
    expect(sbp.evaluate([panel(152, '2026-11-20T09:00:00Z'), bad], { now: NOW }).value).toBe('unknown');
  });
});
