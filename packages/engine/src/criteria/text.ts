import { unitDisplay } from '../units';
import { isAnyOf, type CriterionSpec } from './any-of';
import type { Criterion } from './types';

/**
 * A criterion in a physician's words, for the parameter it reads ("Days with a result ≥ 6.5 % (LOINC
 * 4548-4, 59261-8) in the last 365 days"). Codes are named by system and code: the record's own
 * display names are not known here.
 */
export function criterionText(spec: CriterionSpec, names: TextNames = {}): string {
  if (isAnyOf(spec)) return `Any of: ${spec.any_of.map((c) => oneText(c, names)).join('; or ')}`;
  return oneText(spec, names);
}

/** Names the caller knows: value sets' titles by canonical URL ("HbA1c Laboratory Test"). */
export interface TextNames {
  valueSetTitles?: ReadonlyMap<string, string>;
}

const SYSTEMS: Readonly<Record<string, string>> = {
  'http://loinc.org': 'LOINC',
  'http://snomed.info/sct': 'SNOMED CT',
  'http://hl7.org/fhir/sid/icd-10-cm': 'ICD-10-CM',
  'http://www.ama-assn.org/go/cpt': 'CPT',
  'http://www.nlm.nih.gov/research/umls/rxnorm': 'RxNorm',
  'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets': 'HCPCS',
  'http://www.cms.gov/Medicare/Coding/ICD10': 'ICD-10-PCS',
};

function codesText(c: Criterion, names: TextNames): string {
  const bySystem = new Map<string, string[]>();
  for (const token of c.codes ?? []) {
    const [system, code] = token.split('|');
    bySystem.set(SYSTEMS[system] ?? system, [...(bySystem.get(SYSTEMS[system] ?? system) ?? []), code]);
  }
  const parts = [...bySystem].map(([system, codes]) => `${system} ${codes.join(', ')}`);
  const sets = c.value_sets ?? [];
  const titles = sets.map((url) => names.valueSetTitles?.get(url));
  if (sets.length && titles.every((t) => t !== undefined))
    parts.push(`value set${sets.length === 1 ? '' : 's'} ${titles.map((t) => `“${t}”`).join(', ')}`);
  else if (sets.length) parts.push(sets.length === 1 ? 'a value set' : `${sets.length} value sets`);
  return parts.join('; ');
}

function windowText(c: Criterion): string {
  const w = c.window;
  if (!w) return '';
  if (w.anchor === 'now') return w.days !== undefined ? ` in the last ${w.days} days` : '';
  if (w.days !== undefined) return ` in the last ${w.days} days of the measurement period`;
  if (w.first_months !== undefined) return ` in the first ${w.first_months} months of the measurement period`;
  return w.years_before
    ? ` in the measurement period or the ${w.years_before === 1 ? 'year' : `${w.years_before} years`} before`
    : ' in the measurement period';
}

/** A kind of record in a physician's words, and its plural. */
const NOUNS: Readonly<Record<string, [string, string]>> = {
  Observation: ['result', 'results'],
  Condition: ['diagnosis', 'diagnoses'],
  Encounter: ['visit', 'visits'],
  Procedure: ['procedure', 'procedures'],
  MedicationRequest: ['prescription', 'prescriptions'],
  ServiceRequest: ['order', 'orders'],
  DeviceRequest: ['device order', 'device orders'],
};

const orList = (items: readonly string[]) =>
  items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;

function oneText(c: Criterion, names: TextNames): string {
  if (c.take === 'age') return c.window?.anchor === 'period' ? `Age at the ${c.window.at ?? 'end'} of the measurement period` : 'Age today';
  const [noun, plural] = NOUNS[c.resource_type] ?? [c.resource_type, `${c.resource_type}s`];
  const codes = codesText(c, names) ? ` (${codesText(c, names)})` : '';
  const status = c.statuses?.length ? ` with status ${orList(c.statuses)}` : '';
  const what = `${noun}${codes}${status}`;
  const unit = c.unit ? ` ${unitDisplay(c.unit)}` : '';
  const filter = c.where ? ` ${c.where.operator.replace('>=', '≥').replace('<=', '≤')} ${c.where.value}${unit}` : '';
  const when = windowText(c);
  switch (c.take) {
    case 'latest':
      return `Latest ${what}${when}`;
    case 'lowest_on_latest_day':
      return `Lowest ${what} on the latest day${when}`;
    case 'latest_is':
      return `Whether the latest ${what}${when} has the named code`;
    case 'latest_without_value':
      return `Whether the latest day's ${what}${when} was recorded without a value`;
    case 'count':
      return `Number of ${plural}${codes}${status}${filter}${when}`;
    case 'distinct_days':
      return `Days with a ${what}${filter}${when}`;
    case 'days_persisting':
      return `Days the ${what} has stayed${filter}`;
    default:
      return `Any ${what}${filter}${when}`;
  }
}
