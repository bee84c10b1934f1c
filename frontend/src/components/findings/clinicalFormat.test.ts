import { describe, expect, it } from 'vitest';
import { answerText, basisAnswer, conditionText, formatAnswerValue, formatNumber, formatRange } from './clinicalFormat';
import { diabetesFinding, fpgConverted, hba1cBand, hba1cNotAvailable, hba1cTyped } from '../../test/clinicalFixtures';

/** The texts below read with plain spaces; the no-break spaces they carry are checked on their own. */
const spaced = (s: string) => s.replace(/\u00a0/g, ' ');

describe('answers and conditions as a clinician reads them', () => {
  it('a figure never wraps apart from its unit, nor a converted figure from its ≈', () => {
    const a1c = { ...hba1cTyped, unit: 'mmol/mol', entered_value: 58, value: 7.45784, decimals: 1 };
    expect(answerText(a1c)).toBe('58\u00a0mmol/mol (≈\u00a07.46\u00a0%)');
    expect(formatAnswerValue(200, 'mm[Hg]')).toBe('200\u00a0mmHg');
  });

  it('bands read with their boundary on the right side', () => {
    expect(spaced(formatRange({ type: 'range', min: 5.7, max: 6.5, min_inclusive: true, max_inclusive: false }, '%'))).toBe(
      '5.7 to < 6.5 %',
    );
    expect(spaced(formatRange({ type: 'range', min: 6.5, max: null, min_inclusive: true, max_inclusive: false }, '%'))).toBe('≥ 6.5 %');
    expect(spaced(formatRange({ type: 'range', min: 4.5, max: null, min_inclusive: false, max_inclusive: false }, 'm[IU]/L'))).toBe(
      '> 4.5 mIU/L',
    );
    expect(spaced(formatRange({ type: 'range', min: null, max: 180, min_inclusive: false, max_inclusive: false }, 'mm[Hg]'))).toBe(
      '< 180 mmHg',
    );
    expect(spaced(formatRange({ type: 'range', min: 30, max: 30, min_inclusive: true, max_inclusive: true }, 'mg/g'))).toBe(
      '= 30 mg/g creatinine',
    );
  });

  it('no binary-float tail, no stand-in: Not available is said as such', () => {
    expect(spaced(formatNumber(6.050000000000001))).toBe('6.05');
    expect(spaced(formatAnswerValue('unknown', '%'))).toBe('Not available');
    expect(spaced(formatAnswerValue(true))).toBe('Yes');
    expect(spaced(formatAnswerValue(200, 'mm[Hg]'))).toBe('200 mmHg');
  });

  it('stored answers: typed with unit, converted with both forms, band label, Not available', () => {
    expect(spaced(answerText(hba1cTyped))).toBe('6.5 %');
    expect(spaced(answerText(fpgConverted))).toBe('7 mmol/L (= 126 mg/dL)');
    expect(spaced(answerText(hba1cBand))).toBe('HbA1c 5.7 to < 6.5 %');
    expect(spaced(answerText(hba1cNotAvailable))).toBe('Not available');
  });

  it('a converted value at one place finer than the parameter is recorded at, marked ≈ when rounded', () => {
    const a1c = { ...hba1cTyped, unit: 'mmol/mol', entered_value: 58, value: 7.45784, decimals: 1 };
    expect(spaced(answerText(a1c))).toBe('58 mmol/mol (≈ 7.46 %)');
    expect(spaced(answerText({ ...a1c, entered_value: 48, value: 6.54304 }))).toBe('48 mmol/mol (≈ 6.54 %)');
    expect(spaced(answerText({ ...a1c, value: 7.45 }))).toBe('58 mmol/mol (= 7.45 %)');
    expect(spaced(answerText({ ...a1c, value: 7.4 }))).toBe('58 mmol/mol (= 7.4 %)');
    expect(spaced(answerText({ ...fpgConverted, value: 124.2, entered_value: 6.9, decimals: 0 }))).toBe('6.9 mmol/L (= 124.2 mg/dL)');
    expect(spaced(answerText({ ...fpgConverted, value: 124.23, entered_value: 6.9, decimals: 0 }))).toBe('6.9 mmol/L (≈ 124.2 mg/dL)');
    // Never onto a cut-point it does not reach: 47.5 mmol/mol is 6.4973 %, not "≈ 6.5 %".
    expect(spaced(answerText({ ...a1c, entered_value: 47.5, value: 6.4973 }))).toBe('47.5 mmol/mol (≈ 6.497 %)');
    expect(spaced(answerText({ ...a1c, entered_value: 47.6, value: 6.50645 }))).toBe('47.6 mmol/mol (≈ 6.51 %)');
    // Stored before the precision was sent: three places.
    expect(spaced(answerText({ ...a1c, decimals: undefined }))).toBe('58 mmol/mol (≈ 7.458 %)');
  });

  it('a converted band is rounded at both ends the same way', () => {
    const band = {
      ...hba1cBand,
      unit: 'mmol/mol',
      label: 'HbA1c 48 to < 53 mmol/mol',
      entered_value: { type: 'range' as const, min: 48, max: 53, min_inclusive: true, max_inclusive: false },
      value: { type: 'range' as const, min: 6.54304, max: 7.00044, min_inclusive: true, max_inclusive: false },
      decimals: 1,
    };
    // 53 mmol/mol is 7.00044 %: "< 7" would leave out values the band holds.
    expect(spaced(answerText(band))).toBe('HbA1c 48 to < 53 mmol/mol (≈ 6.54 to < 7.0004 %)');
  });

  it('a condition in words with display name, operator symbol, threshold and unit', () => {
    expect(spaced(conditionText(diabetesFinding.basis[0]))).toBe('HbA1c ≥ 6.5 %');
  });

  it('the basis shows the latest answer: the exact value asked for after a straddling band', () => {
    const exact = { ...hba1cTyped, value: 6.7, label: '6.7 %', observed_at: null };
    const shown = basisAnswer(diabetesFinding.basis[0], [hba1cBand, exact]);
    expect({ ...shown, text: spaced(shown.text) }).toEqual({ text: '6.7 %', how: 'typed value' });
  });
});
