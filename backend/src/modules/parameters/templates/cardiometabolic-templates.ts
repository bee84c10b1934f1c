// Blood pressure and weight (ADA 2026 Sections 8 and 10).
import { band, top, ADA_10_BP, ADA_8, type TemplateSeed } from './template-seed';

export const BLOOD_PRESSURE_SYSTOLIC: TemplateSeed = {
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
};

export const BLOOD_PRESSURE_DIASTOLIC: TemplateSeed = {
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
};

export const BMI: TemplateSeed = {
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
};
