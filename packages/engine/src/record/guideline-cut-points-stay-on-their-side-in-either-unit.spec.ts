import fc from 'fast-check';
import { conversionProblem, toParameterUnit, type UnitConversion } from './conversion';
import {
  GLUCOSE_MMOL_L_TO_MG_DL,
  HBA1C_MMOL_MOL_TO_PERCENT,
  HBA1C_PERCENT_TO_MMOL_MOL,
  UACR_MG_MMOL_TO_MG_G,
} from './guideline-conversions';

/** The ADA / KDIGO pairs the parameter templates, the history criteria and the Panel carry. */
const A1C = HBA1C_MMOL_MOL_TO_PERCENT;
const A1C_IFCC = HBA1C_PERCENT_TO_MMOL_MOL;
const FPG = GLUCOSE_MMOL_L_TO_MG_DL;
const UACR = UACR_MG_MMOL_TO_MG_G;
const OGTT: UnitConversion = {
  code: 'mmol/L',
  factor: 18,
  equivalents: [
    [7.8, 140],
    [11.1, 200],
  ],
};
describe('guideline cut-points in the unit the guideline publishes them', () => {
  it('2-h OGTT 11.1 mmol/L is 200 mg/dL (diabetes), not 199.8 (prediabetes); 7.8 mmol/L is 140', () => {
    expect(toParameterUnit(11.1, { code: 'mmol/L', factor: 18 })).toBe(199.8);
    expect(toParameterUnit(11.1, OGTT)).toBe(200);
    expect(toParameterUnit(7.8, OGTT)).toBe(140);
  });

  it('UACR 3.0 mg/mmol is 30 mg/g (KDIGO A2), not 26.5; 30.5 mg/mmol is above 300 mg/g (A3)', () => {
    expect(toParameterUnit(3, UACR)).toBe(30);
    expect(toParameterUnit(30.5, UACR)).toBeGreaterThan(300);
    expect(toParameterUnit(2.9, UACR)).toBeLessThan(30);
  });

  it('HbA1c 48 mmol/mol is 6.5 %, 39 is 5.7 %, 53 is 7 %, 64 is 8 %; 47 mmol/mol stays below 6.5 %', () => {
    expect([39, 48, 53, 64].map((n) => toParameterUnit(n, A1C))).toEqual([5.7, 6.5, 7, 8]);
    expect(toParameterUnit(47, A1C)).toBeLessThan(6.5);
    expect(toParameterUnit(100, A1C)).toBeCloseTo(9 + 25 * 0.09148, 9);
  });

  it('HbA1c 75 mmol/mol is 9 %, not above CMS122’s > 9 % (the equation alone gives 9.013); 76 mmol/mol is above it', () => {
    expect(toParameterUnit(75, { code: 'mmol/mol', factor: 0.09148, offset: 2.152 })).toBeGreaterThan(9);
    expect(toParameterUnit(75, A1C)).toBe(9);
    expect(toParameterUnit(76, A1C)).toBeGreaterThan(9);
  });

  it('an HbA1c parameter kept in mmol/mol reads % through the same pairs the other way (9 % is 75, 6.5 % is 48)', () => {
    expect([5.7, 6.5, 7, 8, 9].map((n) => toParameterUnit(n, A1C_IFCC))).toEqual([39, 48, 53, 64, 75]);
    for (const mmol of [41, 50, 58, 70, 90]) expect(toParameterUnit(toParameterUnit(mmol, A1C), A1C_IFCC)).toBeCloseTo(mmol, 4);
  });

  it('fasting glucose 7.0 mmol/L is 126 mg/dL, 5.6 is 100, 3.9 is 70 (hypoglycaemia level 1), 3.0 is 54 (level 2)', () => {
    expect([7.0, 5.6, 3.9, 3.0].map((n) => toParameterUnit(n, FPG))).toEqual([126, 100, 70, 54]);
  });

  it('without equivalents it is value × factor + offset, as before', () => {
    expect(toParameterUnit(7, { code: 'mmol/L', factor: 18 })).toBe(126);
    expect(toParameterUnit(53, { code: 'mmol/mol', factor: 0.09148, offset: 2.152 })).toBe(7.00044);
  });

  const conversions = fc.constantFrom<UnitConversion>(A1C, A1C_IFCC, FPG, OGTT, UACR);
  const twoDecimals = fc.integer({ min: 0, max: 100_000 }).map((n) => n / 100);

  it('is strictly increasing (property)', () => {
    fc.assert(
      fc.property(conversions, twoDecimals, twoDecimals, (c, a, b) => {
        fc.pre(a !== b);
        const [lo, hi] = a < b ? [a, b] : [b, a];
        expect(toParameterUnit(lo, c)).toBeLessThan(toParameterUnit(hi, c));
      }),
    );
  });

  it('puts every value on the same side of each published cut-point in either unit (property)', () => {
    fc.assert(
      fc.property(conversions, twoDecimals, (c, x) => {
        const y = toParameterUnit(x, c);
        for (const [cx, cy] of c.equivalents!) expect(Math.sign(y - cy)).toBe(Math.sign(x - cx));
      }),
    );
  });

  it.each([
    [
      {
        code: 'mmol/L',
        factor: 18,
        equivalents: [
          [7, 126],
          [5.6, 100],
        ],
      },
      'increasing',
    ],
    [
      {
        code: 'mmol/L',
        factor: 18,
        equivalents: [
          [5.6, 126],
          [7, 100],
        ],
      },
      'increasing',
    ],
    [{ code: 'mmol/L', factor: 18, equivalents: [[5.6, Infinity]] }, 'finite'],
    [{ code: 'mmol/L', factor: 18, equivalents: [[5.6]] }, 'pair'],
    [{ code: 'mmol/L', factor: 18, equivalents: [] }, 'non-empty'],
    [{ code: 'mmol/L', factor: -18, equivalents: [[5.6, 100]] }, 'positive'],
    [{ code: 'mmol/L', factor: 0 }, 'factor'],
  ])('a conversion that could not keep the order of values is refused (%j)', (c, words) => {
    expect(conversionProblem(c)).toContain(words);
  });

  it('the templates’ conversions are accepted', () => {
    for (const c of [A1C, A1C_IFCC, FPG, OGTT, UACR]) expect(conversionProblem(c)).toBeNull();
  });
});
