import type { ParameterCategory, ParameterDataType } from '@cds/contracts';
import { GLUCOSE_MMOL_L_TO_MG_DL, HBA1C_MMOL_MOL_TO_PERCENT, HBA1C_PERCENT_TO_MMOL_MOL, UACR_MG_MMOL_TO_MG_G } from '@cds/engine';

export interface TemplateSeed {
  name: string;
  display_name: string;
  description: string;
  data_type: ParameterDataType;
  category: ParameterCategory;
  units: string | null;
  is_required: boolean;
  template_name: string;
  /** Null when LOINC has no code for it (a clinical finding, not an observation); matched by name then. */
  loinc_code: string | null;
  validation_rules: Record<string, unknown>;
  /** The question as the clinician reads it, where "What is your <display name>?" would not read (yes/no findings). */
  question_override?: string;
}

/** One band of a template's classification: half-open, so a value on a cut-point falls in exactly one band. */
export interface TemplateRange {
  name: string;
  label: string;
  min: number;
  max: number;
  min_inclusive: boolean;
  max_inclusive: boolean;
}

/** [min, max): the usual form of a clinical band ("5.7 to < 6.5"). */
const band = (name: string, label: string, min: number, max: number): TemplateRange => ({
  name,
  label,
  min,
  max,
  min_inclusive: true,
  max_inclusive: false,
});
/** [min, max]: the top band closes at the plausible maximum. */
const top = (name: string, label: string, min: number, max: number): TemplateRange => ({
  ...band(name, label, min, max),
  max_inclusive: true,
});

const ADA_2 = 'ADA Standards of Care in Diabetes—2026, Section 2 (Diagnosis and Classification of Diabetes)';
const ADA_10_BP =
  'ADA Standards of Care in Diabetes—2026, Section 10 (Cardiovascular Disease and Risk Management); ACC/AHA High Blood Pressure Guideline';
const ADA_11 =
  'ADA Standards of Care in Diabetes—2026, Section 11 (Chronic Kidney Disease and Risk Management); KDIGO albuminuria categories';
const ADA_2_A1C =
  'ADA Standards of Care in Diabetes—2026, Section 2 (Diagnosis and Classification of Diabetes): conditions in which A1C may be unreliable';
const ADA_2_SCREEN = 'ADA Standards of Care in Diabetes—2026, Section 2 (Screening for Prediabetes and Type 2 Diabetes in Adults)';
const ADA_6 = 'ADA Standards of Care in Diabetes—2026, Section 6 (Glycemic Goals and Hypoglycemia): hypoglycemia levels 1 and 2';
const KDIGO =
  'ADA Standards of Care in Diabetes—2026, Section 11 (Chronic Kidney Disease and Risk Management); KDIGO 2024 Clinical Practice Guideline for CKD (GFR categories, CKD-EPI 2021)';
const WHO_HB = 'WHO haemoglobin cut-offs for anaemia (2024): < 12 g/dL in non-pregnant women, < 13 g/dL in men';
const ADA_8 =
  'ADA Standards of Care in Diabetes—2026, Section 8 (Obesity and Weight Management); WHO Asian BMI cut-points (23 / 27.5 kg/m²), used by ADA Section 2 for screening Asian Americans';

