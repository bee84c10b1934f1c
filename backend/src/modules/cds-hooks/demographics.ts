import { NOT_AVAILABLE_OPTION, questionOptions, type EngineParameter, type EngineRule } from '@cds/engine';

type Json = Record<string, unknown>;

/** LOINC codes of age and sex: such parameters are read from the Patient resource, never an Observation search. */
const AGE_LOINC = new Set(['30525-0']);
const SEX_LOINC = new Set(['46098-0', '76689-9']);

export type Demographic = 'age' | 'sex';

/** Whether a parameter is the patient's age or sex (by its LOINC code, or its name). */
export function demographicOf(p: EngineParameter, loinc: string | null): Demographic | null {
  const name = p.name.toLowerCase();
  if ((loinc && AGE_LOINC.has(loinc)) || name === 'age') return 'age';
  if ((loinc && SEX_LOINC.has(loinc)) || name === 'sex' || name === 'gender') return 'sex';
  return null;
}

/** Whole years from Patient.birthDate (YYYY, YYYY-MM or YYYY-MM-DD; a partial date reads as its first day). */
export function ageOn(patient: Json, now: Date): number | null {
  const m = typeof patient.birthDate === 'string' ? /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(patient.birthDate) : null;
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2] ?? 1), Number(m[3] ?? 1)];
  let years = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < mo || (now.getUTCMonth() + 1 === mo && now.getUTCDate() < d)) years -= 1;
  return years >= 0 ? years : null;
}

/**
 * The parameter's answer for Patient.gender: the option whose value (or label) is "male"/"female"
 * or "M"/"F". FHIR's "other" and "unknown", or a parameter without such an option, give no answer:
 * guessing a sex would risk a wrong card.
 */
export function sexAnswer(
  patient: Json,
  p: EngineParameter,
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
): string | boolean | number | null {
  const gender = patient.gender;
  if (gender !== 'male' && gender !== 'female') return null;
  const wanted = new Set([gender, gender[0]]);
  const norm = (v: unknown) => String(v).trim().toLowerCase();
  const options = questionOptions(p, rules, parameters).filter(
    (o): o is { label: string; value: string | number | boolean } =>
      o.value !== NOT_AVAILABLE_OPTION.value && o.value !== null && typeof o.value !== 'object',
  );
  const byValue = options.find((o) => typeof o.value === 'string' && wanted.has(norm(o.value)));
  return (byValue ?? options.find((o) => wanted.has(norm(o.label))))?.value ?? null;
}
