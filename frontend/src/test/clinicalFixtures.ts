/** Test fixtures typed by @cds/contracts: what the server sends for the clinical form and the chat. */
import type { AnswerDetailJson, FindingJson, QuestionJson, UndeterminedRuleJson } from '@cds/contracts';

export const HBA1C_ID = 'p-hba1c-0000-0001';
export const SBP_ID = 'p-sbp-0000-0002';
export const FPG_ID = 'p-fpg-0000-0003';

export const hba1cQuestion: QuestionJson = {
  parameter_id: HBA1C_ID,
  name: 'hba1c',
  display_name: 'HbA1c',
  text: "What is the patient's HbA1c?",
  units: '%',
  data_type: 'lab_range',
  input: {
    kind: 'number',
    unit: '%',
    unit_display: '%',
    units_accepted: [
      { code: '%', display: '%' },
      { code: 'mmol/mol', display: 'mmol/mol' },
    ],
    min: 3,
    max: 20,
    decimals: 1,
  },
  options: [
    { label: 'HbA1c < 5.7 %', value: { type: 'range', min: null, max: 5.7, min_inclusive: false, max_inclusive: false } },
    { label: 'HbA1c 5.7 to < 6.5 %', value: { type: 'range', min: 5.7, max: 6.5, min_inclusive: true, max_inclusive: false } },
    { label: 'HbA1c ≥ 6.5 %', value: { type: 'range', min: 6.5, max: null, min_inclusive: true, max_inclusive: false } },
    { label: 'Not available', value: 'unknown' },
  ],
};

export const sbpQuestion: QuestionJson = {
  parameter_id: SBP_ID,
  name: 'systolic_bp',
  display_name: 'Systolic blood pressure',
  text: 'What is the systolic blood pressure?',
  units: 'mm[Hg]',
  data_type: 'vitals',
  input: {
    kind: 'number',
    unit: 'mm[Hg]',
    unit_display: 'mmHg',
    units_accepted: [{ code: 'mm[Hg]', display: 'mmHg' }],
    min: 50,
    max: 300,
    decimals: 0,
  },
  options: [
    {
      label: 'Systolic blood pressure < 180 mmHg',
      value: { type: 'range', min: null, max: 180, min_inclusive: false, max_inclusive: false },
    },
    {
      label: 'Systolic blood pressure ≥ 180 mmHg',
      value: { type: 'range', min: 180, max: null, min_inclusive: true, max_inclusive: false },
    },
    { label: 'Not available', value: 'unknown' },
  ],
};

export const smokerQuestion: QuestionJson = {
  parameter_id: 'p-smoker-0000-0004',
  name: 'smoker',
  display_name: 'Current smoker',
  text: 'Does the patient smoke?',
  units: null,
  data_type: 'boolean',
  options: [
    { label: 'Yes', value: true },
    { label: 'No', value: false },
    { label: 'Not available', value: 'unknown' },
  ],
};

export const hba1cTyped: AnswerDetailJson = {
  parameter_id: HBA1C_ID,
  parameter_name: 'hba1c',
  display_name: 'HbA1c',
  units: '%',
  value: 6.5,
  unit: '%',
  entered_as: 'typed',
  label: '6.5 %',
  observed_at: '2026-11-20',
  answered_at: '2026-11-23T10:00:00.000Z',
};

export const sbpTyped: AnswerDetailJson = {
  parameter_id: SBP_ID,
  parameter_name: 'systolic_bp',
  display_name: 'Systolic blood pressure',
  units: 'mm[Hg]',
  value: 200,
  unit: 'mm[Hg]',
  entered_as: 'typed',
  label: '200 mmHg',
  answered_at: '2026-11-23T10:01:00.000Z',
};

export const fpgConverted: AnswerDetailJson = {
  parameter_id: FPG_ID,
  parameter_name: 'fasting_glucose',
  display_name: 'Fasting plasma glucose',
  units: 'mg/dL',
  value: 126,
  unit: 'mmol/L',
  entered_value: 7,
  entered_as: 'typed',
  label: '7 mmol/L',
  answered_at: '2026-11-23T10:02:00.000Z',
};

export const hba1cBand: AnswerDetailJson = {
  ...hba1cTyped,
  value: { type: 'range', min: 5.7, max: 6.5, min_inclusive: true, max_inclusive: false },
  unit: '%',
  entered_as: 'band',
  label: 'HbA1c 5.7 to < 6.5 %',
  observed_at: null,
};

export const hba1cNotAvailable: AnswerDetailJson = {
  ...hba1cTyped,
  value: 'unknown',
  unit: null,
  entered_as: 'not_available',
  label: 'Not available',
  observed_at: null,
};

export const hypertensiveEmergency: FindingJson = {
  rule_id: 'r-hte',
  rule_name: 'Hypertensive emergency',
  rule_version: 3,
  rule_set_id: 'rs-bp',
  rule_set_name: 'Blood pressure',
  rule_set_version_id: 'rsv-bp-3',
  description: 'Severely raised blood pressure: assess for target-organ damage today',
  priority: 100,
  severity: 'critical',
  actions: [{ type: 'referral', severity: 'critical', message: 'Send to the emergency department now', value: null }],
  basis: [
    {
      parameter_id: SBP_ID,
      parameter_name: 'systolic_bp',
      display_name: 'Systolic blood pressure',
      units: 'mm[Hg]',
      operator: 'greater_equal',
      threshold: 180,
      value: 200,
      label: '200 mmHg',
      unit: 'mm[Hg]',
    },
  ],
  source: 'ADA Standards of Care in Diabetes—2026, Section 10',
};

export const diabetesFinding: FindingJson = {
  rule_id: 'r-t2d',
  rule_name: 'Diabetes by HbA1c',
  rule_version: 2,
  rule_set_id: 'rs-dx',
  rule_set_name: 'Diabetes diagnosis',
  rule_set_version_id: 'rsv-dx-2',
  description: 'HbA1c in the diabetes range: confirm with a repeat test',
  priority: 50,
  severity: 'high',
  actions: [{ type: 'recommendation', severity: 'high', message: 'Repeat HbA1c to confirm diabetes', value: null }],
  basis: [
    {
      parameter_id: HBA1C_ID,
      parameter_name: 'hba1c',
      display_name: 'HbA1c',
      units: '%',
      operator: 'greater_equal',
      threshold: 6.5,
      value: 6.5,
      label: '6.5 %',
      unit: '%',
    },
  ],
  source: 'ADA Standards of Care in Diabetes—2026, Section 2',
};

export const undeterminedRetinopathy: UndeterminedRuleJson = {
  rule_id: 'r-uacr',
  rule_name: 'Diabetic kidney disease',
  rule_version: 1,
  rule_set_name: 'Diabetes complications',
  severity: 'high',
  unknown_parameters: [{ parameter_id: 'p-uacr', parameter_name: 'uacr', display_name: 'Urine albumin-to-creatinine ratio' }],
};
