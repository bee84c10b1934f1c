import { describe, expect, it } from 'vitest';
import { showField } from './ChangeHistoryTab';
import { validationRulesText } from './validationText';

describe('what the change history shows for a recorded field', () => {
  it('names a category and a data type, and writes a UCUM unit as people do', () => {
    expect(showField('category', 'labs')).toBe('Laboratory');
    expect(showField('data_type', 'lab_range')).toBe('Lab Range');
    expect(showField('units', 'mm[Hg]')).toBe('mmHg');
    expect(showField('display_name', 'HbA1c')).toBe('HbA1c');
  });

  it("says a fasting glucose's limits, the other unit it is typed in and its source in a sentence, not JSON", () => {
    const text = showField(
      'validation_rules',
      {
        min: 20,
        max: 1000,
        decimals: 0,
        units_accepted: [{ code: 'mmol/L', factor: 18, equivalents: [[7.8, 140]] }],
        source: 'ADA Standards of Care 2026, §2',
      },
      'mg/dL',
    );
    expect(text).toBe('Accepts values 20 to 1000 mg/dL, 0 decimal places; also typed in mmol/L. Source: ADA Standards of Care 2026, §2.');
    expect(text).not.toContain('{');
  });

  it('lists the bands of a classification by their labels', () => {
    expect(
      validationRulesText(
        {
          min: 0,
          max: 200,
          ranges: [
            { name: 'g5', label: 'G5 kidney failure (< 15)' },
            { name: 'g4', label: 'G4 (15–29)' },
          ],
        },
        'mL/min/{1.73_m2}',
      ),
    ).toMatch(/^Accepts values 0 to 200 .*; bands: G5 kidney failure \(< 15\); G4 \(15–29\)\.$/);
  });

  it('no rules reads "none"', () => {
    expect(validationRulesText({}, null)).toBe('none');
    expect(validationRulesText(null, null)).toBe('none');
  });
});
