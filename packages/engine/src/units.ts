/**
 * Units are stored as UCUM codes (what FHIR and lab interfaces exchange) and shown to people in
 * their usual form. Written once here so the server's labels and the web app's agree.
 */
const UCUM_DISPLAY: Readonly<Record<string, string>> = {
  'mm[Hg]': 'mmHg',
  'kg/m2': 'kg/m²',
  'mg/g': 'mg/g creatinine',
  'mmol/mol': 'mmol/mol',
  '%': '%',
  'mg/dL': 'mg/dL',
  'mmol/L': 'mmol/L',
  'mL/min/{1.73_m2}': 'mL/min/1.73 m²',
  'mL/min/1.73.m2': 'mL/min/1.73 m²',
  kg: 'kg',
  '[lb_av]': 'lb',
  cm: 'cm',
  '[in_i]': 'in',
  a: 'years',
  'mg/mmol': 'mg/mmol',
  'u[IU]/mL': 'µIU/mL',
  'm[IU]/L': 'mIU/L',
};

/** The unit as a clinician reads it (`mm[Hg]` → `mmHg`); unknown codes are shown as written. */
export function unitDisplay(code: string | null | undefined): string {
  if (code == null) return '';
  return UCUM_DISPLAY[code] ?? code;
}
