// Glycemia: A1C, plasma glucose, the diagnosis of diabetes and the history of its tests (ADA 2026 Sections 2 and 6).
import { GLUCOSE_MMOL_L_TO_MG_DL, HBA1C_MMOL_MOL_TO_PERCENT, HBA1C_PERCENT_TO_MMOL_MOL } from '@cds/engine';
import {
  band,
  top,
  ADA_2,
  ADA_10_BP,
  ADA_2_SCREEN,
  ADA_6,
  LOINC,
  A1C_PERCENT,
  A1C_HPLC,
  A1C_IFCC,
  FPG_MASS,
  FPG_MOLES,
  OGTT_2H,
  DIABETES_VALUE_SET,
  type TemplateSeed,
} from './template-seed';

export const HBA1C: TemplateSeed = {
  name: 'hba1c',
  display_name: 'HbA1c',
  description: 'Glycated haemoglobin: average blood glucose over the last 2 to 3 months.',
  data_type: 'lab_range',
  category: 'labs',
  units: '%',
  is_required: true,
  template_name: 'diabetes_hba1c',
  loinc_code: '4548-4',
  validation_rules: {
    min: 3,
    max: 20,
    decimals: 1,
    // IFCC units: % = mmol/mol × 0.09148 + 2.152 (NGSP/IFCC master equation), through the cut-points
    // ADA publishes in both units (39 / 48 / 53 / 64 / 75 mmol/mol = 5.7 / 6.5 / 7 / 8 / 9 %), so 48 mmol/mol is diabetes.
    units_accepted: [HBA1C_MMOL_MOL_TO_PERCENT],
    source: ADA_2,
    ranges: [band('normal', 'Normal', 3, 5.7), band('prediabetes', 'Prediabetes', 5.7, 6.5), top('diabetes', 'Diabetes', 6.5, 20)],
    time_constraint: 'last_3_months',
    age_adjustments: {
      elderly: { min_age: 65, target_max: 7.5 },
      adult: { min_age: 18, target_max: 7 },
    },
  },
};

export const FASTING_GLUCOSE: TemplateSeed = {
  name: 'fasting_glucose',
  display_name: 'Fasting Glucose',
  description: 'Plasma glucose after at least 8 hours without food.',
  data_type: 'lab_range',
  category: 'labs',
  units: 'mg/dL',
  is_required: true,
  template_name: 'diabetes_fasting_glucose',
  loinc_code: '1558-6',
  validation_rules: {
    min: 20,
    max: 800,
    decimals: 0,
    // mmol/L × 18, through ADA's published pairs: hypoglycaemia levels 2 and 1 (3.0 / 3.9 mmol/L = 54 / 70
    // mg/dL, Section 6) and the fasting cut-points (5.6 / 7.0 mmol/L = 100 / 126 mg/dL, Section 2).
    units_accepted: [GLUCOSE_MMOL_L_TO_MG_DL],
    source: ADA_2,
    ranges: [
      band('hypoglycemia', 'Below 70 (hypoglycaemia)', 20, 70),
      band('normal', 'Normal', 70, 100),
      band('prediabetes', 'Prediabetes (impaired fasting glucose)', 100, 126),
      top('diabetes', 'Diabetes', 126, 800),
    ],
    time_constraint: 'fasting_8_hours',
  },
};

export const OGTT_2H_GLUCOSE: TemplateSeed = {
  name: 'ogtt_2h_glucose',
  display_name: '2-h OGTT Glucose',
  description: 'Plasma glucose 2 hours after a 75 g oral glucose load (oral glucose tolerance test).',
  data_type: 'lab_range',
  category: 'labs',
  units: 'mg/dL',
  is_required: false,
  template_name: 'diabetes_ogtt_2h_glucose',
  loinc_code: '20438-8',
  validation_rules: {
    min: 20,
    max: 1000,
    decimals: 0,
    // ADA publishes 7.8 and 11.1 mmol/L as the same cut-points as 140 and 200 mg/dL.
    units_accepted: [
      {
        code: 'mmol/L',
        factor: 18,
        decimals: 1,
        equivalents: [
          [7.8, 140],
          [11.1, 200],
        ],
      },
    ],
    source: ADA_2,
    ranges: [
      band('normal', 'Normal', 20, 140),
      band('prediabetes', 'Prediabetes (impaired glucose tolerance)', 140, 200),
      top('diabetes', 'Diabetes', 200, 1000),
    ],
  },
};

