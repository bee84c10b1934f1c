import { canonicalUnit, UCUM_ALIASES } from './units';

describe('EHR unit spellings read as UCUM', () => {
  it.each([
    ['mmHg', 'mm[Hg]'],
    ['mm Hg', 'mm[Hg]'],
    ['mmhg', 'mm[Hg]'],
    ['MM HG', 'mm[Hg]'],
    ['mg/dl', 'mg/dL'],
    ['MG/DL', 'mg/dL'],
    ['mmol/l', 'mmol/L'],
    ['mmol/mol Hb', 'mmol/mol'],
    ['%Hb', '%'],
    ['mg/g creat', 'mg/g'],
    ['mg/mmol{creat}', 'mg/mmol'],
    ['mL/min/1.73m2', 'mL/min/{1.73_m2}'],
    ['ml/min/1.73 m2', 'mL/min/{1.73_m2}'],
    ['kg/m²', 'kg/m2'],
  ])('%s is %s', (spelling, code) => {
    expect(canonicalUnit(spelling)).toBe(code);
  });

  it('an eGFR spelling reads as whichever UCUM form of "per 1.73 m²" the parameter stores', () => {
    expect(canonicalUnit('mL/min/1.73m2', ['mL/min/1.73.m2'])).toBe('mL/min/1.73.m2');
    expect(canonicalUnit('mL/min/1.73m2', ['mL/min/{1.73_m2}'])).toBe('mL/min/{1.73_m2}');
  });

  it('a unit the parameter uses is read as itself, and an unknown spelling stays unknown', () => {
    expect(canonicalUnit('mg/dL', ['mg/dL'])).toBe('mg/dL');
    expect(canonicalUnit('furlongs')).toBe('furlongs');
  });

  it('no spelling is an alias of two units', () => {
    const seen = new Map<string, string>();
    for (const [code, aliases] of Object.entries(UCUM_ALIASES)) {
      for (const a of [code, ...aliases]) {
        const key = a.replace(/\s+/g, '').toLowerCase();
        expect([key, seen.get(key) ?? code]).toEqual([key, code]);
        seen.set(key, code);
      }
    }
  });
});
