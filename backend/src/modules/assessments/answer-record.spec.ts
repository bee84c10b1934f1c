import type { EngineParameter } from '@cds/engine';
import { recordAnswer } from './answer-record';
import type { AnswerDto } from './assessments.dto';

const hba1c = (validation_rules: Record<string, unknown>): EngineParameter => ({
  id: 'p1',
  name: 'hba1c',
  display_name: 'HbA1c',
  data_type: 'lab_range',
  units: '%',
  validation_rules: { min: 3, max: 20, units_accepted: [{ code: 'mmol/mol', factor: 0.09148, offset: 2.152 }], ...validation_rules },
});
const bands = [
  { label: '< 5.7 %', value: { type: 'range', min: null, max: 5.7, min_inclusive: false, max_inclusive: false } },
  { label: '≥ 6.45 %', value: { type: 'range', min: 6.45, max: null, min_inclusive: true, max_inclusive: false } },
];
const at = new Date('2026-11-23T10:00:00Z');
const typed = (value: number, unit?: string) => ({ parameter_id: 'p1', value, ...(unit ? { unit } : {}) }) as AnswerDto;

describe('recordAnswer: the precision a converted value is shown against', () => {
  it('a converted answer carries the declared decimals', () => {
    expect(recordAnswer(hba1c({ decimals: 1 }), bands, typed(58, 'mmol/mol'), at)).toMatchObject({ entered_value: 58, decimals: 1 });
  });

  it("without declared decimals, the cut-points' precision", () => {
    expect(recordAnswer(hba1c({}), bands, typed(58, 'mmol/mol'), at)).toMatchObject({ decimals: 2 });
  });

  it('an answer in the parameter unit is stored as before, without decimals', () => {
    expect(recordAnswer(hba1c({ decimals: 1 }), bands, typed(6.5), at)).not.toHaveProperty('decimals');
  });
});