export const RANDOM_GLUCOSE: TemplateSeed = {
  name: 'random_glucose',
  display_name: 'Random Plasma Glucose',
  description: 'Plasma glucose at any time of day, whatever the time since the last meal.',
  data_type: 'lab_range',
  category: 'labs',
  units: 'mg/dL',
  is_required: false,
  template_name: 'diabetes_random_glucose',
  loinc_code: '2345-7',
  validation_rules: {
    min: 10,
    max: 2000,
    decimals: 0,
    // ADA §6 publishes the hypoglycaemia levels in both units (3.0 mmol/L = 54, 3.9 mmol/L = 70 mg/dL), §2 the diagnostic 11.1 = 200.
    units_accepted: [
      {
        code: 'mmol/L',
        factor: 18,
        decimals: 1,
        equivalents: [
          [3.0, 54],
          [3.9, 70],
          [11.1, 200],
        ],
      },
    ],
    source: `${ADA_2}; ${ADA_6}`,
    ranges: [
      band('hypoglycemia_level_2', 'Hypoglycemia level 2 (< 54)', 10, 54),
      band('hypoglycemia_level_1', 'Hypoglycemia level 1 (54 to < 70)', 54, 70),
      band('below_diagnostic', 'Below the diagnostic cut-point', 70, 200),
      top('diabetes_with_symptoms', 'Diabetes if classic symptoms or crisis (≥ 200)', 200, 2000),
    ],
  },
};

export const HBA1C_IFCC: TemplateSeed = {
  name: 'hba1c_ifcc',
  display_name: 'HbA1c (IFCC)',
  description: 'Glycated haemoglobin in IFCC units (mmol/mol).',
  data_type: 'lab_range',
  category: 'labs',
  units: 'mmol/mol',
  is_required: false,
  template_name: 'diabetes_hba1c_ifcc',
  loinc_code: '59261-8',
  validation_rules: {
    min: 9,
    max: 195,
    decimals: 0,
    // mmol/mol = (% − 2.152) / 0.09148, through ADA's pairs (5.7 / 6.5 / 7 / 8 / 9 % = 39 / 48 / 53 / 64 / 75).
    units_accepted: [{ ...HBA1C_PERCENT_TO_MMOL_MOL, decimals: 1 }],
    source: ADA_2,
    ranges: [band('normal', 'Normal', 9, 39), band('prediabetes', 'Prediabetes', 39, 48), top('diabetes', 'Diabetes', 48, 195)],
  },
};

export const CLASSIC_HYPERGLYCEMIA_SYMPTOMS: TemplateSeed = {
  name: 'classic_hyperglycemia_symptoms',
  question_override: 'Does the patient have classic symptoms of hyperglycaemia (polyuria, polydipsia, unexplained weight loss)?',
  display_name: 'Classic symptoms of hyperglycaemia',
  description: 'Polyuria, polydipsia or unexplained weight loss.',
  data_type: 'boolean',
  category: 'symptoms',
  units: null,
  is_required: false,
  template_name: 'diabetes_classic_hyperglycemia_symptoms',
  loinc_code: null,
  validation_rules: { source: ADA_2 },
};

export const HYPERGLYCEMIC_CRISIS: TemplateSeed = {
  name: 'hyperglycemic_crisis',
  question_override: 'Is the patient in a hyperglycaemic crisis (diabetic ketoacidosis or hyperosmolar hyperglycaemic state)?',
  display_name: 'Hyperglycaemic crisis',
  description: 'Diabetic ketoacidosis or hyperosmolar hyperglycaemic state.',
  data_type: 'boolean',
  category: 'symptoms',
  units: null,
  is_required: false,
  template_name: 'diabetes_hyperglycemic_crisis',
  loinc_code: null,
  validation_rules: { source: ADA_2 },
};

