import { chatChoose, chatStep } from './chat';
import { assess, aRule, cond, GLUCOSE, HBA1C, SBP } from './testing/builders';

/**
 * On main the assessment returned one winner ranked by number of conditions, so a critical
 * one-condition rule disappeared behind a two-condition medium one (issue 9).
 */
describe('A hypertensive emergency is shown beside and above a diabetes finding', () => {
  const emergency = aRule('Hypertensive emergency', [cond(SBP.id, '>=', 180)], {
    priority: 100,
    actions: [{ type: 'alert', severity: 'critical', message: 'Evaluate for target-organ damage today' }],
  });
  const diabetes = aRule('Type 2 diabetes', [cond(HBA1C.id, '>=', 6.5), cond(GLUCOSE.id, '>=', 126)], {
    actions: [{ type: 'recommendation', severity: 'medium', message: 'Start metformin and lifestyle therapy' }],
  });
  const rules = [diabetes, emergency];
  const parameters = [HBA1C, GLUCOSE, SBP];
  const patient = { [SBP.id]: 185, [HBA1C.id]: 7.1, [GLUCOSE.id]: 140 };

  it('lists both findings, the critical one first and as the recommendation', () => {
    const { final } = assess(rules, parameters, patient);
    expect(final.findings.map((f) => [f.rule_name, f.severity])).toEqual([
      ['Hypertensive emergency', 'critical'],
      ['Type 2 diabetes', 'medium'],
    ]);
    expect(final.recommendation?.rule_name).toBe('Hypertensive emergency');
  });

  it('puts a critical finding first even when its priority is lower', () => {
    const lowPriorityEmergency = { ...emergency, priority: 0 };
    const highPriorityDiabetes = { ...diabetes, priority: 90 };
    const { final } = assess([highPriorityDiabetes, lowPriorityEmergency], parameters, patient);
    expect(final.findings.map((f) => f.rule_name)).toEqual(['Hypertensive emergency', 'Type 2 diabetes']);
  });

  it('in the chat, offers both with severity, actions and basis, and whichever is chosen still lists the emergency', () => {
    const step = chatStep(rules, parameters, patient);
    expect(step).toMatchObject({
      status: 'choice',
      options: [
        {
          label: 'Hypertensive emergency',
          severity: 'critical',
          actions: emergency.actions,
          basis: [{ parameter_id: SBP.id, threshold: 180, value: 185 }],
        },
        { label: 'Type 2 diabetes', severity: 'medium' },
      ],
    });
    const chosen = chatChoose(rules, parameters, patient, diabetes.id);
    expect(chosen).toMatchObject({
      status: 'completed',
      rule: { id: diabetes.id },
      other_findings: [{ rule_name: 'Hypertensive emergency', severity: 'critical' }],
    });
    expect(chosen?.status === 'completed' && chosen.message).toBe(
      'Based on your responses, 2 rules fired, most urgent first: "Hypertensive emergency" (critical); "Type 2 diabetes" (medium, chosen). You chose to follow "Type 2 diabetes".',
    );
  });
});
