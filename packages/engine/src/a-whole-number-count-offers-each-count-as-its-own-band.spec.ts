import { partitionBands } from './questions';
import type { EngineParameter, EngineRule } from './types';

// Issue 20: "days with an A1C ≥ 6.5 % in 12 months" is a whole number; its bands read as counts.
const days: EngineParameter = {
  id: 'days',
  name: 'a1c_diabetes_range_days',
  display_name: 'Days with A1C ≥ 6.5 %',
  data_type: 'number',
  units: null,
  validation_rules: { min: 0, max: 366, decimals: 0 },
};
const rule = (id: string, operator: string, value: number): EngineRule => ({
  id,
  name: id,
  priority: 1,
  conditions: [{ type: 'parameter', parameter: 'days', operator, value, logic: 'AND' }],
  actions: [{ type: 'alert', severity: 'high', message: id }],
});
const labels = (p: EngineParameter, rules: EngineRule[]) => partitionBands(p, rules, [p]).map((b) => b.label);

describe('a whole-number count offers each count as its own band', () => {
  it('cut-points at 1 and 2 from a minimum of 0: "= 0", "= 1", "≥ 2"', () => {
    expect(labels(days, [rule('confirmed', '>=', 2), rule('one', '>=', 1)])).toEqual([
      'Days with A1C ≥ 6.5 % = 0',
      'Days with A1C ≥ 6.5 % = 1',
      'Days with A1C ≥ 6.5 % ≥ 2',
    ]);
  });

  it('"> 90" on a day count keeps its ranges: "≤ 90", "> 90"', () => {
    expect(labels(days, [rule('persisting', '>', 90)])).toEqual(['Days with A1C ≥ 6.5 % ≤ 90', 'Days with A1C ≥ 6.5 % > 90']);
  });

  it('a parameter recorded with decimals keeps "1 to < 2"', () => {
    const tenths = { ...days, validation_rules: { min: 0, max: 366, decimals: 1 } };
    expect(labels(tenths, [rule('confirmed', '>=', 2), rule('one', '>=', 1)])).toEqual([
      'Days with A1C ≥ 6.5 % < 1',
      'Days with A1C ≥ 6.5 % 1 to < 2',
      'Days with A1C ≥ 6.5 % ≥ 2',
    ]);
  });
});
