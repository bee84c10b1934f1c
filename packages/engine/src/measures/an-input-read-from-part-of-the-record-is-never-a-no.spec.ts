import { aCondition, anObservation, SNOMED, LOINC } from '../testing/records';
import { prepareMeasure, type MeasureModel } from './evaluate';

// A measure evaluated over a record read by searches (a CDS Hooks call): an input whose search failed
// is unknown, and one read from only part of the record keeps a yes but never says no.
const PERIOD = { start: '2026-01-01', end: '2026-12-31' };
const NOW = Date.parse('2026-11-26T12:00:00Z');
const model: MeasureModel = {
  parameters: [
    {
      id: 'diabetes',
      name: 'diabetes',
      display_name: 'Diabetes',
      data_type: 'boolean',
      is_active: true,
      validation_rules: {
        criterion: {
          resource_type: 'Condition',
          codes: [`${SNOMED}|44054006`],
          window: { anchor: 'period', relation: 'overlaps' },
          take: 'exists',
        },
      },
    },
    {
      id: 'egfr',
      name: 'egfr',
      display_name: 'eGFR in the period',
      data_type: 'boolean',
      is_active: true,
      validation_rules: {
        criterion: { resource_type: 'Observation', codes: [`${LOINC}|62238-1`], window: { anchor: 'period' }, take: 'exists' },
      },
    },
  ],
  rules: [
    {
      id: 'ip',
      name: 'Diabetes',
      priority: 0,
      conditions: [{ type: 'parameter', parameter: 'diabetes', operator: 'equals', value: true }],
      actions: [],
    },
    {
      id: 'num',
      name: 'eGFR',
      priority: 0,
      conditions: [{ type: 'parameter', parameter: 'egfr', operator: 'equals', value: true }],
      actions: [],
    },
  ],
  populations: { 'initial-population': ['ip'], numerator: ['num'] },
};
const measure = prepareMeasure(model, new Map());
const diabetes = aCondition('44054006', '2020-01-01', 'active');

describe('a patient with diabetes whose eGFR search', () => {
  it('was read whole and found none: not in the numerator', () => {
    const o = measure.evaluate([diabetes], PERIOD, NOW);
    expect(o.populations.numerator).toBe(false);
  });

  it('failed: the numerator is undetermined, the diabetes still counts', () => {
    const o = measure.evaluate([diabetes], PERIOD, NOW, new Map([['egfr', 'unread']]));
    expect(o.answers.egfr).toBe('unknown');
    expect(o.populations['initial-population']).toBe(true);
    expect(o.populations.numerator).toBe('unknown');
  });

  it('stopped at a page and found none: undetermined, not a no', () => {
    const o = measure.evaluate([diabetes], PERIOD, NOW, new Map([['egfr', 'partial']]));
    expect(o.populations.numerator).toBe('unknown');
  });

  it('stopped at a page but found one this year: in the numerator', () => {
    const egfr = anObservation('62238-1', 75, 'mL/min/{1.73_m2}', '2026-03-02T10:00:00Z');
    const o = measure.evaluate([diabetes, egfr], PERIOD, NOW, new Map([['egfr', 'partial']]));
    expect(o.populations.numerator).toBe(true);
  });
});
