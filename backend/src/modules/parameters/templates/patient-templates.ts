// The patient: demographics, screening risk, and the conditions that make an A1C unreliable (ADA 2026 Section 2).
import { band, top, ADA_2_A1C, ADA_2_SCREEN, WHO_HB, ADA_8, type TemplateSeed } from './template-seed';

export const SEX_ASSIGNED_AT_BIRTH: TemplateSeed = {
  name: 'sex_assigned_at_birth',
  question_override: "What was the patient's sex assigned at birth?",
  display_name: 'Sex assigned at birth',
  description: 'Used for sex-specific cut-points (haemoglobin).',
  data_type: 'select',
  category: 'demographics',
  units: null,
  is_required: false,
  template_name: 'diabetes_sex_assigned_at_birth',
  loinc_code: '76689-9',
  validation_rules: {
    options: [
      { label: 'Female', value: 'female' },
      { label: 'Male', value: 'male' },
    ],
    source: WHO_HB,
  },
};

export const AGE: TemplateSeed = {
  name: 'age',
  display_name: 'Age',
  description: 'Age in whole years.',
  data_type: 'number',
  category: 'demographics',
  units: 'a',
  is_required: false,
  template_name: 'diabetes_age',
  loinc_code: '30525-0',
  validation_rules: {
    min: 0,
    max: 120,
    decimals: 0,
    source: ADA_2_SCREEN,
    ranges: [band('under_35', 'Under 35', 0, 35), top('screen_by_age', '35 and over (screen by age)', 35, 120)],
  },
};

export const ASIAN_AMERICAN: TemplateSeed = {
  name: 'asian_american',
  question_override: 'Is the patient of Asian American ancestry?',
  display_name: 'Asian American ancestry',
  description: 'Lower BMI cut-points apply for screening and weight categories.',
  data_type: 'boolean',
  category: 'demographics',
  units: null,
  is_required: false,
  template_name: 'diabetes_asian_american',
  loinc_code: null,
  validation_rules: { source: ADA_8 },
};

export const DIABETES_RISK_FACTOR: TemplateSeed = {
  name: 'diabetes_risk_factor',
  question_override:
    'Does the patient have another diabetes risk factor (family history, high-risk ethnicity, CVD, hypertension, dyslipidaemia, PCOS, inactivity)?',
  display_name: 'Diabetes risk factor',
  description:
    'At least one: first-degree relative with diabetes, high-risk race or ethnicity, cardiovascular disease, hypertension, HDL < 35 mg/dL or triglycerides > 250 mg/dL, polycystic ovary syndrome, physical inactivity, or another condition associated with insulin resistance.',
  data_type: 'boolean',
  category: 'history',
  units: null,
  is_required: false,
  template_name: 'diabetes_risk_factor',
  loinc_code: null,
  validation_rules: { source: ADA_2_SCREEN },
};

export const PREGNANCY_STATUS: TemplateSeed = {
  name: 'pregnancy_status',
  question_override: 'Is the patient currently pregnant?',
  display_name: 'Pregnant',
  description: 'Currently pregnant (A1C is not reliable for diagnosis in pregnancy).',
  data_type: 'boolean',
  category: 'history',
  units: null,
  is_required: false,
  template_name: 'diabetes_pregnancy_status',
  loinc_code: '82810-3',
  validation_rules: { source: ADA_2_A1C },
};

export const RECENT_TRANSFUSION: TemplateSeed = {
  name: 'recent_transfusion',
  question_override: 'Has the patient had a blood transfusion or significant blood loss in the last 3 months?',
  display_name: 'Transfusion or blood loss in the last 3 months',
  description: 'Red cell turnover changes make A1C unreliable.',
  data_type: 'boolean',
  category: 'history',
  units: null,
  is_required: false,
  template_name: 'diabetes_recent_transfusion',
  loinc_code: null,
  validation_rules: { source: ADA_2_A1C },
};

export const HEMOGLOBIN: TemplateSeed = {
  name: 'hemoglobin',
  display_name: 'Hemoglobin',
  description: 'Blood haemoglobin concentration.',
  data_type: 'lab_range',
  category: 'labs',
  units: 'g/dL',
  is_required: false,
  template_name: 'diabetes_hemoglobin',
  loinc_code: '718-7',
  validation_rules: {
    min: 2,
    max: 25,
    decimals: 1,
    units_accepted: [
      { code: 'g/L', factor: 0.1, decimals: 0 },
      { code: 'mmol/L', factor: 1.6114, decimals: 1 },
    ],
    source: `${ADA_2_A1C}; ${WHO_HB}`,
    ranges: [
      band('anaemia', 'Anaemia (< 12)', 2, 12),
      band('anaemia_in_men', 'Anaemia in men (12 to < 13)', 12, 13),
      top('normal', 'Not anaemic', 13, 25),
    ],
  },
};
