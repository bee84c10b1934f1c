import { isAnyOf } from '@cds/engine';
import type { MeasureLocalVersionJson } from '@cds/contracts';
import type {
  Answers,
  Criterion,
  CriterionSpec,
  EngineParameter,
  EngineRule,
  MeasureModel,
  PopulationCode,
  WindowRelation,
} from '@cds/engine';

/** Builders for shipped measures: parameters read from the record by criteria, and population rules. */

export const VS = (oid: string) => `http://cts.nlm.nih.gov/fhir/ValueSet/${oid}`;
export const SNOMED = 'http://snomed.info/sct';
export const LOINC = 'http://loinc.org';
const CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
export const LABORATORY = `${CATEGORY}|laboratory`;
export const SURVEY = `${CATEGORY}|survey`;

/** QI-Core's statuses (Status.cql): what "performed", "ordered" and "active" mean for each resource. */
export const PERFORMED_ENCOUNTER = ['finished', 'arrived', 'triaged', 'in-progress', 'onleave'];
export const FINAL_RESULT = ['final', 'amended', 'corrected'];
export const SYMPTOM = ['preliminary', 'final', 'amended', 'corrected'];
export const ORDERED = ['active', 'completed'];

/** A measure as shipped: its FHIR identity and its model (ids are the parameters' and rules' names). */
export interface ShippedMeasure {
  /** The FHIR Measure id: the measure's CQL library name. */
  id: string;
  identifier: string;
  title: string;
  /** `decrease`: a lower score is better (an inverse measure such as CMS122). */
  improvement_notation: 'increase' | 'decrease';
  source: string;
  model: MeasureModel;
  /** The Panel's words for a physician: the goal for one patient, and what the score counts. */
  goal: string;
  score_meaning: string;
  /** Why an eligible patient misses the goal, from the measure's answers for that patient. */
  gapReason(answers: Answers): string;
  /**
   * The gap at the point of care (a CDS Hooks card), in a physician's words from the same answers:
   * `gap` without the year ("no kidney health evaluation (eGFR and UACR)"), and the next step.
   */
  gapAtCare(answers: Answers): { gap: string; action: string };
  /** Set on a published local version only: version 1, the CMS definition as shipped, has none. */
  local?: MeasureLocalVersionJson;
  /**
   * The words above that state a cut-point of the model ("above 9 %"), said again for an edited model, so a local
   * version never words its gaps with the shipped cut-point. Absent: the words name no cut-point.
   */
  reworded?(model: MeasureModel): MeasureWords;
}

/** What a measure says in words, which a local version's model may change. */
export type MeasureWords = Pick<ShippedMeasure, 'title' | 'goal' | 'score_meaning' | 'gapReason' | 'gapAtCare'>;

/**
 * The one number every condition of a population puts on a parameter with one of these operators (CMS122's 9 in
 * "> 9 %"); null when the population has none, or several that differ (the words then name no number).
 */
export function cutPointOf(
  model: MeasureModel,
  population: PopulationCode,
  parameter: string,
  operators: readonly string[],
): number | null {
  const ids = new Set(model.populations[population] ?? []);
  const values = model.rules
    .filter((r) => ids.has(r.id))
    .flatMap((r) => r.conditions)
    .filter((c) => c.parameter === parameter && operators.includes(String(c.operator)))
    .map((c) => c.value);
  return values.length && values.every((v) => typeof v === 'number' && v === values[0]) ? (values[0] as number) : null;
}

/** A measured answer in words with its readable unit: "10.2 %", "152 mmHg", "not read". */
export function shown(value: unknown, unit: string): string {
  if (typeof value === 'number') return `${Number(value.toFixed(1))} ${unit}`;
  if (value && typeof value === 'object' && (value as { type?: unknown }).type === 'range') {
    const { min, max } = value as { min: number | null; max: number | null };
    return min !== null && max !== null ? `${min}–${max} ${unit}` : min !== null ? `≥ ${min} ${unit}` : `≤ ${max} ${unit}`;
  }
  return 'not read';
}

export function yesNo(name: string, display: string, criterion: CriterionSpec): EngineParameter {
  return { id: name, name, display_name: display, data_type: 'boolean', is_active: true, validation_rules: { criterion } };
}

export function measured(
  name: string,
  display: string,
  units: string,
  criterion: Criterion,
  limits: { min: number; max: number },
): EngineParameter {
  return { id: name, name, display_name: display, data_type: 'number', units, is_active: true, validation_rules: { ...limits, criterion } };
}

