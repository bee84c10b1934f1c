import { unitDisplay } from '@cds/engine';
import type { PolishInput } from '../polish-input';

// "Fasting Glucose" reads as "fasting glucose"; "HbA1c", "TSH" and "BMI" keep their case.
function clinicalLabel(text: string): string {
  return text
    .replace(/[\s?:.]+$/, '')
    .trim()
    .split(/\s+/)
    .map((word) => (/^[A-Z]?[a-z]+$/.test(word) ? word.toLowerCase() : word))
    .join(' ');
}

// Units are stored as UCUM codes; a question shows them as a clinician writes them (mm[Hg] → mmHg).
function unitsSuffix(units: string | null | undefined, label: string): string {
  const u = units?.trim() ? unitDisplay(units.trim()) : '';
  if (!u || label.toLowerCase().includes(`(${u.toLowerCase()})`)) return '';
  return ` (${u})`;
}

/**
 * The built-in provider: clinical wording from the parameter's category, data type and
 * units. Deterministic, so it is also the final fallback whenever another provider fails.
 */
export function builtInQuestion(input: PolishInput): string {
  const label = clinicalLabel(input.displayName || input.name) || 'value';
  const units = unitsSuffix(input.units, label);
  const category = input.category ?? 'other';
  switch (input.dataType) {
    case 'boolean':
      if (category === 'labs') return `Was the patient's most recent ${label} test positive?`;
      if (category === 'history') return `Does the patient have a history of ${label}?`;
      if (category === 'symptoms') return `Is the patient currently experiencing ${label}?`;
      return `Does the patient have ${label}?`;
    case 'date':
      if (category === 'labs') return `When was the patient's most recent ${label} test?`;
      return `What is the date of the patient's ${label}?`;
    case 'calculated':
      return `What is the patient's calculated ${label}${units}?`;
    default:
      break;
  }
  switch (category) {
    case 'labs':
      return `What was the patient's most recent ${label} result${units}?`;
    case 'vitals':
      return `What is the patient's current ${label}${units}?`;
    case 'symptoms':
      return `How would you describe the patient's ${label}${units}?`;
    case 'history':
      return input.dataType === 'text' || input.dataType === 'select'
        ? `What is the patient's history of ${label}?`
        : `What is the patient's ${label}${units}?`;
    default:
      return `What is the patient's ${label}${units}?`;
  }
}
