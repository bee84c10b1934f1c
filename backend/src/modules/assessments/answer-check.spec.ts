import type { EngineParameter } from '@cds/engine';
import { checkAnswer, decimalPlaces, numericInput, rangeText, withNotAvailable, type AnswerRefusal } from './answer-check';

const hba1c: EngineParameter = {
  id: 'p1',
  name: 'hba1c',
  display_name: 'HbA1c',
  data_type: 'lab_range',
  units: '%',
  validation_rules: { min: 3, max: 20, decimals: 1, units_accepted: [{ code: 'mmol/mol', factor: 0.09148, offset: 2.152 }] },
};
const glucose: EngineParameter = {
  id: 'p2',
  name: 'fasting_glucose',
  display_name: 'Fasting Glucose',
  data_type: 'lab_range',
  units: 'mg/dL',
  validation_rules: { min: 20, max: 1000, decimals: 0, units_accepted: [{ code: 'mmol/L', factor: 18, decimals: 1 }] },
};
const param = (data_type: string, validation_rules: Record<string, unknown> = {}): EngineParameter => ({
  id: 'p3',
  name: 'x',
  display_name: 'X',
  data_type,
  validation_rules,
});
const band = (min: number | null, max: number | null, min_inclusive = true, max_inclusive = false) => ({
  type: 'range' as const,
  min,
  max,
  min_inclusive,
  max_inclusive,
});

describe('checkAnswer: a typed number', () => {
  it('is stored in the parameter unit with its label "6.5 %"', () => {
    expect(checkAnswer(hba1c, [], 6.5)).toEqual({ value: 6.5, unit: '%', entered_as: 'typed', label: '6.5 %' });
  });

  it('typed in a listed unit is converted (value × factor + offset) and both forms are kept', () => {
    expect(checkAnswer(glucose, [], 7, 'mmol/L')).toEqual({
      value: 126,
      unit: 'mmol/L',
      entered_value: 7,
      entered_as: 'typed',
      label: '7 mmol/L (126 mg/dL)',
    });
    const a1c = checkAnswer(hba1c, [], 48, 'mmol/mol');
    expect(a1c).toMatchObject({ unit: 'mmol/mol', entered_value: 48, entered_as: 'typed', label: '48 mmol/mol (6.543 %)' });
    expect((a1c as { value: number }).value).toBeCloseTo(6.543, 3);
  });

  it('the parameter unit named explicitly is no conversion', () => {
    expect(checkAnswer(glucose, [], 126, 'mg/dL')).toEqual({ value: 126, unit: 'mg/dL', entered_as: 'typed', label: '126 mg/dL' });
  });

  it.each([
    [2.9, 'HbA1c must be between 3 and 20 %'],
    [20.1, 'HbA1c must be between 3 and 20 %'],
    [6.55, 'HbA1c is recorded to 1 decimal place in %; 6.55 has more'],
  ])('%p is out of range: %s', (value, message) => {
    expect(checkAnswer(hba1c, [], value)).toEqual({ code: 'out_of_range', field: 'value', message });
  });

  it('the limits apply after conversion, and a converted unit has its own decimals', () => {
    expect(checkAnswer(glucose, [], 60, 'mmol/L')).toEqual({
      code: 'out_of_range',
      field: 'value',
      message: 'Fasting Glucose must be between 20 and 1000 mg/dL',
    });
    expect((checkAnswer(glucose, [], 6.95, 'mmol/L') as AnswerRefusal).code).toBe('out_of_range');
    expect(checkAnswer(glucose, [], 6.9, 'mmol/L')).toMatchObject({ value: 124.2 });
  });

  it('exactly on a limit is accepted', () => {
    expect(checkAnswer(hba1c, [], 3)).toMatchObject({ value: 3 });
    expect(checkAnswer(hba1c, [], 20)).toMatchObject({ value: 20 });
  });

  it('a unit the parameter does not list is refused with the units it takes', () => {
    expect(checkAnswer(glucose, [], 7, 'mmol/mol')).toEqual({
      code: 'unit_not_accepted',
      field: 'unit',
      message: 'Fasting Glucose is not accepted in mmol/mol; use mg/dL or mmol/L',
    });
    expect((checkAnswer(param('text'), [], 'a', 'mg/dL') as AnswerRefusal).code).toBe('unit_not_accepted');
  });

  it.each([['NaN'], ['Infinity'], ['6.5'], [''], [true], [null], [[6.5]], [{ value: 6.5 }]])(
    'refuses %j for a numeric question',
    (value) => {
      expect(checkAnswer(hba1c, [], value)).toMatchObject({ code: 'validation_failed', field: 'value' });
    },
  );
});

