import { aCondition, anObservation, LOINC, SNOMED } from '../testing/records';
import { POPULATION_CODES, prepareMeasure, type MeasureModel } from './evaluate';

// A hook call asks only whether a measure shows a gap: for a patient outside its initial population the
// other inputs need not be read. The populations must be what a whole evaluation gives, in every case.
const PERIOD = { start: '2026-01-01', end: '2026-12-31' };
const NOW = Date.parse('2026-11-26T12:00:00Z');
const criterion = (resource_type: string, code: string) => ({
  resource_type,
  codes: [`${resource_type === 'Condition' ? SNOMED : LOINC}|${code}`],
  window: resource_type === 'Condition' ? { anchor: 'period', relation: 'overlaps' } : { anchor: 'period' },
  take: 'exists',
});
const input = (id: string, resource_type: string, code: string) => ({
  id,
  name: id,
  display_name: id,
  data_type: 'boolean' as const,
  is_active: true,
  validation_rules: { criterion: criterion(resource_type, code) },
});
const rule = (id: string, parameter: string, value: boolean) => ({
  id,
  name: id,
  priority: 0,
  conditions: [{ type: 'parameter' as const, parameter, operator: 'equals', value }],
  actions: [],
});
const model: MeasureModel = {
  parameters: [
    input('egfr', 'Observation', '62238-1'),
    input('diabetes', 'Condition', '44054006'),
    input('hospice', 'Condition', '385763009'),
  ],
  rules: [rule('ip', 'diabetes', true), rule('num', 'egfr', true), rule('excl', 'hospice', true)],
  populations: { 'initial-population': ['ip'], numerator: ['num'], 'denominator-exclusion': ['excl'] },
};
const measure = prepareMeasure(model, new Map());
const at = '2026-03-02T10:00:00Z';
const coded = (code: string) => aCondition(code, '2026-02-01', 'active');
const egfr = anObservation('62238-1', 75, 'mL/min/{1.73_m2}', at);

describe('a measure evaluated for a hook call (stopOutside)', () => {
  const records: [string, unknown[]][] = [
    ['no diagnosis', [egfr]],
    ['diabetes, eGFR this year', [coded('44054006'), egfr]],
    ['diabetes, no eGFR', [coded('44054006')]],
    ['diabetes in hospice', [coded('44054006'), coded('385763009'), egfr]],
    ['nothing at all', []],
  ];
  it.each(records)('%s: the populations, and for a patient in the measure its answers, are those of a whole evaluation', (_, record) => {
    const whole = measure.evaluate(record, PERIOD, NOW);
    const hook = measure.evaluate(record, PERIOD, NOW, undefined, { stopOutside: true });
    expect(hook.populations).toEqual(whole.populations);
    if (whole.populations['initial-population'] !== false) {
      expect(Object.keys(hook.answers)).toEqual(Object.keys(whole.answers));
      expect(hook.answers).toEqual(whole.answers);
      expect(hook.inputs).toEqual(whole.inputs);
    }
  });

  it('the records above are in and out of the measure: diabetes with an eGFR is in the numerator, in hospice excluded', () => {
    const o = (record: unknown[]) => measure.evaluate(record, PERIOD, NOW, undefined, { stopOutside: true }).populations;
    expect(o(records[1][1])).toMatchObject({ 'initial-population': true, numerator: true });
    expect(o(records[2][1])).toMatchObject({ 'initial-population': true, numerator: false });
    expect(o(records[3][1])).toMatchObject({ 'denominator-exclusion': true, numerator: false });
  });

  it('a patient with no diagnosis: outside every population, and only the diagnosis was read', () => {
    const o = measure.evaluate([egfr], PERIOD, NOW, undefined, { stopOutside: true });
    expect(POPULATION_CODES.map((c) => o.populations[c])).toEqual(POPULATION_CODES.map(() => false));
    expect(Object.keys(o.inputs)).toEqual(['diabetes']);
  });

  it('a diagnosis whose search failed: undetermined, so everything is read', () => {
    const o = measure.evaluate([egfr], PERIOD, NOW, new Map([['diabetes', 'unread']]), { stopOutside: true });
    expect(o.populations['initial-population']).toBe('unknown');
    expect(Object.keys(o.inputs)).toEqual(['egfr', 'diabetes', 'hospice']);
  });
});
