// Kidney: eGFR, albuminuria and how long a reduced eGFR has lasted (ADA 2026 Section 11, KDIGO).
import { UACR_MG_MMOL_TO_MG_G } from '@cds/engine';
import { band, top, ADA_11, KDIGO, LOINC, EGFR_2021, EGFR_OLD, type TemplateSeed } from './template-seed';

export const EGFR: TemplateSeed = {
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
};

export const MICROALBUMIN: TemplateSeed = {
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
};

export const EGFR_BELOW_60_DAYS: TemplateSeed = {
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
};
