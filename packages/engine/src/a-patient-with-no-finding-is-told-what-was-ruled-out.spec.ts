import { chatStep } from './chat';
import { clinicalStep } from './clinical';
import { aParameter, aRule, cond, GLUCOSE, HBA1C, SBP } from './testing/builders';
import type { Answers } from './types';

/**
 * Issue 20: a result with no finding told the physician to "consult with your healthcare
 * provider". It now says what was checked and ruled out, with display names and display units,
 * each parameter once at its most telling cut-point.
 */
describe('A patient with no finding is told what the answers ruled out', () => {
  const SYMPTOMS = aParameter('symptoms', 'boolean', { display_name: 'Classic symptoms of hyperglycaemia' });
  const rules = [
    aRule('Diabetes (A1C)', [cond(HBA1C.id, '>=', 6.5)], { priority: 90 }),
    aRule('Prediabetes (A1C)', [cond(HBA1C.id, '>=', 5.7), cond(HBA1C.id, '<', 6.5)], { priority: 80 }),
    aRule('Diabetes (fasting glucose)', [cond(GLUCOSE.id, '>=', 126)], { priority: 70 }),
    aRule('Prediabetes (fasting glucose)', [cond(GLUCOSE.id, '>=', 100), cond(GLUCOSE.id, '<', 126)], { priority: 60 }),
    aRule('Hypertension stage 2', [cond(SBP.id, '>=', 140)], { priority: 50 }),
    aRule('Hyperglycaemic crisis', [cond(GLUCOSE.id, '>=', 200), cond(SYMPTOMS.id, 'equals', true)], { priority: 40 }),
  ];
  const parameters = [HBA1C, GLUCOSE, SBP, SYMPTOMS];
  const healthy: Answers = { [HBA1C.id]: 5.2, [GLUCOSE.id]: 92, [SBP.id]: 118, [SYMPTOMS.id]: false };

  it('HbA1c 5.2 %, fasting glucose 92 mg/dL, SBP 118 mmHg: each is named below its lowest cut-point', () => {
    const step = clinicalStep(rules, parameters, healthy);
    expect(step.status === 'completed' && step.ruled_out.map((r) => r.statement)).toEqual([
      'HbA1c 5.2 % is below 5.7 %',
      'Fasting Glucose 92 mg/dL is below 100 mg/dL',
      'Systolic BP 118 mmHg is below 140 mmHg',
      'Classic symptoms of hyperglycaemia is No, not Yes',
    ]);
  });

  it('says which rules each statement rules out', () => {
    const step = clinicalStep(rules, parameters, healthy);
    expect(step.status === 'completed' && step.ruled_out[0]).toMatchObject({
      display_name: 'HbA1c',
      operator: 'greater_equal',
      threshold: 5.7,
      value: 5.2,
      rule_names: ['Diabetes (A1C)', 'Prediabetes (A1C)'],
    });
  });

  it('shows display units, never UCUM codes (mmHg, not mm[Hg])', () => {
    const step = clinicalStep(rules, parameters, healthy);
    const text = step.status === 'completed' ? step.ruled_out.map((r) => r.statement).join('; ') : '';
    expect(text).toContain('mmHg');
    expect(text).not.toContain('mm[Hg]');
  });

  it('an answer above a "less than" cut-point reads "is not below"', () => {
    const normal = aRule('Low eGFR', [cond(SBP.id, '<', 90)]);
    const step = clinicalStep([normal], [SBP], { [SBP.id]: 118 });
    expect(step.status === 'completed' && step.ruled_out.map((r) => r.statement)).toEqual(['Systolic BP 118 mmHg is not below 90 mmHg']);
  });

  it('the chat completes with the same sentences, never patient advice', () => {
    const step = chatStep(rules, parameters, healthy);
    expect(step).toMatchObject({
      status: 'completed',
      message:
        'No rule fired: HbA1c 5.2 % is below 5.7 %; Fasting Glucose 92 mg/dL is below 100 mg/dL; Systolic BP 118 mmHg is below 140 mmHg; Classic symptoms of hyperglycaemia is No, not Yes.',
    });
    expect(step.status === 'completed' && step.message).not.toMatch(/consult|healthcare provider/i);
  });

  it('a value that was not available rules nothing out: the rule is counted as not evaluated', () => {
    const step = chatStep(rules, parameters, { ...healthy, [SBP.id]: 'unknown' });
    expect(step).toMatchObject({
      status: 'completed',
      message:
        'No rule fired: HbA1c 5.2 % is below 5.7 %; Fasting Glucose 92 mg/dL is below 100 mg/dL; Classic symptoms of hyperglycaemia is No, not Yes. 1 rule could not be evaluated for missing values: no finding is not a negative finding.',
    });
  });

  it('a band answer is named as the band given', () => {
    const step = clinicalStep(rules.slice(0, 2), [HBA1C], {
      [HBA1C.id]: { type: 'range', min: null, max: 5.7, min_inclusive: true, max_inclusive: false },
    });
    expect(step.status === 'completed' && step.ruled_out.map((r) => r.statement)).toEqual(['HbA1c < 5.7 % is below 5.7 %']);
  });

  it('when a rule fires, nothing is listed as ruled out', () => {
    const step = clinicalStep(rules, parameters, { ...healthy, [HBA1C.id]: 6.8 });
    expect(step).toMatchObject({ status: 'completed', recommendation: { rule_name: 'Diabetes (A1C)' }, ruled_out: [] });
  });

  it('the debug log records the same summary', () => {
    const step = clinicalStep(rules, parameters, healthy);
    expect(step.log.map((e) => e.message)).toContain(
      'No rule fired: HbA1c 5.2 % is below 5.7 %; Fasting Glucose 92 mg/dL is below 100 mg/dL; Systolic BP 118 mmHg is below 140 mmHg; Classic symptoms of hyperglycaemia is No, not Yes.',
    );
  });
});