describe('checkAnswer: a band', () => {
  it('offered is stored as offered, with the label the clinician saw', () => {
    const offered = [{ label: 'HbA1c 5.7 to < 6.5 %', value: band(5.7, 6.5) }];
    expect(checkAnswer(hba1c, offered, band(5.7, 6.5))).toEqual({
      value: band(5.7, 6.5),
      unit: '%',
      entered_as: 'band',
      label: 'HbA1c 5.7 to < 6.5 %',
    });
  });

  it('not offered is checked and labelled from its ends; open ends are null', () => {
    expect(checkAnswer(hba1c, [], band(6.5, null))).toMatchObject({ entered_as: 'band', label: 'HbA1c ≥ 6.5 %' });
    expect(checkAnswer(hba1c, [], band(null, 5.7))).toMatchObject({ label: 'HbA1c < 5.7 %' });
  });

  it('in another unit is converted at both ends', () => {
    const r = checkAnswer(glucose, [], band(5.6, 7), 'mmol/L');
    expect(r).toMatchObject({ value: band(100.8, 126), entered_value: band(5.6, 7), label: 'Fasting Glucose 5.6 to < 7 mmol/L' });
  });

  it('the older closed form { type, min, max } is read as inclusive', () => {
    expect(checkAnswer(hba1c, [], { type: 'range', min: 6, max: 7 })).toMatchObject({ value: band(6, 7, true, true) });
  });

  it.each([
    ['min above max', band(7, 6)],
    ['an empty band', band(6, 6, true, false)],
    ['no ends', band(null, null)],
    ['a text end', { type: 'range', min: '6', max: 7, min_inclusive: true, max_inclusive: false }],
    ['an extra key', { ...band(6, 7), note: 1 }],
    ['a non-boolean inclusive flag', { ...band(6, 7), min_inclusive: 'yes' }],
  ])('refuses %s', (_name, value) => {
    expect(checkAnswer(hba1c, [], value)).toMatchObject({ code: 'validation_failed', field: 'value' });
  });

  it('an end outside the plausible limits is out of range', () => {
    expect(checkAnswer(hba1c, [], band(2, 7))).toMatchObject({ code: 'out_of_range' });
  });
});

describe('checkAnswer: other answers', () => {
  it('"unknown" is Not available for every type', () => {
    for (const p of [hba1c, param('boolean'), param('select', { options: [{ label: 'A', value: 'a' }] }), param('text')]) {
      expect(checkAnswer(p, [], 'unknown')).toEqual({ value: 'unknown', unit: null, entered_as: 'not_available', label: 'Not available' });
    }
  });

  it('booleans: Yes or No, or the label of the option offered', () => {
    expect(checkAnswer(param('boolean'), [], true)).toMatchObject({ entered_as: 'option', label: 'Yes' });
    expect(checkAnswer(param('boolean'), [], false)).toMatchObject({ label: 'No' });
    expect(checkAnswer(param('boolean'), [{ label: 'Positive', value: true }], true)).toMatchObject({ label: 'Positive' });
    expect(checkAnswer(param('boolean'), [], 'true')).toMatchObject({ code: 'validation_failed' });
  });

  it('a configured list of options is closed', () => {
    const p = param('select', { options: [{ label: 'Type 1', value: 't1' }] });
    expect(checkAnswer(p, [{ label: 'Type 1', value: 't1' }], 't1')).toMatchObject({ entered_as: 'option', label: 'Type 1' });
    expect(checkAnswer(p, [{ label: 'Type 1', value: 't1' }], 't2')).toEqual({
      code: 'validation_failed',
      field: 'value',
      message: 'value must be one of the options offered for X',
    });
  });

  it.each([
    ['date', '2025-03-01', true],
    ['date', '2025-02-30', false],
    ['text', 'metformin', true],
    ['text', '', false],
    ['text', 'x'.repeat(1001), false],
  ])('%s %j accepted: %p', (type, value, ok) => {
    expect('code' in checkAnswer(param(type), [], value)).toBe(!ok);
  });
});

