import {
  AGE_AT_PERIOD_END,
  ADVANCED_ILLNESS_OR_DEMENTIA_MEDICATION,
  FINAL_RESULT,
  FRAILTY,
  HOSPICE,
  LOINC,
  measured,
  modelOf,
  NURSING_HOME,
  PALLIATIVE,
  PERFORMED_ENCOUNTER,
  QUALIFYING_ENCOUNTER,
  inPeriod,
  rule,
  shown,
  VS,
  yesNo,
  cutPointOf,
  type MeasureWords,
  type ShippedMeasure,
} from './measure-content';

/** CMS165 (2024 QI-Core): Controlling High Blood Pressure, read from ControllingHighBloodPressureFHIR.cql. */
/** Readings taken in an emergency department or during an inpatient, observation or pre-admission stay do not count. */
const NOT_OUTPATIENT = ['EMER', 'IMP', 'ACUTE', 'NONAC', 'PRENC', 'SS'];
const reading = (code: string) => ({
  resource_type: 'Observation' as const,
  codes: [`${LOINC}|${code}`],
  statuses: FINAL_RESULT,
  exclude_encounter_classes: NOT_OUTPATIENT,
  window: { anchor: 'period' as const, relation: 'ends_during' as const },
  take: 'lowest_on_latest_day' as const,
});

const parameters = [
  AGE_AT_PERIOD_END,
  yesNo('essential_hypertension', 'Essential hypertension in the first six months of the measurement period', {
    resource_type: 'Condition',
    value_sets: [VS('2.16.840.1.113883.3.464.1003.104.12.1011')],
    window: { anchor: 'period', first_months: 6, relation: 'overlaps' },
    take: 'exists',
  }),
  QUALIFYING_ENCOUNTER,
  HOSPICE,
  PALLIATIVE,
  FRAILTY,
  ADVANCED_ILLNESS_OR_DEMENTIA_MEDICATION,
  NURSING_HOME,
  yesNo('pregnancy_or_renal', 'Pregnancy, end-stage renal disease, kidney transplant or CKD stage 5 during the measurement period', {
    any_of: [
      inPeriod('Condition', [
        '2.16.840.1.113883.3.526.3.378',
        '2.16.840.1.113883.3.526.3.353',
        '2.16.840.1.113883.3.464.1003.109.12.1029',
        '2.16.840.1.113883.3.526.3.1002',
      ]),
      inPeriod('Procedure', ['2.16.840.1.113883.3.464.1003.109.12.1012', '2.16.840.1.113883.3.464.1003.109.12.1013'], 'ends_by_end', {
        statuses: ['completed'],
      }),
      inPeriod('Encounter', ['2.16.840.1.113883.3.464.1003.109.12.1014'], 'starts_by_end', { statuses: PERFORMED_ENCOUNTER }),
    ],
  }),
  // CQL's "lowest systolic < 140" is false, not unknown, when there is no reading: the numerator needs one.
  yesNo('systolic_recorded', 'Systolic blood pressure recorded in the measurement period', { ...reading('8480-6'), take: 'exists' }),
  yesNo('diastolic_recorded', 'Diastolic blood pressure recorded in the measurement period', { ...reading('8462-4'), take: 'exists' }),
  measured('systolic_lowest', 'Most recent systolic BP (lowest that day)', 'mm[Hg]', reading('8480-6'), { min: 0, max: 400 }),
  measured('diastolic_lowest', 'Most recent diastolic BP (lowest that day)', 'mm[Hg]', reading('8462-4'), { min: 0, max: 300 }),
];

const rules = [
  rule('cms165-ip', 'Adults 18–85 with essential hypertension and a qualifying encounter', 'initial-population', [
    ['age_at_period_end', 'greater_equal', 18],
    ['age_at_period_end', 'less_equal', 85],
    ['essential_hypertension', 'equals', true],
    ['qualifying_encounter', 'equals', true],
  ]),
  rule('cms165-hospice', 'Hospice services', 'denominator-exclusion', [['hospice', 'equals', true]]),
  rule('cms165-renal', 'Pregnancy or end-stage renal disease', 'denominator-exclusion', [['pregnancy_or_renal', 'equals', true]]),
  rule('cms165-frail-66-80', 'Age 66–80 with advanced illness and frailty', 'denominator-exclusion', [
    ['age_at_period_end', 'greater_equal', 66],
    ['age_at_period_end', 'less_equal', 80],
    ['frailty', 'equals', true],
    ['advanced_illness_or_dementia_medication', 'equals', true],
  ]),
  rule('cms165-frail-81', 'Age 81 or older with frailty', 'denominator-exclusion', [
    ['age_at_period_end', 'greater_equal', 81],
    ['frailty', 'equals', true],
  ]),
  rule('cms165-nursing-home', 'Age 66 or older living long term in a nursing home', 'denominator-exclusion', [
    ['age_at_period_end', 'greater_equal', 66],
    ['lives_in_nursing_home', 'equals', true],
  ]),
  rule('cms165-palliative', 'Palliative care', 'denominator-exclusion', [['palliative_care', 'equals', true]]),
  rule('cms165-num', 'Most recent blood pressure below 140/90 mmHg', 'numerator', [
    ['systolic_recorded', 'equals', true],
    ['diastolic_recorded', 'equals', true],
    ['systolic_lowest', 'less_than', 140],
    ['diastolic_lowest', 'less_than', 90],
  ]),
];

/** The words that state CMS165's numerator cut-points (below 140/90 mmHg as shipped). */
function words(systolic: number | null, diastolic: number | null): MeasureWords {
  const goal = systolic !== null && diastolic !== null ? `below ${systolic}/${diastolic} mmHg` : 'in the numerator';
  return {
    title: 'Controlling High Blood Pressure',
    goal: `Most recent blood pressure in the period ${goal}`,
    score_meaning: `Share of eligible patients whose most recent blood pressure is ${goal} (higher is better)`,
    gapReason: (a) =>
      a.systolic_recorded === false || a.diastolic_recorded === false
        ? 'No blood pressure reading in the period'
        : `Most recent blood pressure ${shown(a.systolic_lowest, '').trim()}/${shown(a.diastolic_lowest, 'mmHg')} (goal ${goal.replace(' mmHg', '')})`,
    gapAtCare: (a) =>
      a.systolic_recorded === false || a.diastolic_recorded === false
        ? { gap: 'no blood pressure reading', action: 'Measure blood pressure' }
        : {
            gap: `blood pressure not controlled (most recent ${shown(a.systolic_lowest, '').trim()}/${shown(a.diastolic_lowest, 'mmHg')})`,
            action: 'Intensify antihypertensive therapy; recheck blood pressure',
          },
  };
}

export const CMS165: ShippedMeasure = {
  id: 'ControllingHighBloodPressureFHIR',
  identifier: 'CMS165',
  improvement_notation: 'increase',
  source: 'CMS165v12 (2024 QI-Core eCQM)',
  model: modelOf(parameters, rules),
  ...words(140, 90),
  reworded: (model) =>
    words(
      cutPointOf(model, 'numerator', 'systolic_lowest', ['less_than']),
      cutPointOf(model, 'numerator', 'diastolic_lowest', ['less_than']),
    ),
};