const LOINC = 'http://loinc.org';
// LOINC codes the history inputs read: A1C as NGSP % (4548-4, 17856-6 by HPLC) and IFCC mmol/mol (59261-8);
// fasting glucose in mass (1558-6) and molar (14771-0) units; 2-h OGTT (20438-8); eGFR CKD-EPI 2021 (98979-8) and unspecified (62238-1).
const A1C_PERCENT = '4548-4';
const A1C_HPLC = '17856-6';
const A1C_IFCC = '59261-8';
const FPG_MASS = '1558-6';
const FPG_MOLES = '14771-0';
const OGTT_2H = '20438-8';
const EGFR_2021 = '98979-8';
const EGFR_OLD = '62238-1';
/** VSAC "Diabetes" (the eCQM value set CMS122 uses; the expansion ships in backend/content/ecqm-valuesets). */
const DIABETES_VALUE_SET = 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.103.12.1001';
/** Issue 20: the parameters the ADA 2026 content pack reads besides the six above. */
const ISSUE_20_TEMPLATES: readonly TemplateSeed[] = [
  {
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
  },
  {
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
  },
  {
    name: 'egfr',
    display_name: 'eGFR (CKD-EPI 2021)',
    description: 'Estimated glomerular filtration rate from creatinine, CKD-EPI 2021 equation (race-free).',
    data_type: 'lab_range',
    category: 'labs',
    units: 'mL/min/{1.73_m2}',
    is_required: false,
    template_name: 'diabetes_egfr',
    loinc_code: '98979-8',
    validation_rules: {
      min: 0,
      max: 200,
      decimals: 0,
      source: KDIGO,
      ranges: [
        band('g5', 'G5 kidney failure (< 15)', 0, 15),
        band('g4', 'G4 severely decreased (15–29)', 15, 30),
        band('g3b', 'G3b moderately to severely decreased (30–44)', 30, 45),
        band('g3a', 'G3a mildly to moderately decreased (45–59)', 45, 60),
        band('g2', 'G2 mildly decreased (60–89)', 60, 90),
        top('g1', 'G1 normal or high (≥ 90)', 90, 200),
      ],
    },
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  // History inputs: what the record says over time, read by their criterion in a hook call, asked as a count in the form.
  {
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
  },
  {
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
  },
  {
    name: 'egfr_below_60_days',
    question_override:
      'For how many days has the eGFR stayed below 60 mL/min/1.73 m² (from the first reduced result of the current run to the latest, with no normal result between)?',
    display_name: 'Days eGFR has stayed < 60',
    description:
      'How long a reduced eGFR has persisted: CKD needs it for more than 90 days (KDIGO 2024). A first reduced value has persisted 0 days.',
    data_type: 'number',
    category: 'history',
    units: null,
    is_required: false,
    template_name: 'diabetes_egfr_below_60_days',
    loinc_code: null,
    validation_rules: {
      min: 0,
      max: 3660,
      decimals: 0,
      source: KDIGO,
      ranges: [band('not_yet_persisting', '90 days or fewer', 0, 91), top('persisting', 'More than 90 days', 91, 3660)],
      criterion: {
        resource_type: 'Observation',
        codes: [EGFR_2021, EGFR_OLD].map((c) => `${LOINC}|${c}`),
        window: { anchor: 'now', days: 730 },
        take: 'days_persisting',
        where: { operator: '<', value: 60 },
        unit: 'mL/min/{1.73_m2}',
      },
    },
  },
];

/**
 * The six seed templates of product spec section 3, with their LOINC codes. Units are UCUM codes;
 * `ranges` partition [min, max] with half-open bands at the declared `decimals`, so no value is in
 * two bands and none falls between (test/api/parameters.e2e-spec.ts checks it).
 */
const SPEC_TEMPLATES: readonly TemplateSeed[] = [
  {
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
  },
  {
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
  },
  {
    name: 'blood_pressure_systolic',
    display_name: 'Systolic Blood Pressure',
    description: 'Systolic blood pressure.',
    data_type: 'vitals',
    category: 'vitals',
    units: 'mm[Hg]',
    is_required: true,
    template_name: 'diabetes_blood_pressure_systolic',
    loinc_code: '8480-6',
    validation_rules: {
      min: 50,
      max: 300,
      decimals: 0,
      source: ADA_10_BP,
      ranges: [
        band('target', 'At target (< 130)', 50, 130),
        band('stage_1_hypertension', 'Stage 1 hypertension', 130, 140),
        band('stage_2_hypertension', 'Stage 2 hypertension', 140, 180),
        top('crisis', 'Hypertensive crisis (also stage 2)', 180, 300),
      ],
      diabetes_target: { max: 130, max_inclusive: false },
    },
  },
  {
    name: 'blood_pressure_diastolic',
    display_name: 'Diastolic Blood Pressure',
    description: 'Diastolic blood pressure.',
    data_type: 'vitals',
    category: 'vitals',
    units: 'mm[Hg]',
    is_required: true,
    template_name: 'diabetes_blood_pressure_diastolic',
    loinc_code: '8462-4',
    validation_rules: {
      min: 20,
      max: 200,
      decimals: 0,
      source: ADA_10_BP,
      ranges: [
        band('target', 'At target (< 80)', 20, 80),
        band('stage_1_hypertension', 'Stage 1 hypertension', 80, 90),
        band('stage_2_hypertension', 'Stage 2 hypertension', 90, 120),
        top('crisis', 'Hypertensive crisis (also stage 2)', 120, 200),
      ],
      diabetes_target: { max: 80, max_inclusive: false },
    },
  },
  {
    name: 'bmi',
    display_name: 'BMI',
    description: 'Body mass index: weight in kilograms divided by the square of height in metres.',
    data_type: 'calculated',
    category: 'vitals',
    units: 'kg/m2',
    is_required: false,
    template_name: 'diabetes_bmi',
    loinc_code: '39156-5',
    validation_rules: {
      min: 10,
      max: 80,
      decimals: 1,
      source: ADA_8,
      ranges: [
        band('underweight', 'Underweight', 10, 18.5),
        band('normal', 'Normal weight', 18.5, 25),
        band('overweight', 'Overweight', 25, 30),
        top('obese', 'Obesity', 30, 80),
      ],
      asian_american_ranges: [
        band('underweight', 'Underweight', 10, 18.5),
        band('normal', 'Normal weight', 18.5, 23),
        band('overweight', 'Overweight', 23, 27.5),
        top('obese', 'Obesity', 27.5, 80),
      ],
      formula: 'weight_kg / (height_m * height_m)',
    },
  },
  {
    name: 'microalbumin',
    display_name: 'Microalbumin',
    description: 'Urine albumin-to-creatinine ratio (UACR), screened yearly.',
    data_type: 'lab_range',
    category: 'labs',
    units: 'mg/g',
    is_required: false,
    template_name: 'diabetes_microalbumin',
    loinc_code: '9318-7',
    validation_rules: {
      min: 0,
      max: 5000,
      decimals: 0,
      // mg/mmol creatinine × 8.84 = mg/g creatinine, through the KDIGO categories published in both units
      // (3 / 30 mg/mmol = 30 / 300 mg/g): UACR 3.0 mg/mmol is A2, not 26.5 mg/g.
      units_accepted: [UACR_MG_MMOL_TO_MG_G],
      source: ADA_11,
      ranges: [
        band('normal', 'Normal to mildly increased (A1)', 0, 30),
        band('moderately_increased', 'Moderately increased (A2)', 30, 300),
        top('severely_increased', 'Severely increased (A3)', 300, 5000),
      ],
      time_constraint: 'annual_screening',
    },
  },
];

/** What `POST /api/parameters/templates/seed` creates: the spec's six, then the ones the ADA 2026 pack reads. */
export const DIABETES_TEMPLATES: readonly TemplateSeed[] = [...SPEC_TEMPLATES, ...ISSUE_20_TEMPLATES];