export const AGE_AT_PERIOD_END = measured(
  'age_at_period_end',
  'Age at the end of the measurement period',
  'a',
  { resource_type: 'Patient', take: 'age', window: { anchor: 'period' } },
  { min: 0, max: 130 },
);

type Clause = [parameter: string, operator: string, value: unknown];

/** A population rule: every clause must hold (AND). */
export function rule(id: string, name: string, population: PopulationCode, clauses: Clause[]): EngineRule & { population: PopulationCode } {
  return {
    id,
    name,
    description: null,
    priority: 0,
    population,
    conditions: clauses.map(([parameter, operator, value]) => ({ type: 'parameter', parameter, operator, value })),
    actions: [],
  };
}

export function modelOf(parameters: EngineParameter[], rules: (EngineRule & { population: PopulationCode })[]): MeasureModel {
  const populations: Partial<Record<PopulationCode, string[]>> = {};
  for (const r of rules) (populations[r.population] ??= []).push(r.id);
  return { parameters, rules: rules.map(({ population: _, ...r }) => r), populations };
}

/**
 * "Exists a resource of these value sets in the measurement period": the shape most measure criteria
 * take. `relation` as CQL writes it (`overlaps day of`, `during`, `ends during`…); `extra` adds statuses,
 * categories, a coded value, intents.
 */
export function inPeriod(
  resource_type: Criterion['resource_type'],
  valueSets: readonly string[],
  relation: WindowRelation = 'overlaps',
  extra: Partial<Criterion> = {},
): Criterion {
  return {
    resource_type,
    ...(valueSets.length ? { value_sets: valueSets.map(VS) } : {}),
    window: { anchor: 'period', relation },
    take: 'exists',
    ...extra,
  };
}

/** AdultOutpatientEncounters."Qualifying Encounters" (CMS122, CMS165): a performed outpatient visit during the period. */
export const QUALIFYING_ENCOUNTER = yesNo(
  'qualifying_encounter',
  'Qualifying outpatient encounter in the measurement period',
  inPeriod(
    'Encounter',
    [
      '2.16.840.1.113883.3.464.1003.101.12.1001',
      '2.16.840.1.113883.3.526.3.1240',
      '2.16.840.1.113883.3.464.1003.101.12.1025',
      '2.16.840.1.113883.3.464.1003.101.12.1023',
      '2.16.840.1.113883.3.464.1003.101.12.1016',
      '2.16.840.1.113883.3.464.1003.101.12.1089',
      '2.16.840.1.113883.3.464.1003.101.12.1080',
    ],
    'during',
    { statuses: PERFORMED_ENCOUNTER },
  ),
);

/** CMS exclusions shared by the diabetes and blood-pressure measures (Hospice, PalliativeCare, AdvancedIllnessandFrailty). */
export const HOSPICE = yesNo('hospice', 'Hospice services in the measurement period', {
  any_of: [
    inPeriod('Encounter', ['2.16.840.1.113883.3.666.5.307'], 'ends_during', {
      statuses: PERFORMED_ENCOUNTER,
      has_code: { element: 'discharge_disposition', codes: [`${SNOMED}|428361000124107`, `${SNOMED}|428371000124100`] },
    }),
    inPeriod('Encounter', ['2.16.840.1.113883.3.464.1003.1003'], 'overlaps', { statuses: PERFORMED_ENCOUNTER }),
    inPeriod('Observation', [], 'overlaps', {
      codes: [`${LOINC}|45755-6`],
      statuses: FINAL_RESULT,
      categories: [SURVEY],
      has_code: { element: 'value', codes: [`${SNOMED}|373066001`] },
    }),
    // Hospice.cql leaves the order's doNotPerform unchecked (CQLIT-447), so this does too.
    inPeriod('ServiceRequest', ['2.16.840.1.113883.3.526.3.1584'], 'during', { statuses: ORDERED, intents: ['order'] }),
    inPeriod('Procedure', ['2.16.840.1.113883.3.526.3.1584'], 'overlaps', { statuses: ['completed'] }),
    inPeriod('Condition', ['2.16.840.1.113883.3.464.1003.1165']),
  ],
});

