import {
  criterionFitProblems,
  criterionProblems,
  DEFAULT_STATUSES,
  takesFor,
  type Criterion,
  type CriterionResourceType,
  type CriterionSpec,
  type CriterionTake,
  type ValueFilterOperator,
  type WindowRelation,
} from '@cds/engine';
import { loincProblem } from '@cds/contracts';
import { ApiError } from '../../../api';

/**
 * The "Read from the record" fields of a parameter (issue 20): which records (a kind, codes in a code
 * system or value sets, the statuses that count), when (days back from now, or the measurement
 * period), and what is taken, in the words of the form. Pure, so Create, Edit and the tests share it.
 */
export const LOINC = 'http://loinc.org';
const SNOMED = 'http://snomed.info/sct';
const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
const CPT = 'http://www.ama-assn.org/go/cpt';
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const HCPCS = 'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets';

export const CODE_SYSTEM_NAMES: Readonly<Record<string, string>> = {
  [LOINC]: 'LOINC',
  [SNOMED]: 'SNOMED CT',
  [ICD10CM]: 'ICD-10-CM',
  [CPT]: 'CPT',
  [RXNORM]: 'RxNorm',
  [HCPCS]: 'HCPCS',
};
export const systemName = (system: string) => CODE_SYSTEM_NAMES[system] ?? system;

/** The kinds of record a criterion reads, in an administrator's words (the FHIR resource type beside them in the list), with the code systems they are coded in (the first is the default). */
export const RESOURCE_TYPES: readonly { type: CriterionResourceType; label: string; systems: readonly string[] }[] = [
  { type: 'Observation', label: 'Lab result or measurement', systems: [LOINC, SNOMED] },
  { type: 'Condition', label: 'Diagnosis or problem', systems: [SNOMED, ICD10CM] },
  { type: 'Encounter', label: 'Visit', systems: [SNOMED, CPT, HCPCS] },
  { type: 'Procedure', label: 'Procedure', systems: [SNOMED, CPT, HCPCS] },
  { type: 'MedicationRequest', label: 'Prescription', systems: [RXNORM] },
  { type: 'ServiceRequest', label: 'Order or referral', systems: [SNOMED, LOINC, CPT] },
  { type: 'DeviceRequest', label: 'Device order', systems: [SNOMED, HCPCS] },
  { type: 'Patient', label: 'The patient (age)', systems: [] },
];
const typeInfo = (t: CriterionResourceType) => RESOURCE_TYPES.find((r) => r.type === t)!;

/** The statuses an administrator may choose per kind of record (FHIR's, without those that never count). */
export const STATUS_OPTIONS: Readonly<Partial<Record<CriterionResourceType, readonly string[]>>> = {
  Observation: ['final', 'amended', 'corrected'],
  Condition: ['active', 'recurrence', 'relapse', 'inactive', 'remission', 'resolved'],
  Encounter: ['planned', 'arrived', 'triaged', 'in-progress', 'onleave', 'finished'],
  Procedure: ['preparation', 'in-progress', 'on-hold', 'stopped', 'completed'],
  MedicationRequest: ['draft', 'active', 'on-hold', 'completed', 'stopped'],
  ServiceRequest: ['draft', 'active', 'on-hold', 'completed', 'revoked'],
  DeviceRequest: ['draft', 'active', 'on-hold', 'completed', 'revoked'],
};
export const statusLabel = (s: string) => (s === 'onleave' ? 'On leave' : `${s.charAt(0).toUpperCase()}${s.slice(1).replace(/-/g, ' ')}`);
/** What counts when no status is chosen: the engine's default for the type (Conditions: any clinical status). */
export const defaultStatuses = (t: CriterionResourceType): readonly string[] => DEFAULT_STATUSES[t] ?? STATUS_OPTIONS[t] ?? [];
export const NEVER_COUNTS: Readonly<Partial<Record<CriterionResourceType, string>>> = {
  Observation: 'Preliminary, cancelled and entered-in-error results never count.',
  Condition: 'A diagnosis refuted or entered in error never counts.',
};

