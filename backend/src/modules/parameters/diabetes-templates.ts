import type { ParameterCategory, ParameterDataType } from './parameter.entity';

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

/** The six seed templates of product spec section 3, with their LOINC codes. */
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
      normal_range: { min: 4, max: 5.6 },
      prediabetes_range: { min: 5.7, max: 6.4 },
      diabetes_range: { min: 6.5, max: 15 },
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
      normal_range: { min: 70, max: 99 },
      prediabetes_range: { min: 100, max: 125 },
      diabetes_range: { min: 126, max: 400 },
      time_constraint: 'fasting_8_hours',
      unit_conversion: { from: 'mmol/L', to: 'mg/dL', factor: 18 },
    },
  },
  {
    name: 'blood_pressure_systolic',
    display_name: 'Systolic Blood Pressure',
    description: 'Systolic blood pressure.',
    data_type: 'vitals',
    category: 'vitals',
    units: 'mmHg',
    is_required: true,
    template_name: 'diabetes_blood_pressure_systolic',
    loinc_code: '8480-6',
    validation_rules: {
      target_range: { min: 90, max: 130 },
      stage_1_hypertension_range: { min: 130, max: 139 },
      stage_2_hypertension_range: { min: 140, max: 180 },
      crisis_range: { min: 180, max: 250 },
      diabetes_target: { max: 130 },
    },
  },
  {
    name: 'blood_pressure_diastolic',
    display_name: 'Diastolic Blood Pressure',
    description: 'Diastolic blood pressure.',
    data_type: 'vitals',
    category: 'vitals',
    units: 'mmHg',
    is_required: true,
    template_name: 'diabetes_blood_pressure_diastolic',
    loinc_code: '8462-4',
    validation_rules: {
      target_range: { min: 60, max: 80 },
      stage_1_hypertension_range: { min: 80, max: 89 },
      stage_2_hypertension_range: { min: 90, max: 120 },
      crisis_range: { min: 120, max: 140 },
      diabetes_target: { max: 80 },
    },
  },
  {
    name: 'bmi',
    display_name: 'BMI',
    description: 'Body mass index: weight in kilograms divided by the square of height in metres.',
    data_type: 'calculated',
    category: 'vitals',
    units: 'kg/m²',
    is_required: false,
    template_name: 'diabetes_bmi',
    loinc_code: '39156-5',
    validation_rules: {
      underweight_range: { max: 18.5 },
      normal_range: { min: 18.5, max: 24.9 },
      overweight_range: { min: 25, max: 29.9 },
      obese_range: { min: 30, max: 50 },
      formula: 'weight_kg / (height_m * height_m)',
    },
  },
  {
    name: 'microalbumin',
    display_name: 'Microalbumin',
    description: 'Urine albumin-to-creatinine ratio, screened yearly.',
    data_type: 'lab_range',
    category: 'labs',
    units: 'mg/g creatinine',
    is_required: false,
    template_name: 'diabetes_microalbumin',
    loinc_code: '9318-7',
    validation_rules: {
      normal_range: { max: 30 },
      microalbuminuria_range: { min: 30, max: 300 },
      macroalbuminuria_range: { min: 300, max: 5000 },
      time_constraint: 'annual_screening',
      gender_adjustments: true,
    },
  },
];
