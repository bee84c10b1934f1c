import type { Action, Condition, EngineParameter, EngineRule } from '../types';

/** Test-data builders for engine specs (ids are derived from names so traces are readable). */
export function aParameter(name: string, dataType: string, overrides: Partial<EngineParameter> = {}): EngineParameter {
  return { id: `p-${name.toLowerCase()}`, name, display_name: name, data_type: dataType, is_active: true, ...overrides };
}

export function cond(parameter: string, operator: string, value: unknown, logic?: 'AND' | 'OR'): Condition {
  return { type: 'parameter', parameter, operator, value, ...(logic ? { logic } : {}) };
}

export function anAction(message: string, overrides: Partial<Action> = {}): Action {
  return { type: 'recommendation', severity: 'medium', message, ...overrides };
}

let sequence = 0;

export function aRule(name: string, conditions: Condition[], overrides: Partial<EngineRule> = {}): EngineRule {
  sequence += 1;
  return {
    id: `r-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${sequence}`,
    name,
    description: null,
    priority: 0,
    conditions,
    actions: [anAction(`Advice for ${name}`)],
    ...overrides,
  };
}

/** The parameters the clinical form knows by name, plus the seeded diabetes ones. */
export const TSH = aParameter('TSH', 'lab_range', { display_name: 'Thyroid Stimulating Hormone', units: 'mIU/L' });
export const ANTIBODIES = aParameter('Antibodies', 'boolean', { display_name: 'Thyroid Antibodies' });
export const WT_LB = aParameter('Wt_lb', 'number', { display_name: 'Weight', units: 'lb' });
export const HBA1C = aParameter('hba1c', 'lab_range', { display_name: 'HbA1c', units: '%' });
export const GLUCOSE = aParameter('fasting_glucose', 'lab_range', { display_name: 'Fasting Glucose', units: 'mg/dL' });
export const BMI = aParameter('bmi', 'calculated', { display_name: 'BMI', units: 'kg/m²' });
export const SMOKER = aParameter('smoker', 'boolean', { display_name: 'Smoker' });
export const DIABETES_TYPE = aParameter('diabetes_type', 'select', { display_name: 'Diabetes Type' });
export const NOTES = aParameter('notes', 'text', { display_name: 'Clinical Notes' });
export const LAST_EYE_EXAM = aParameter('last_eye_exam', 'date', { display_name: 'Last Eye Exam' });