/** Takes this form edits: every one but `latest_is`, which needs the code the latest must have. */
export const EDITABLE_TAKES = [
  'latest',
  'lowest_on_latest_day',
  'count',
  'distinct_days',
  'exists',
  'days_persisting',
  'latest_without_value',
  'age',
] as const satisfies readonly CriterionTake[];
export type EditableTake = (typeof EDITABLE_TAKES)[number];

export const TAKE_LABELS: Record<EditableTake, string> = {
  latest: 'Latest value',
  lowest_on_latest_day: 'Lowest value on the latest day',
  count: 'Number of results',
  distinct_days: 'Number of different days',
  exists: 'Any result',
  days_persisting: 'Days a value has persisted',
  latest_without_value: 'Latest result recorded without a value',
  age: 'Age in whole years',
};
const RECORD_TAKE_LABELS: Partial<Record<EditableTake, string>> = { count: 'Number of records', exists: 'Any record' };
export const takeLabel = (take: EditableTake, type: CriterionResourceType) =>
  (type !== 'Observation' && RECORD_TAKE_LABELS[take]) || TAKE_LABELS[take];

/** Takes that use the value filter; latest and lowest read the value itself and ignore a filter. */
export const FILTERED_TAKES: ReadonlySet<string> = new Set(['count', 'distinct_days', 'exists', 'days_persisting']);

export const OPERATOR_LABELS: Record<ValueFilterOperator, string> = { '>=': '≥', '>': '>', '<=': '≤', '<': '<' };

export const RELATION_LABELS: Record<WindowRelation, string> = {
  during: 'Lies within the window',
  overlaps: 'Overlaps (ongoing counts)',
  starts_during: 'Starts within the window',
  ends_during: 'Ends within the window',
  ends_by_end: 'Ends by the window’s end',
  starts_by_end: 'Starts by the window’s end',
};

/** Kinds of record with a span (a diagnosis's prevalence, a visit's period): how it must meet the window. */
export const hasSpan = (t: CriterionResourceType) => t !== 'Observation' && t !== 'Patient';

export interface CriterionDraft {
  on: boolean;
  resourceType: CriterionResourceType;
  /** The code system plain codes are in (LOINC for Observations). */
  system: string;
  /** Codes as typed, separated by commas or spaces; a code of another system written `system|code`. */
  codes: string;
  /** Value sets' canonical URLs. */
  valueSets: string[];
  /** The statuses that count; null: the type's default. */
  statuses: string[] | null;
  take: EditableTake;
  /** '' and 'now': days back from now ('' with no days and no relation is the whole record); 'period': the measurement period. */
  anchor: '' | 'now' | 'period';
  /** Days back from now; empty is the whole record. */
  days: string;
  /** With the period: also this many years before it. */
  yearsBefore: string;
  relation: WindowRelation | '';
  /** Age, with the period: at its start or end (default). */
  at: '' | 'start' | 'end';
  operator: ValueFilterOperator | '';
  value: string;
  /** UCUM; empty is the parameter's own unit. */
  unit: string;
  /** The stored criterion the fields came from: what they do not show (units accepted, categories…) is kept while the kind is the same. */
  base: Criterion | null;
  /** A stored criterion these fields cannot show (any_of, a latest_is, part of a period…): kept unless turned off. */
  fixed: CriterionSpec | null;
}

export const EMPTY_CRITERION: CriterionDraft = {
  on: false,
  resourceType: 'Observation',
  system: LOINC,
  codes: '',
  valueSets: [],
  statuses: null,
  take: 'latest',
  anchor: '',
  days: '',
  yearsBefore: '',
  relation: '',
  at: '',
  operator: '',
  value: '',
  unit: '',
  base: null,
  fixed: null,
};

export type CriterionField = 'resourceType' | 'codes' | 'valueSets' | 'statuses' | 'take' | 'days' | 'window' | 'filter' | 'unit' | 'other';
export type CriterionErrors = Partial<Record<CriterionField, string>>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const WINDOW_KEYS = new Set(['anchor', 'days', 'years_before', 'relation', 'at']);

