import type { ParameterCategory, ParameterDataType } from '@cds/contracts';

export interface TemplateSeed {
  name: string;
  display_name: string;
  description: string;
  data_type: ParameterDataType;
  category: ParameterCategory;
  units: string;
  is_required: boolean;
  template_name: string;
  loinc_code: string;
  validation_rules: Record<string, unknown>;
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
const ADA_8 =
  'ADA Standards of Care in Diabetes—2026, Section 8 (Obesity and Weight Management); WHO Asian BMI cut-points (23 / 27.5 kg/m²), used by ADA Section 2 for screening Asian Americans';

/**
 * The six seed templates of product spec section 3, with their LOINC codes. Units are UCUM codes;
 * `ranges` partition [min, max] with half-open bands at the declared `decimals`, so no value is in
 * two bands and none falls between (test/api/parameters.e2e-spec.ts checks it).
 */
export const DIABETES_TEMPLATES: readonly TemplateSeed[] = [
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
      // ADA publishes in both units (39 / 48 / 53 mmol/mol = 5.7 / 6.5 / 7.0 %), so 48 mmol/mol is diabetes.
      units_accepted: [
        {
          code: 'mmol/mol',
          factor: 0.09148,
          offset: 2.152,
          equivalents: [
            [39, 5.7],
            [48, 6.5],
            [53, 7.0],
          ],
        },
      ],
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
      units_accepted: [
        {
          code: 'mmol/L',
          factor: 18,
          equivalents: [
            [3.0, 54],
            [3.9, 70],
            [5.6, 100],
            [7.0, 126],
          ],
        },
      ],
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
      units_accepted: [
        {
          code: 'mg/mmol',
          factor: 8.84,
          equivalents: [
            [3, 30],
            [30, 300],
          ],
        },
      ],
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
