import {
  exclusionRules,
  FINAL_RESULT,
  HOSPICE,
  measured,
  modelOf,
  PALLIATIVE,
  rule,
  VS,
  yesNo,
  type ShippedMeasure,
} from './measure-content';

/** CMS951 (2024 QI-Core): Kidney Health Evaluation, read from KidneyHealthEvaluationFHIR.cql. */
const OUTPATIENT_VISITS = [
  '2.16.840.1.113883.3.526.3.1240',
  '2.16.840.1.113883.3.464.1003.101.12.1016',
  '2.16.840.1.113883.3.464.1003.101.12.1001',
  '2.16.840.1.113883.3.464.1003.101.12.1008',
  '2.16.840.1.113883.3.464.1003.101.12.1025',
  '2.16.840.1.113883.3.464.1003.101.12.1023',
  '2.16.840.1.113883.3.464.1003.101.12.1080',
].map(VS);

const resultInPeriod = (valueSet: string) => ({
  resource_type: 'Observation' as const,
  value_sets: [VS(valueSet)],
  statuses: FINAL_RESULT,
  has_value: true,
  window: { anchor: 'period' as const },
  take: 'exists' as const,
});

const parameters = [
  measured(
    'age_at_period_start',
    'Age at the start of the measurement period',
    'a',
    { resource_type: 'Patient', take: 'age', window: { anchor: 'period', at: 'start' } },
    { min: 0, max: 130 },
  ),
  yesNo('active_diabetes', 'Active diabetes during the measurement period', {
    resource_type: 'Condition',
    value_sets: [VS('2.16.840.1.113883.3.464.1003.103.12.1001')],
    statuses: ['active'],
    window: { anchor: 'period', relation: 'overlaps' },
    take: 'exists',
  }),
  yesNo('outpatient_visit', 'Outpatient visit in the measurement period', {
    resource_type: 'Encounter',
    value_sets: OUTPATIENT_VISITS,
    statuses: ['finished'],
    window: { anchor: 'period' },
    take: 'exists',
  }),
  yesNo('ckd5_or_esrd', 'Active CKD stage 5 or end-stage renal disease during the measurement period', {
    resource_type: 'Condition',
    value_sets: [VS('2.16.840.1.113883.3.526.3.1002'), VS('2.16.840.1.113883.3.526.3.353')],
    statuses: ['active'],
    window: { anchor: 'period', relation: 'overlaps' },
    take: 'exists',
  }),
  HOSPICE,
  PALLIATIVE,
  yesNo('egfr_done', 'eGFR with a result in the measurement period', resultInPeriod('2.16.840.1.113883.3.6929.3.1000')),
  yesNo(
    'uacr_done',
    'Urine albumin-creatinine ratio with a result in the measurement period',
    resultInPeriod('2.16.840.1.113883.3.6929.3.1007'),
  ),
];

const rules = [
  rule('cms951-ip', 'Adults 18–85 with active diabetes and an outpatient visit', 'initial-population', [
    ['age_at_period_start', 'greater_equal', 18],
    ['age_at_period_start', 'less_equal', 85],
    ['active_diabetes', 'equals', true],
    ['outpatient_visit', 'equals', true],
  ]),
  rule('cms951-ckd5', 'CKD stage 5 or end-stage renal disease', 'denominator-exclusion', [['ckd5_or_esrd', 'equals', true]]),
  ...exclusionRules('cms951').filter((r) => r.id === 'cms951-hospice' || r.id === 'cms951-palliative'),
  rule('cms951-num', 'eGFR and urine albumin-creatinine ratio in the measurement period', 'numerator', [
    ['egfr_done', 'equals', true],
    ['uacr_done', 'equals', true],
  ]),
];

export const CMS951: ShippedMeasure = {
  id: 'KidneyHealthEvaluationFHIR',
  identifier: 'CMS951',
  title: 'Kidney Health Evaluation',
  improvement_notation: 'increase',
  source: 'CMS951v2 (2024 QI-Core eCQM)',
  model: modelOf(parameters, rules),
  goal: 'Both an eGFR and a urine albumin-creatinine ratio in the period',
  score_meaning: 'Share of eligible patients with both kidney tests in the period (higher is better)',
  gapReason: (a) => {
    const missing = [a.egfr_done !== true && 'eGFR', a.uacr_done !== true && 'urine albumin-creatinine ratio'].filter(Boolean);
    return `No ${missing.join(' and no ')} with a result in the period`;
  },
  gapAtCare: (a) => {
    // A test the record left unread is not said to be missing: only those found absent are.
    const tests = [a.egfr_done === false && 'eGFR', a.uacr_done === false && 'UACR'].filter((x): x is string => !!x);
    const gap = tests.length === 2 ? 'no kidney health evaluation (eGFR and UACR)' : `kidney health evaluation incomplete: no ${tests[0]}`;
    return { gap, action: `Order ${tests.join(' and ')}` };
  },
};
