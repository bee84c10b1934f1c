// What every parameter template is made of: its shape, its bands, and the sources and LOINC codes they cite.
import type { ParameterCategory, ParameterDataType } from '@cds/contracts';

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
export const band = (name: string, label: string, min: number, max: number): TemplateRange => ({
  name,
  label,
  min,
  max,
  min_inclusive: true,
  max_inclusive: false,
});
/** [min, max]: the top band closes at the plausible maximum. */
export const top = (name: string, label: string, min: number, max: number): TemplateRange => ({
  ...band(name, label, min, max),
  max_inclusive: true,
});

export const ADA_2 = 'ADA Standards of Care in Diabetes—2026, Section 2 (Diagnosis and Classification of Diabetes)';
export const ADA_10_BP =
  'ADA Standards of Care in Diabetes—2026, Section 10 (Cardiovascular Disease and Risk Management); ACC/AHA High Blood Pressure Guideline';
export const ADA_11 =
  'ADA Standards of Care in Diabetes—2026, Section 11 (Chronic Kidney Disease and Risk Management); KDIGO albuminuria categories';
export const ADA_2_A1C =
  'ADA Standards of Care in Diabetes—2026, Section 2 (Diagnosis and Classification of Diabetes): conditions in which A1C may be unreliable';
export const ADA_2_SCREEN = 'ADA Standards of Care in Diabetes—2026, Section 2 (Screening for Prediabetes and Type 2 Diabetes in Adults)';
export const ADA_6 = 'ADA Standards of Care in Diabetes—2026, Section 6 (Glycemic Goals and Hypoglycemia): hypoglycemia levels 1 and 2';
export const KDIGO =
  'ADA Standards of Care in Diabetes—2026, Section 11 (Chronic Kidney Disease and Risk Management); KDIGO 2024 Clinical Practice Guideline for CKD (GFR categories, CKD-EPI 2021)';
export const WHO_HB = 'WHO haemoglobin cut-offs for anaemia (2024): < 12 g/dL in non-pregnant women, < 13 g/dL in men';
export const ADA_8 =
  'ADA Standards of Care in Diabetes—2026, Section 8 (Obesity and Weight Management); WHO Asian BMI cut-points (23 / 27.5 kg/m²), used by ADA Section 2 for screening Asian Americans';

export const LOINC = 'http://loinc.org';
// LOINC codes the history inputs read: A1C as NGSP % (4548-4, 17856-6 by HPLC) and IFCC mmol/mol (59261-8);
// fasting glucose in mass (1558-6) and molar (14771-0) units; 2-h OGTT (20438-8); eGFR CKD-EPI 2021 (98979-8) and unspecified (62238-1).
export const A1C_PERCENT = '4548-4';
export const A1C_HPLC = '17856-6';
export const A1C_IFCC = '59261-8';
export const FPG_MASS = '1558-6';
export const FPG_MOLES = '14771-0';
export const OGTT_2H = '20438-8';
export const EGFR_2021 = '98979-8';
export const EGFR_OLD = '62238-1';
/** VSAC "Diabetes" (the eCQM value set CMS122 uses; the expansion ships in backend/content/ecqm-valuesets). */
export const DIABETES_VALUE_SET = 'http://cts.nlm.nih.gov/fhir/ValueSet/2.16.840.1.113883.3.464.1003.103.12.1001';
