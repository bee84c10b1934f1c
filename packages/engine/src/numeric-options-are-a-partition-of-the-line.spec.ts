import { clinicalOptions } from './clinical';
import { chatOptions } from './chat';
import { evaluateRule } from './evaluate';
import { partitionBands, questionFor } from './questions';
import { aParameter, aRule, band, BMI, cond, HBA1C, SBP, TSH, WT_LB } from './testing/builders';

const NOT_AVAILABLE = { label: 'Not available', value: 'unknown' };

/**
 * Issue 9 replaces product-spec §4's ±1 and midpoint stand-ins: a numeric question offers bands
 * that partition the line at every cut-point, each boundary on the side its operator puts it, and
 * each band submits the interval it stands for.
 */
describe('Numeric options are a partition of the line at every cut-point', () => {
  const adaA1c = [
    aRule('Normal A1c', [cond(HBA1C.id, '<', 5.7)]),
    aRule('Prediabetes', [cond(HBA1C.id, '>=', 5.7), cond(HBA1C.id, '<', 6.5)]),
    aRule('Diabetes', [cond(HBA1C.id, '>=', 6.5)]),
    aRule('Poor control', [cond(HBA1C.id, '>', 9)]),
  ];

  it('offers the ADA A1c bands with 5.7 and 6.5 in the upper band and 9 in the lower one', () => {
    expect(clinicalOptions(HBA1C, adaA1c)).toEqual([
      { label: 'HbA1c < 5.7 %', value: band(null, 5.7, false, false) },
      { label: 'HbA1c 5.7 to < 6.5 %', value: band(5.7, 6.5, true, false) },
      { label: 'HbA1c 6.5 to ≤ 9 %', value: band(6.5, 9, true, true) },
      { label: 'HbA1c > 9 %', value: band(9, null, false, false) },
      NOT_AVAILABLE,
    ]);
  });

  it('decides every rule from every band: no band straddles a cut-point', () => {
    for (const option of partitionBands(HBA1C, adaA1c)) {
      for (const rule of adaA1c) expect(evaluateRule(rule, { [HBA1C.id]: option.value }, [HBA1C]).result).not.toBe('unknown');
    }
  });

  it('gives a cut-point required on both sides ("> 250" and "≥ 250") its own point band', () => {
    const rules = [aRule('Heavy', [cond(WT_LB.id, '>', 250)]), aRule('Also', [cond(WT_LB.id, '>=', '250')])];
    expect(clinicalOptions(WT_LB, rules)).toEqual([
      { label: 'Weight < 250 lb', value: band(null, 250, false, false) },
      { label: 'Weight = 250 lb', value: band(250, 250, true, true) },
      { label: 'Weight > 250 lb', value: band(250, null, false, false) },
      NOT_AVAILABLE,
    ]);
  });

  it('gives "== t" its own point band between the others', () => {
    const rules = [
      aRule('Light', [cond(WT_LB.id, '<', 100)]),
      aRule('Mid', [cond(WT_LB.id, '==', 180)]),
      aRule('Heavy', [cond(WT_LB.id, '<=', 300)]),
    ];
    expect(clinicalOptions(WT_LB, rules).map((o) => o.label)).toEqual([
      'Weight < 100 lb',
      'Weight 100 to < 180 lb',
      'Weight = 180 lb',
      'Weight > 180 to ≤ 300 lb',
      'Weight > 300 lb',
      'Not available',
    ]);
  });

  it('labels vitals and calculated parameters with the unit as clinicians write it', () => {
    expect(clinicalOptions(SBP, [aRule('Stage 2', [cond(SBP.id, '>=', 140)])]).map((o) => o.label)).toEqual([
      'Systolic BP < 140 mmHg',
      'Systolic BP ≥ 140 mmHg',
      'Not available',
    ]);
    expect(clinicalOptions(BMI, [aRule('Obese', [cond(BMI.id, '>=', 30)])]).map((o) => o.label)).toEqual([
      'BMI < 30 kg/m²',
      'BMI ≥ 30 kg/m²',
      'Not available',
    ]);
  });

  it('finds conditions that name the parameter instead of using its id', () => {
    expect(clinicalOptions(TSH, [aRule('High TSH', [cond('tsh', '>', 4.5)])], [TSH]).map((o) => o.label)).toEqual([
      'Thyroid Stimulating Hormone ≤ 4.5 mIU/L',
      'Thyroid Stimulating Hormone > 4.5 mIU/L',
      'Not available',
    ]);
  });

  it('offers typed entry and Not available only when no rule gives a numeric cut-point', () => {
    expect(clinicalOptions(WT_LB, [aRule('Odd', [cond(WT_LB.id, '>', 'heavy')])])).toEqual([NOT_AVAILABLE]);
    expect(clinicalOptions(WT_LB, [aRule('A1c', [cond(HBA1C.id, '>', 7)])])).toEqual([NOT_AVAILABLE]);
  });

  it('is the same partition in the chat', () => {
    expect(chatOptions(HBA1C, adaA1c)).toEqual(clinicalOptions(HBA1C, adaA1c));
  });

  it('carries the typed entry read from validation_rules, the parameter unit first', () => {
    const glucose = aParameter('fasting_glucose', 'lab_range', {
      display_name: 'Fasting glucose',
      units: 'mg/dL',
      validation_rules: { min: 20, max: 1000, decimals: 0, units_accepted: [{ code: 'mmol/L', factor: 18 }] },
    });
    expect(questionFor(glucose, [aRule('Diabetes', [cond(glucose.id, '>=', 126)])])).toMatchObject({
      units: 'mg/dL',
      data_type: 'lab_range',
      input: {
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
      },
    });
    expect(questionFor(aParameter('smoker', 'boolean'), []).input).toBeUndefined();
  });
});

describe('An answer is shown as given, with its unit', () => {
  it('shows typed values, bands, Not available and booleans in words, never a stand-in', () => {
    const { answerText } = jest.requireActual<typeof import('./questions')>('./questions');
    expect(answerText(HBA1C, 6.5)).toBe('6.5 %');
    expect(answerText(HBA1C, band(5.7, 6.5, true, false))).toBe('5.7 to < 6.5 %');
    expect(answerText(HBA1C, band(6.5, null, true, false))).toBe('≥ 6.5 %');
    expect(answerText(HBA1C, { type: 'range', min: 6, max: 7 })).toBe('6 to ≤ 7 %');
    expect(answerText(SBP, band(180, 180, true, true))).toBe('180 mmHg');
    expect(answerText(HBA1C, 'unknown')).toBe('Not available');
    expect(answerText({ units: null, data_type: 'boolean' }, true)).toBe('Yes');
  });
});