/** Whether these fields can show a stored criterion without losing what it says. */
function editable(c: unknown): c is Criterion {
  if (!isObject(c) || 'any_of' in c || !RESOURCE_TYPES.some((r) => r.type === c.resource_type)) return false;
  if (!(EDITABLE_TAKES as readonly unknown[]).includes(c.take) || c.has_code !== undefined) return false;
  if (c.codes !== undefined && (!Array.isArray(c.codes) || !c.codes.every((t) => typeof t === 'string' && t.includes('|')))) return false;
  if (c.value_sets !== undefined && (!Array.isArray(c.value_sets) || !c.value_sets.every((u) => typeof u === 'string'))) return false;
  if (c.statuses !== undefined && (!Array.isArray(c.statuses) || !c.statuses.every((s) => typeof s === 'string'))) return false;
  const w = c.window;
  if (w !== undefined) {
    if (!isObject(w) || (w.anchor !== 'now' && w.anchor !== 'period') || Object.keys(w).some((k) => !WINDOW_KEYS.has(k))) return false;
    // The last days of a period: said in words, not edited here.
    if (w.anchor === 'period' && w.days !== undefined) return false;
    if (w.anchor === 'now' && (w.years_before !== undefined || w.at !== undefined)) return false;
  }
  return c.where === undefined || (c.resource_type === 'Observation' && FILTERED_TAKES.has(c.take as string));
}

/** The fields for `validation_rules.criterion` as stored. */
export function draftOf(rules: Record<string, unknown> | null | undefined): CriterionDraft {
  const c = rules?.criterion;
  if (c === undefined || c === null) return EMPTY_CRITERION;
  if (!editable(c)) return { ...EMPTY_CRITERION, on: true, fixed: c as CriterionSpec };
  const codes = c.codes ?? [];
  const system = codes[0]?.slice(0, codes[0].indexOf('|')) ?? typeInfo(c.resource_type).systems[0] ?? '';
  return {
    on: true,
    resourceType: c.resource_type,
    system,
    codes: codes.map((t) => (t.startsWith(`${system}|`) ? t.slice(system.length + 1) : t)).join(', '),
    valueSets: [...(c.value_sets ?? [])],
    statuses: c.statuses ? [...c.statuses] : null,
    take: c.take as EditableTake,
    anchor: c.window?.anchor ?? '',
    days: c.window?.days !== undefined ? String(c.window.days) : '',
    yearsBefore: c.window?.years_before !== undefined ? String(c.window.years_before) : '',
    relation: c.window?.relation ?? '',
    at: c.window?.at ?? '',
    operator: c.where?.operator ?? '',
    value: c.where ? String(c.where.value) : '',
    unit: c.unit ?? '',
    base: c,
    fixed: null,
  };
}

export const codesOf = (text: string) => text.split(/[\s,;]+/).filter(Boolean);
const numberOf = (text: string) => (/^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : NaN);
/** `system|code` tokens of the codes field: a plain code is in the chosen system. */
export const tokensOf = (d: Pick<CriterionDraft, 'codes' | 'system'>) =>
  codesOf(d.codes).map((code) => (code.includes('|') ? code : `${d.system}|${code}`));

/** The fields for another kind of record: what does not apply to it is dropped, the codes and window kept. */
export function withResourceType(d: CriterionDraft, type: CriterionResourceType, dataType: string): CriterionDraft {
  if (type === d.resourceType) return d;
  const systems = typeInfo(type).systems;
  const takes = offeredTakes(type, dataType);
  const observation = type === 'Observation';
  const system = systems.includes(d.system) ? d.system : (systems[0] ?? '');
  // Codes typed in the old system stay in it, written out (LOINC codes are not SNOMED codes of another kind of record).
  const codes = system === d.system ? d.codes : tokensOf(d).join(', ');
  return {
    ...d,
    resourceType: type,
    system,
    codes: type === 'Patient' ? '' : codes,
    valueSets: type === 'Patient' ? [] : d.valueSets,
    statuses: null,
    take: takes.includes(d.take) ? d.take : (takes[0] ?? 'exists'),
    relation: hasSpan(type) ? d.relation : '',
    days: type === 'Patient' ? '' : d.days,
    yearsBefore: type === 'Patient' ? '' : d.yearsBefore,
    anchor: type === 'Patient' && d.anchor === '' ? 'now' : d.anchor,
    at: type === 'Patient' ? d.at : '',
    operator: observation ? d.operator : '',
    value: observation ? d.value : '',
    unit: observation ? d.unit : '',
  };
}

