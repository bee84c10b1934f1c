import { chatChoose, chatStep } from './chat';
import { aRule, anAction, BMI, cond, GLUCOSE, HBA1C, SBP } from './testing/builders';

/**
 * Issue 20: choosing a low finding gave a final message that began with it and named only the
 * other critical and high findings, so it read above two critical ones and a medium finding was
 * dropped. The message now lists every finding in the assessment's order: severity (critical,
 * high, then the rest), each tier by the ranking (priority, conditions, name).
 */
describe('Chat: the final message lists every finding, most urgent first, whichever is chosen', () => {
  const crisis = aRule('Hypertensive crisis', [cond(SBP.id, '>', 180)], {
    priority: 100,
    actions: [anAction('Same-day evaluation', { severity: 'critical' })],
  });
  const hyperglycaemia = aRule('Severe hyperglycaemia', [cond(GLUCOSE.id, '>=', 400)], {
    priority: 90,
    actions: [anAction('Assess for DKA/HHS today', { severity: 'critical' })],
  });
  const diabetes = aRule('Diabetes', [cond(HBA1C.id, '>=', 6.5)], {
    priority: 80,
    actions: [anAction('Confirm with a second test', { severity: 'medium' })],
  });
  const overweight = aRule('Overweight', [cond(BMI.id, '>=', 25)], {
    priority: 10,
    description: 'BMI in the overweight range.',
    actions: [anAction('Discuss weight', { severity: 'low' })],
  });
  const rules = [overweight, diabetes, hyperglycaemia, crisis];
  const parameters = [SBP, GLUCOSE, HBA1C, BMI];
  const patient = { [SBP.id]: 200, [GLUCOSE.id]: 450, [HBA1C.id]: 11, [BMI.id]: 27 };

  it('choosing the low finding lists the two critical ones first and keeps the medium one', () => {
    const step = chatChoose(rules, parameters, patient, overweight.id);
    expect(step?.status === 'completed' && step.message).toBe(
      'Based on your responses, 4 rules fired, most urgent first: "Hypertensive crisis" (critical); "Severe hyperglycaemia" (critical); ' +
        '"Diabetes" (medium); "Overweight" (low, chosen). You chose to follow "Overweight": BMI in the overweight range.',
    );
  });

  it('carries every other finding, in the same order, beside the chosen one', () => {
    const step = chatChoose(rules, parameters, patient, overweight.id);
    expect(step).toMatchObject({ status: 'completed', rule: { id: overweight.id }, final_recommendations: overweight.actions });
    expect(step?.status === 'completed' && step.other_findings.map((f) => f.rule_name)).toEqual([
      'Hypertensive crisis',
      'Severe hyperglycaemia',
      'Diabetes',
    ]);
    expect(step?.status === 'completed' && step.findings.map((f) => f.rule_name)).toEqual([
      'Hypertensive crisis',
      'Severe hyperglycaemia',
      'Diabetes',
      'Overweight',
    ]);
  });

  it('the order within a severity tier is the ranking: priority first', () => {
    const lowPriorityCrisis = { ...crisis, priority: 1 };
    const step = chatChoose([overweight, diabetes, hyperglycaemia, lowPriorityCrisis], parameters, patient, diabetes.id);
    expect(step?.status === 'completed' && step.findings.map((f) => f.rule_name)).toEqual([
      'Severe hyperglycaemia',
      'Hypertensive crisis',
      'Diabetes',
      'Overweight',
    ]);
  });

  it('offers the choice in the same order', () => {
    const step = chatStep(rules, parameters, patient);
    expect(step.status === 'choice' && step.options.map((o) => o.label)).toEqual([
      'Hypertensive crisis',
      'Severe hyperglycaemia',
      'Diabetes',
      'Overweight',
    ]);
  });
});
