// The parameter templates this product ships, by clinical area under templates/, in the order they are seeded.
import {
  HBA1C,
  FASTING_GLUCOSE,
  OGTT_2H_GLUCOSE,
  RANDOM_GLUCOSE,
  HBA1C_IFCC,
  CLASSIC_HYPERGLYCEMIA_SYMPTOMS,
  HYPERGLYCEMIC_CRISIS,
  DIABETES_DIAGNOSED,
  A1C_IN_LAST_3_YEARS,
  A1C_DIABETES_RANGE_DAYS,
  FPG_DIABETES_RANGE_DAYS,
} from './templates/glycemia-templates';
import { EGFR, MICROALBUMIN, EGFR_BELOW_60_DAYS } from './templates/kidney-templates';
import { BLOOD_PRESSURE_SYSTOLIC, BLOOD_PRESSURE_DIASTOLIC, BMI } from './templates/cardiometabolic-templates';
import {
  SEX_ASSIGNED_AT_BIRTH,
  AGE,
  ASIAN_AMERICAN,
  DIABETES_RISK_FACTOR,
  PREGNANCY_STATUS,
  RECENT_TRANSFUSION,
  HEMOGLOBIN,
} from './templates/patient-templates';
import type { TemplateSeed } from './templates/template-seed';

export type { TemplateRange, TemplateSeed } from './templates/template-seed';

/**
 * The six seed templates of product spec section 3, with their LOINC codes. Units are UCUM codes;
 * `ranges` partition [min, max] with half-open bands at the declared `decimals`, so no value is in
 * two bands and none falls between (test/api/parameters.e2e-spec.ts checks it).
 */
const SPEC_TEMPLATES: readonly TemplateSeed[] = [
  HBA1C,
  FASTING_GLUCOSE,
  BLOOD_PRESSURE_SYSTOLIC,
  BLOOD_PRESSURE_DIASTOLIC,
  BMI,
  MICROALBUMIN,
];

/** Issue 20: the parameters the ADA 2026 content pack reads besides the six above. */
const ISSUE_20_TEMPLATES: readonly TemplateSeed[] = [
  OGTT_2H_GLUCOSE,
  RANDOM_GLUCOSE,
  EGFR,
  HBA1C_IFCC,
  HEMOGLOBIN,
  SEX_ASSIGNED_AT_BIRTH,
  PREGNANCY_STATUS,
  RECENT_TRANSFUSION,
  CLASSIC_HYPERGLYCEMIA_SYMPTOMS,
  HYPERGLYCEMIC_CRISIS,
  DIABETES_DIAGNOSED,
  AGE,
  ASIAN_AMERICAN,
  DIABETES_RISK_FACTOR,
  A1C_IN_LAST_3_YEARS,
  A1C_DIABETES_RANGE_DAYS,
  FPG_DIABETES_RANGE_DAYS,
  EGFR_BELOW_60_DAYS,
];

/** What `POST /api/parameters/templates/seed` creates: the spec's six, then the ones the ADA 2026 pack reads. */
export const DIABETES_TEMPLATES: readonly TemplateSeed[] = [...SPEC_TEMPLATES, ...ISSUE_20_TEMPLATES];