/**
 * The takes offered for a kind of record and the parameter's data type (a yes/no parameter takes
 * whether; a numeric one a value, a count or days). Before a data type is chosen, every take the kind allows.
 */
export function offeredTakes(type: CriterionResourceType, dataType: string): EditableTake[] {
  const fits = dataType ? takesFor(type, dataType) : [...takesFor(type, 'number'), ...takesFor(type, 'boolean')];
  return EDITABLE_TAKES.filter((t) => fits.includes(t));
}

/** Whether a parameter of this data type can be read from the record at all (numbers and yes/no). */
export const readableDataType = (dataType: string) => !dataType || takesFor('Observation', dataType).length > 0;

/** The criterion the fields say, or undefined when the switch is off. */
export function criterionOf(d: CriterionDraft): CriterionSpec | undefined {
  if (!d.on) return undefined;
  if (d.fixed) return d.fixed;
  const sameKind = d.base?.resource_type === d.resourceType;
  const {
    resource_type: _type,
    codes: _codes,
    value_sets: _sets,
    statuses: _statuses,
    take: _take,
    window: _window,
    where: _where,
    unit: baseUnit,
    units_accepted,
    ...rest
  } = sameKind ? d.base! : ({} as Partial<Criterion>);
  const c: Record<string, unknown> = { ...rest, resource_type: d.resourceType };
  if (d.resourceType !== 'Patient') {
    const tokens = tokensOf(d);
    if (tokens.length || !d.valueSets.length) c.codes = tokens;
    if (d.valueSets.length) c.value_sets = [...d.valueSets];
    if (d.statuses) c.statuses = [...d.statuses];
  }
  c.take = d.take;
  const window: Record<string, unknown> = {};
  if (d.anchor === 'period') {
    window.anchor = 'period';
    if (d.yearsBefore.trim()) window.years_before = numberOf(d.yearsBefore);
    if (d.resourceType === 'Patient' && d.at) window.at = d.at;
  } else if (d.days.trim() || d.relation || (d.anchor === 'now' && d.base?.window?.anchor === 'now')) {
    window.anchor = 'now';
    if (d.days.trim()) window.days = numberOf(d.days);
  }
  if (window.anchor && d.relation && hasSpan(d.resourceType)) window.relation = d.relation;
  if (window.anchor) c.window = window;
  if (d.resourceType === 'Observation') {
    if (FILTERED_TAKES.has(d.take) && (d.operator || d.value.trim())) c.where = { operator: d.operator, value: numberOf(d.value) };
    const unit = d.unit.trim();
    if (unit) c.unit = unit;
    // Conversions are into the stored unit (A1C mmol/mol → %): they no longer hold once it changes.
    if (units_accepted && unit && unit === baseUnit) c.units_accepted = units_accepted;
  }
  return c as unknown as CriterionSpec;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function fieldOf(path: string): CriterionField {
  const rest = path.replace(/^(validation_rules\.)?criterion\.?/, '');
  if (rest === '' || rest.startsWith('codes')) return 'codes';
  if (rest.startsWith('value_sets')) return 'valueSets';
  if (rest.startsWith('resource_type')) return 'resourceType';
  if (rest.startsWith('statuses')) return 'statuses';
  if (rest.startsWith('take') || rest.startsWith('any_of')) return 'take';
  if (rest.startsWith('window.days')) return 'days';
  if (rest.startsWith('window')) return 'window';
  if (rest.startsWith('where')) return 'filter';
  if (rest.startsWith('unit')) return 'unit';
  return 'other';
}

/** The engine's own words where they read well to an administrator; a few said in the form's terms. */
function say(field: CriterionField, message: string, d?: CriterionDraft): string {
  if (message === 'needs codes or value_sets')
    return d?.system === LOINC
      ? 'Enter at least one LOINC code, or choose a value set.'
      : 'Enter at least one code, or choose a value set.';
  if (message.startsWith('days_persisting needs'))
    return `“${TAKE_LABELS.days_persisting}” needs the value that persists, for example < 60.`;
  if (field === 'filter' && message.startsWith('must be { operator')) return 'Choose ≥, >, ≤ or < and enter a number.';
  const fit = /^(\w+) answers (a number|yes or no), but the parameter's answer is (a number|yes or no)/.exec(message);
  if (fit && (EDITABLE_TAKES as readonly string[]).includes(fit[1]))
    return `“${takeLabel(fit[1] as EditableTake, d?.resourceType ?? 'Observation')}” answers ${fit[2]}, but this parameter's answer is ${fit[3]}: choose another.`;
  return `${capital(message)}.`;
}

/**
 * Every problem with the fields, by field: the engine's `criterionProblems` and `criterionFitProblems`
 * for the parameter's data type (the API refuses the same) plus LOINC check digits.
 */
export function draftProblems(d: CriterionDraft, dataType = ''): CriterionErrors {
  const c = criterionOf(d);
  if (!c || d.fixed) return {};
  const out: CriterionErrors = {};
  const add = (f: CriterionField, m: string) => (out[f] ??= m);
  for (const token of tokensOf(d)) {
    if (!token.startsWith(`${LOINC}|`)) continue;
    const problem = loincProblem(token.slice(LOINC.length + 1));
    if (problem) add('codes', problem);
  }
  if (d.statuses && !d.statuses.length) add('statuses', 'Choose at least one status, or every record would be left out.');
  if (d.anchor !== 'period' && d.days.trim() && Number.isNaN(numberOf(d.days)))
    add('days', 'Enter a whole number of days, or leave it empty for the whole record.');
  if (d.anchor === 'period' && d.yearsBefore.trim() && Number.isNaN(numberOf(d.yearsBefore)))
    add('window', 'Enter a whole number of years, or leave it empty for the period alone.');
  if (FILTERED_TAKES.has(d.take) && (d.operator || d.value.trim())) {
    if (!d.operator) add('filter', 'Choose ≥, >, ≤ or <, or clear the value.');
    else if (Number.isNaN(numberOf(d.value))) add('filter', 'Enter the value as a number, like 6.5.');
  }
  for (const p of criterionProblems(c)) add(fieldOf(p.field), say(fieldOf(p.field), p.message, d));
  if (dataType) for (const p of criterionFitProblems(c, dataType)) add(fieldOf(p.field), say(fieldOf(p.field), p.message, d));
  return out;
}

/** validation_rules with the criterion put in, or taken out; every other rule as it was. */
export function rulesWith(
  rules: Record<string, unknown> | null | undefined,
  criterion: CriterionSpec | undefined,
): Record<string, unknown> {
  const { criterion: _old, ...rest } = rules ?? {};
  return criterion === undefined ? rest : { ...rest, criterion };
}

const canonical = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canonical)
    : isObject(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical(v[k])]),
        )
      : v;
/** Same JSON, whatever the key order. */
export const sameJson = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/**
 * A 400's problems with the criterion, by field. The API names them in `details[].field`
 * (`validation_rules.criterion.window.days`) or, from the DTO, in the message of the `validation_rules` detail.
 */
export function serverCriterionErrors(error: unknown): CriterionErrors {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return {};
  const out: CriterionErrors = {};
  for (const d of error.details) {
    if (typeof d === 'string' || !d.field.startsWith('validation_rules')) continue;
    if (d.field.startsWith('validation_rules.criterion')) {
      out[fieldOf(d.field)] ??= say(fieldOf(d.field), d.message);
      continue;
    }
    for (const part of d.message.split('; ')) {
      const m = /^(validation_rules\.criterion\S*) (.+)$/.exec(part);
      if (m) out[fieldOf(m[1])] ??= say(fieldOf(m[1]), m[2]);
    }
  }
  return out;
}