export const PALLIATIVE = yesNo('palliative_care', 'Palliative care in the measurement period', {
  any_of: [
    inPeriod('Observation', [], 'overlaps', { codes: [`${LOINC}|71007-9`], statuses: FINAL_RESULT, categories: [SURVEY] }),
    inPeriod('Condition', ['2.16.840.1.113883.3.464.1003.1167']),
    inPeriod('Encounter', ['2.16.840.1.113883.3.464.1003.101.12.1090'], 'overlaps', { statuses: PERFORMED_ENCOUNTER }),
    inPeriod('Procedure', ['2.16.840.1.113883.3.464.1003.198.12.1135'], 'overlaps', { statuses: ['completed'] }),
  ],
});

const FRAILTY_DEVICE = '2.16.840.1.113883.3.464.1003.118.12.1300';
export const FRAILTY = yesNo('frailty', 'Frailty in the measurement period', {
  any_of: [
    inPeriod('DeviceRequest', [FRAILTY_DEVICE], 'during', { statuses: ORDERED, intents: ['order'], exclude_do_not_perform: true }),
    inPeriod('Observation', [], 'ends_during', {
      codes: [`${LOINC}|98181-1`],
      statuses: FINAL_RESULT,
      categories: [SURVEY],
      has_code: { element: 'value', value_sets: [VS(FRAILTY_DEVICE)] },
    }),
    inPeriod('Condition', ['2.16.840.1.113883.3.464.1003.113.12.1074']),
    inPeriod('Encounter', ['2.16.840.1.113883.3.464.1003.101.12.1088'], 'overlaps', { statuses: PERFORMED_ENCOUNTER }),
    inPeriod('Observation', ['2.16.840.1.113883.3.464.1003.113.12.1075'], 'overlaps', { statuses: SYMPTOM }),
  ],
});

const YEAR_BEFORE_OR_DURING = { anchor: 'period' as const, years_before: 1 };
export const ADVANCED_ILLNESS_OR_DEMENTIA_MEDICATION = yesNo(
  'advanced_illness_or_dementia_medication',
  'Advanced illness or dementia medication in the period or the year before',
  {
    any_of: [
      inPeriod('Condition', ['2.16.840.1.113883.3.464.1003.110.12.1082'], 'starts_during', {
        window: { ...YEAR_BEFORE_OR_DURING, relation: 'starts_during' },
      }),
      inPeriod('MedicationRequest', ['2.16.840.1.113883.3.464.1003.196.12.1510'], 'overlaps', {
        statuses: ['active'],
        intents: ['order'],
        window: { ...YEAR_BEFORE_OR_DURING, relation: 'overlaps' },
      }),
    ],
  },
);

export const NURSING_HOME = yesNo('lives_in_nursing_home', 'Last housing status: lives in a nursing home', {
  ...inPeriod('Observation', [], 'ends_by_end', {
    codes: [`${LOINC}|71802-3`],
    statuses: FINAL_RESULT,
    categories: [SURVEY],
    has_code: { element: 'value', codes: [`${SNOMED}|160734000`] },
  }),
  take: 'latest_is',
});

/** The CMS exclusions' rules: hospice, palliative care, 66+ in a nursing home, 66+ frail with advanced illness. */
export function exclusionRules(prefix: string, advancedIllnessAge: 'any-66+' = 'any-66+') {
  void advancedIllnessAge;
  return [
    rule(`${prefix}-hospice`, 'Hospice services', 'denominator-exclusion', [['hospice', 'equals', true]]),
    rule(`${prefix}-palliative`, 'Palliative care', 'denominator-exclusion', [['palliative_care', 'equals', true]]),
    rule(`${prefix}-nursing-home`, 'Age 66 or older living long term in a nursing home', 'denominator-exclusion', [
      ['age_at_period_end', 'greater_equal', 66],
      ['lives_in_nursing_home', 'equals', true],
    ]),
    rule(`${prefix}-frailty`, 'Age 66 or older with advanced illness and frailty', 'denominator-exclusion', [
      ['age_at_period_end', 'greater_equal', 66],
      ['frailty', 'equals', true],
      ['advanced_illness_or_dementia_medication', 'equals', true],
    ]),
  ];
}

/** The value set URLs a measure's criteria name. */
export function valueSetsOf(m: ShippedMeasure): string[] {
  const urls = new Set<string>();
  for (const p of m.model.parameters) {
    const spec = (p.validation_rules as { criterion?: CriterionSpec } | undefined)?.criterion;
    if (!spec) continue;
    for (const c of isAnyOf(spec) ? spec.any_of : [spec])
      for (const url of [...(c.value_sets ?? []), ...(c.has_code?.value_sets ?? [])]) urls.add(url);
  }
  return [...urls].sort();
}
