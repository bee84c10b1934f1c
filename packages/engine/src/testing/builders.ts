import { clinicalStart, clinicalStep } from '../clinical';
import { evaluateRule } from '../evaluate';
import type { Action, AnswerValue, ClinicalCompletedStep, Condition, EngineParameter, EngineRule, EvaluationOptions, Tri } from '../types';

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
export const BMI = aParameter('bmi', 'calculated', { display_name: 'BMI', units: 'kg/m2' });
export const SBP = aParameter('sbp', 'vitals', { display_name: 'Systolic BP', units: 'mm[Hg]' });
export const SMOKER = aParameter('smoker', 'boolean', { display_name: 'Smoker' });
export const DIABETES_TYPE = aParameter('diabetes_type', 'select', { display_name: 'Diabetes Type' });
export const NOTES = aParameter('notes', 'text', { display_name: 'Clinical Notes' });
export const LAST_EYE_EXAM = aParameter('last_eye_exam', 'date', { display_name: 'Last Eye Exam' });

/** The result of one condition on one answer, through the public interpreter. */
export function checkCondition(
  parameter: EngineParameter,
  operator: string,
  threshold: unknown,
  answer: unknown,
  options: EvaluationOptions = {},
): Tri {
  const answers = answer === undefined ? {} : { [parameter.id]: answer as AnswerValue };
  return evaluateRule(aRule('Check', [cond(parameter.id, operator, threshold)]), answers, [parameter], options).result;
}

/**
 * Runs a clinical assessment to the end, answering each question from `patient` (keyed by
 * parameter id; a list gives the successive answers when a parameter is asked again for its exact
 * value). Returns the parameters asked, in order, and the final step.
 */
export function assess(
  rules: EngineRule[],
  parameters: EngineParameter[],
  patient: Record<string, AnswerValue | AnswerValue[]>,
): { asked: string[]; final: ClinicalCompletedStep; exactRequested: string[] } {
  const asked: string[] = [];
  const answers: Record<string, AnswerValue> = {};
  const exactRequested: string[] = [];
  const times = new Map<string, number>();
  const options = () => ({ exactValueRequested: exactRequested });
  for (let step = clinicalStart(rules, parameters); ; step = clinicalStep(rules, parameters, answers, options())) {
    if (step.status === 'completed') return { asked, final: step, exactRequested };
    if (!(step.parameter_id in patient)) throw new Error(`The assessment asked ${step.parameter_name}, which the test did not expect`);
    if (asked.length > 2 * parameters.length) throw new Error('The assessment asked more questions than it may');
    if (step.exact_value_requested) exactRequested.push(step.parameter_id);
    asked.push(step.parameter_name);
    const given = patient[step.parameter_id];
    const n = times.get(step.parameter_id) ?? 0;
    times.set(step.parameter_id, n + 1);
    answers[step.parameter_id] = Array.isArray(given) ? given[Math.min(n, given.length - 1)] : given;
  }
}

/** A band as the partition offers it. */
export function band(min: number | null, max: number | null, minInclusive: boolean, maxInclusive: boolean): AnswerValue {
  return { type: 'range', min, max, min_inclusive: minInclusive, max_inclusive: maxInclusive };
}
