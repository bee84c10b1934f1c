import type { EngineParameter } from '@cds/engine';
import { cutPointsToShow, historiesOf } from '../assessments/record-context';
import { historyOf } from './observations';

// Issue 20: the history an assessment keeps of the record, and how its case detail shows it.
const NOW = new Date('2026-11-23T12:00:00Z');
const glucose: EngineParameter = {
  id: 'p-fpg',
  name: 'fasting_glucose',
  display_name: 'Fasting Glucose',
  data_type: 'lab_range',
  units: 'mg/dL',
  validation_rules: {
    min: 20,
    max: 800,
    decimals: 0,
    units_accepted: [{ code: 'mmol/L', factor: 18, equivalents: [[7.0, 126]] }],
  },
};

const obs = (id: string, at: string, quantity: Record<string, unknown>, status = 'final') => ({
  resourceType: 'Observation',
  id,
  status,
  subject: { reference: 'Patient/p1' },
  code: { coding: [{ system: 'http://loinc.org', code: '1558-6' }] },
  effectiveDateTime: at,
  valueQuantity: { system: 'http://unitsofmeasure.org', ...quantity },
});

describe('fasting glucose over a year, in mg/dL and mmol/L, with results that cannot be plotted', () => {
  const record = [
    obs('a', '2026-01-10T08:00:00Z', { value: 98, code: 'mg/dL' }),
    obs('b', '2026-06-02T08:00:00Z', { value: 7.0, code: 'mmol/L' }),
    obs('c', '2026-11-20T08:00:00Z', { value: 131, code: 'mg/dl' }),
    obs('d', '2026-09-01T08:00:00Z', { value: 40, code: 'mg/dL', comparator: '<' }),
    obs('e', '2026-10-01T08:00:00Z', { value: 5, code: 'kg' }),
    obs('f', '2026-10-15T08:00:00Z', { value: 200, code: 'mg/dL' }, 'entered-in-error'),
    obs('g', '2027-01-01T08:00:00Z', { value: 150, code: 'mg/dL' }),
  ];
  const h = historyOf(record, glucose, '1558-6', NOW, [100, 126])!;

  it('keeps every usable result newest first, as given, with the converted value beside an SI one', () => {
    expect(h.results).toEqual([
      { at: '2026-11-20T08:00:00.000Z', value: 131, unit: 'mg/dL' },
      { at: '2026-06-02T08:00:00.000Z', value: 7, unit: 'mmol/L', converted: 126 },
      { at: '2026-01-10T08:00:00.000Z', value: 98, unit: 'mg/dL' },
    ]);
    // "< 40" and a result in kg have no single number in mg/dL: counted, not kept; an entered-in-error
    // result and one dated in the future are no results at all.
    expect(h.not_plotted).toBe(2);
    expect(h).toMatchObject({ parameter_id: 'p-fpg', display_name: 'Fasting Glucose', unit: 'mg/dL', cut_points: [100, 126] });
  });

  it('the case detail lists them oldest first, the converted one as given and plotted in mg/dL', () => {
    const [shown] = historiesOf({ read_at: NOW.toISOString(), parameters: [h] });
    expect(shown.points).toEqual([
      { at: '2026-01-10T08:00:00.000Z', value: 98 },
      { at: '2026-06-02T08:00:00.000Z', value: 126, entered: '7 mmol/L' },
      { at: '2026-11-20T08:00:00.000Z', value: 131 },
    ]);
    expect(shown.thresholds).toEqual([
      { value: 100, label: 'Rule cut-point 100 mg/dL' },
      { value: 126, label: 'Rule cut-point 126 mg/dL' },
    ]);
    expect(shown).toMatchObject({ title: 'Fasting Glucose', unit: 'mg/dL', not_plotted: 2 });
  });

  it('no result of its codes in the record: nothing kept', () => {
    expect(historyOf([], glucose, '1558-6', NOW, [126])).toBeNull();
  });
});

describe('the cut-points drawn are those among the results and the nearest on either side', () => {
  it('systolic pressures 150 to 165 against 90, 120, 130, 140 and 180 mmHg: 140 and 180', () => {
    expect(cutPointsToShow([90, 120, 130, 140, 180], [150, 165, 158])).toEqual([140, 180]);
  });
  it('HbA1c 6.1 to 7.5 % against 5.7, 6.5 and 9: 5.7 and 6.5 among them, 9 the next above', () => {
    expect(cutPointsToShow([9, 5.7, 6.5], [6.1, 7.5])).toEqual([5.7, 6.5, 9]);
  });
  it('no results: none', () => {
    expect(cutPointsToShow([6.5], [])).toEqual([]);
  });
});
