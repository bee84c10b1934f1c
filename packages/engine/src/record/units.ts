/**
 * Units as EHRs and clinicians spell them, read as the UCUM code the parameters store. Lab interfaces
 * often send display spellings rather than UCUM (`mmHg` is the most common spelling of `mm[Hg]` in
 * real EHR data; `mg/dl`, `mmol/l` are frequent). Each alias names exactly one UCUM unit: a spelling
 * that could mean two units is not listed, so it stays unknown and the value is set aside.
 *
 * The list (also in the README, "Clinical semantics"):
 * - `mm[Hg]`: mmHg, mm Hg, mmhg, mm[hg], millimeter of mercury
 * - `mg/dL`: mg/dl, mg/100mL, mg%
 * - `mmol/L`: mmol/l
 * - `mmol/mol`: mmol/mol Hb, mmol/mol{Hb}
 * - `%`: %Hb, % Hb, %{Hb}, percent
 * - `mg/g`: mg/g creat, mg/g{creat}, mg/g creatinine
 * - `mg/mmol`: mg/mmol creat, mg/mmol{creat}, mg/mmol creatinine
 * - `mL/min/{1.73_m2}`: mL/min/1.73m2, mL/min/1.73 m2, mL/min/1.73m^2, mL/min/1.73.m2, ml/min/1.73m2, mL/min/1.73m²
 * - `kg/m2`: kg/m^2, kg/m², kg/sq m
 * Case and spaces are ignored when an alias is looked up (`MG/DL`, `mm  Hg`); a UCUM code the
 * parameters use is always read as itself.
 */
export const UCUM_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'mm[Hg]': ['mmHg', 'mm Hg', 'mmhg', 'mm[hg]', 'millimeter of mercury'],
  'mg/dL': ['mg/dl', 'mg/100mL', 'mg%'],
  'mmol/L': ['mmol/l'],
  'mmol/mol': ['mmol/mol Hb', 'mmol/mol{Hb}'],
  '%': ['%Hb', '% Hb', '%{Hb}', 'percent'],
  'mg/g': ['mg/g creat', 'mg/g{creat}', 'mg/g creatinine'],
  'mg/mmol': ['mg/mmol creat', 'mg/mmol{creat}', 'mg/mmol creatinine'],
  'mL/min/{1.73_m2}': ['mL/min/1.73m2', 'mL/min/1.73 m2', 'mL/min/1.73m^2', 'mL/min/1.73.m2', 'ml/min/1.73m2', 'mL/min/1.73m²'],
  'kg/m2': ['kg/m^2', 'kg/m²', 'kg/sq m'],
};

const key = (spelling: string) => spelling.replace(/\s+/g, '').toLowerCase();

const CANONICAL: ReadonlyMap<string, string> = new Map(
  Object.entries(UCUM_ALIASES).flatMap(([code, aliases]) => [code, ...aliases].map((a) => [key(a), code] as const)),
);

/**
 * The UCUM code a unit spelling stands for: the spelling itself when it is one of `known` (the
 * parameter's own unit and the units it accepts, compared exactly), else its alias, else the
 * spelling unchanged (which then matches nothing and is reported as an unknown unit).
 */
export function canonicalUnit(spelling: string, known: readonly string[] = []): string {
  if (known.includes(spelling)) return spelling;
  const code = CANONICAL.get(key(spelling));
  if (code === undefined) return spelling;
  // eGFR parameters may store either UCUM form of "per 1.73 m²"; the alias reads as the one in use.
  if (code === 'mL/min/{1.73_m2}') return known.find((k) => CANONICAL.get(key(k)) === code) ?? code;
  return code;
}