describe('helpers', () => {
  it('decimalPlaces reads exponents', () => {
    expect([decimalPlaces(6), decimalPlaces(6.5), decimalPlaces(6.55), decimalPlaces(1e-7), decimalPlaces(1.5e-3)]).toEqual([
      0, 1, 2, 7, 4,
    ]);
  });

  it('rangeText puts each boundary on its side', () => {
    expect(rangeText(band(5.7, 6.5), '%')).toBe('5.7 to < 6.5 %');
    expect(rangeText(band(5.7, 6.5, false, true), '%')).toBe('> 5.7 to 6.5 %');
    expect(rangeText(band(130, null), 'mm[Hg]')).toBe('≥ 130 mmHg');
    expect(rangeText(band(6.5, 6.5, true, true), '%')).toBe('6.5 %');
  });

  it('numericInput lists the parameter unit first, with display forms', () => {
    expect(numericInput(glucose)).toEqual({
      kind: 'number',
      unit: 'mg/dL',
      unit_display: 'mg/dL',
      units_accepted: [
        { code: 'mg/dL', display: 'mg/dL' },
        { code: 'mmol/L', display: 'mmol/L' },
      ],
      min: 20,
      max: 1000,
      decimals: 0,
    });
    expect(numericInput(param('boolean'))).toBeNull();
  });

  it('withNotAvailable ends every list with Not available, once', () => {
    expect(withNotAvailable([{ label: 'Yes', value: true }])).toEqual([
      { label: 'Yes', value: true },
      { label: 'Not available', value: 'unknown' },
    ]);
    expect(withNotAvailable([{ label: 'x (no specific range)', value: 'unknown' }])).toEqual([
      { label: 'Not available', value: 'unknown' },
    ]);
  });
});

describe('units typed as people spell them, and guideline equivalents', () => {
  it('glucose typed in "mg/dl" is read as mg/dL; HbA1c typed as "mmol/mol Hb" is read as mmol/mol', () => {
    expect(checkAnswer(glucose, [], 131, 'mg/dl')).toMatchObject({ value: 131, unit: 'mg/dL' });
    expect(checkAnswer(hba1c, [], 53, 'mmol/mol Hb')).toMatchObject({ unit: 'mmol/mol', entered_value: 53 });
  });

  it('with equivalents, 48 mmol/mol is exactly 6.5 % (diabetes), not 6.543', () => {
    const withPairs: EngineParameter = {
      ...hba1c,
      validation_rules: {
        ...hba1c.validation_rules,
        units_accepted: [
          {
            code: 'mmol/mol',
            factor: 0.09148,
            offset: 2.152,
            equivalents: [
              [39, 5.7],
              [48, 6.5],
              [53, 7.0],
            ],
          },
        ],
      },
    };
    expect(checkAnswer(withPairs, [], 48, 'mmol/mol')).toMatchObject({ value: 6.5, label: '48 mmol/mol (6.5 %)' });
    expect(checkAnswer(hba1c, [], 48, 'mmol/mol')).toMatchObject({ value: 6.54304 });
  });
});