export const DIABETES_DIAGNOSED: TemplateSeed = {
  name: 'diabetes_diagnosed',
  question_override: 'Has the patient already been diagnosed with diabetes?',
  display_name: 'Diagnosed diabetes',
  description: 'Diabetes already diagnosed (blood pressure goals and screening depend on it).',
  data_type: 'boolean',
  category: 'history',
  units: null,
  is_required: false,
  template_name: 'diabetes_diagnosed',
  loinc_code: null,
  validation_rules: {
    source: ADA_10_BP,
    // From the record: an active diabetes diagnosis (SNOMED CT or ICD-10-CM) on the problem list or an encounter.
    criterion: {
      resource_type: 'Condition',
      value_sets: [DIABETES_VALUE_SET],
      statuses: ['active', 'recurrence', 'relapse'],
      window: { anchor: 'now', relation: 'overlaps' },
      take: 'exists',
    },
  },
};

export const A1C_IN_LAST_3_YEARS: TemplateSeed = {
  name: 'a1c_in_last_3_years',
  question_override: 'Has the patient had an A1C or glucose test in the last 3 years?',
  display_name: 'A1C or glucose test in the last 3 years',
  description: 'A diabetes screening test (A1C, fasting glucose or OGTT) done in the last 3 years.',
  data_type: 'boolean',
  category: 'history',
  units: null,
  is_required: false,
  template_name: 'diabetes_a1c_in_last_3_years',
  loinc_code: null,
  validation_rules: {
    source: ADA_2_SCREEN,
    // From the record: any final A1C, fasting glucose or 2-h OGTT result in the last 3 years.
    criterion: {
      resource_type: 'Observation',
      codes: [A1C_PERCENT, A1C_HPLC, A1C_IFCC, FPG_MASS, FPG_MOLES, OGTT_2H].map((c) => `${LOINC}|${c}`),
      window: { anchor: 'now', days: 1096 },
      take: 'exists',
    },
  },
};

// History inputs: what the record says over time, read by their criterion in a hook call, asked as a count in the form.
export const A1C_DIABETES_RANGE_DAYS: TemplateSeed = {
  name: 'a1c_diabetes_range_days',
  question_override: 'On how many different days in the last 12 months was an A1C ≥ 6.5 % (48 mmol/mol), counting the current result?',
  display_name: 'Days with A1C ≥ 6.5 % (12 months)',
  description:
    'Different days in the last 12 months with an A1C in the diabetes range: two confirm diabetes (ADA 2026, Table 2.1: two abnormal results in separate samples).',
  data_type: 'number',
  category: 'history',
  units: null,
  is_required: false,
  template_name: 'diabetes_a1c_diabetes_range_days',
  loinc_code: null,
  validation_rules: {
    min: 0,
    max: 366,
    decimals: 0,
    source: ADA_2,
    ranges: [band('none', 'None', 0, 1), band('one_day', 'One day', 1, 2), top('two_days_or_more', 'Two days or more', 2, 366)],
    criterion: {
      resource_type: 'Observation',
      codes: [A1C_PERCENT, A1C_HPLC, A1C_IFCC].map((c) => `${LOINC}|${c}`),
      window: { anchor: 'now', days: 365 },
      take: 'distinct_days',
      where: { operator: '>=', value: 6.5 },
      unit: '%',
      units_accepted: [HBA1C_MMOL_MOL_TO_PERCENT],
    },
  },
};

export const FPG_DIABETES_RANGE_DAYS: TemplateSeed = {
  name: 'fpg_diabetes_range_days',
  question_override:
    'On how many different days in the last 12 months was a fasting plasma glucose ≥ 126 mg/dL (7.0 mmol/L), counting the current result?',
  display_name: 'Days with fasting glucose ≥ 126 mg/dL (12 months)',
  description:
    'Different days in the last 12 months with a fasting plasma glucose in the diabetes range: two confirm diabetes (ADA 2026, Table 2.1).',
  data_type: 'number',
  category: 'history',
  units: null,
  is_required: false,
  template_name: 'diabetes_fpg_diabetes_range_days',
  loinc_code: null,
  validation_rules: {
    min: 0,
    max: 366,
    decimals: 0,
    source: ADA_2,
    ranges: [band('none', 'None', 0, 1), band('one_day', 'One day', 1, 2), top('two_days_or_more', 'Two days or more', 2, 366)],
    criterion: {
      resource_type: 'Observation',
      codes: [FPG_MASS, FPG_MOLES].map((c) => `${LOINC}|${c}`),
      window: { anchor: 'now', days: 365 },
      take: 'distinct_days',
      where: { operator: '>=', value: 126 },
      unit: 'mg/dL',
      units_accepted: [GLUCOSE_MMOL_L_TO_MG_DL],
    },
  },
};
