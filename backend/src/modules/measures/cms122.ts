import {
  AGE_AT_PERIOD_END,
  ADVANCED_ILLNESS_OR_DEMENTIA_MEDICATION,
  exclusionRules,
  FINAL_RESULT,
  FRAILTY,
  HOSPICE,
  LABORATORY,
  LOINC,
  measured,
  modelOf,
  NURSING_HOME,
  PALLIATIVE,
  QUALIFYING_ENCOUNTER,
  rule,
  shown,
  VS,
  yesNo,
  cutPointOf,
  type MeasureWords,
  type ShippedMeasure,
} from './measure-content';

/**
 * CMS122 (2024 QI-Core): Diabetes: Glycemic Status Assessment Greater Than 9 %. Read from the
 * measure's CQL (DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR and the libraries it
 * includes); an inverse measure: patients in the numerator are the gaps.
 */
const GLYCEMIC_STATUS = {
  resource_type: 'Observation' as const,
  value_sets: [VS('2.16.840.1.113883.3.464.1003.198.12.1013')],
  codes: [`${LOINC}|97506-0`],
  statuses: FINAL_RESULT,
  categories: [LABORATORY],
  window: { anchor: 'period' as const, relation: 'ends_during' as const },
};

const parameters = [
  AGE_AT_PERIOD_END,
  QUALIFYING_ENCOUNTER,
  yesNo('diabetes', 'Diabetes during the measurement period', {
    resource_type: 'Condition',
    value_sets: [VS('2.16.840.1.113883.3.464.1003.103.12.1001')],
    window: { anchor: 'period', relation: 'overlaps' },
    take: 'exists',
  }),
  HOSPICE,
  PALLIATIVE,
  FRAILTY,
  ADVANCED_ILLNESS_OR_DEMENTIA_MEDICATION,
  NURSING_HOME,
  yesNo('glycemic_status_done', 'Glycemic status assessment (HbA1c or GMI) in the measurement period', {
    ...GLYCEMIC_STATUS,
    take: 'exists',
  }),
  measured(
    'glycemic_status_lowest',
    'Most recent HbA1c or GMI (lowest that day)',
    '%',
    { ...GLYCEMIC_STATUS, take: 'lowest_on_latest_day' },
    { min: 0, max: 100 },
  ),
  yesNo('glycemic_status_without_result', 'Most recent HbA1c or GMI recorded without a result', {
    ...GLYCEMIC_STATUS,
    take: 'latest_without_value',
  }),
];

const rules = [
  rule('cms122-ip', 'Adults 18–75 with diabetes and a qualifying encounter', 'initial-population', [
    ['age_at_period_end', 'greater_equal', 18],
    ['age_at_period_end', 'less_equal', 75],
    ['qualifying_encounter', 'equals', true],
    ['diabetes', 'equals', true],
  ]),
  ...exclusionRules('cms122'),
  rule('cms122-num-elevated', 'Most recent HbA1c or GMI > 9 %', 'numerator', [['glycemic_status_lowest', 'greater_than', 9]]),
  rule('cms122-num-no-result', 'Most recent HbA1c or GMI recorded without a result', 'numerator', [
    ['glycemic_status_without_result', 'equals', true],
  ]),
  rule('cms122-num-none', 'No glycemic status assessment in the measurement period', 'numerator', [
    ['glycemic_status_done', 'equals', false],
  ]),
];

/** The words that state CMS122's numerator cut-point (9 % as shipped); `cut` null: a local model with none, or several. */
function words(cut: number | null): MeasureWords {
  const above = cut === null ? 'in the numerator' : `above ${cut} %`;
  return {
    title: `Diabetes: Glycemic Status Assessment Greater Than ${cut ?? 9}%`,
    goal:
      cut === null
        ? 'Most recent HbA1c or GMI in the period outside the numerator'
        : `Most recent HbA1c or GMI in the period at or below ${cut} %`,
    score_meaning: `Share of eligible patients with HbA1c or GMI ${above}, without a result, or not tested (lower is better)`,
    gapReason: (a) =>
      a.glycemic_status_done === false
        ? 'No HbA1c or GMI in the period'
        : a.glycemic_status_without_result === true
          ? 'Most recent HbA1c or GMI recorded without a numeric result'
          : `Most recent HbA1c or GMI ${shown(a.glycemic_status_lowest, '%')} (${above})`,
    gapAtCare: (a) =>
      a.glycemic_status_done === false
        ? { gap: 'no HbA1c or GMI', action: 'Order HbA1c' }
        : a.glycemic_status_without_result === true
          ? { gap: 'most recent HbA1c recorded without a result', action: 'Repeat HbA1c' }
          : { gap: `most recent HbA1c ${shown(a.glycemic_status_lowest, '%')} (${above})`, action: 'Intensify therapy; repeat HbA1c' },
  };
}

export const CMS122: ShippedMeasure = {
  id: 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR',
  identifier: 'CMS122',
  improvement_notation: 'decrease',
  source: 'CMS122v12 (2024 QI-Core eCQM)',
  model: modelOf(parameters, rules),
  ...words(9),
  reworded: (model) => words(cutPointOf(model, 'numerator', 'glycemic_status_lowest', ['greater_than'])),
};
