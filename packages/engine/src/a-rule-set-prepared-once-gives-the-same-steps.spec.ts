import { chatChoose, chatNextQuestion, chatStep } from './chat';
import { clinicalStart, clinicalStep } from './clinical';
import { seededRandom } from './impact';
import { prepareRuleSet } from './prepared';
import { aRule, band, cond, DIABETES_TYPE, GLUCOSE, HBA1C, NOTES, SBP, SMOKER } from './testing/builders';
import type { Answers, AnswerValue, ClinicalStep } from './types';

/**
 * A service prepares each published version once and passes it with every step (issue 13's
 * per-answer cost). The answer must never depend on whether it did.
 */
describe('A rule set prepared once gives the same steps as one prepared on every answer', () => {
  const rules = [
    aRule('Type 2 diabetes', [cond(HBA1C.id, '>=', 6.5, 'OR'), cond(GLUCOSE.id, '>=', 126)], {
      actions: [{ type: 'recommendation', severity: 'high', message: 'Start metformin' }],
    }),
    aRule('Prediabetes', [cond(HBA1C.id, '>=', 5.7), cond(HBA1C.id, '<', 6.5)]),
    aRule('Hypertensive emergency', [cond(SBP.id, '>=', 180)], {
      priority: 100,
      actions: [{ type: 'alert', severity: 'critical', message: 'Evaluate for target-organ damage today' }],
    }),
    aRule('Stage 2 hypertension', [cond(SBP.id, '>=', 140), cond(SMOKER.id, '==', true)]),
    aRule('Type 1 review', [cond(DIABETES_TYPE.id, '==', 'type_1')]),
    aRule('Flagged note', [cond(NOTES.id, '==', 'urgent', 'OR'), cond(NOTES.id, '==', 'review')]),
  ];
  const parameters = [HBA1C, GLUCOSE, SBP, SMOKER, DIABETES_TYPE, NOTES];
  const prepared = prepareRuleSet(rules, parameters);
  const now = new Date('2026-11-25T08:00:00Z');

  function answerFor(parameterId: string, rnd: () => number): AnswerValue {
    const r = rnd();
    if (r < 0.1) return 'unknown';
    switch (parameterId) {
      case HBA1C.id:
        return r < 0.3 ? band(5.7, 6.5, true, false) : Math.round((4.5 + rnd() * 5) * 10) / 10;
      case GLUCOSE.id:
        return Math.round(70 + rnd() * 150);
      case SBP.id:
        return Math.round(100 + rnd() * 110);
      case SMOKER.id:
        return rnd() < 0.5;
      case DIABETES_TYPE.id:
        return rnd() < 0.5 ? 'type_1' : 'type_2';
      default:
        return ['urgent', 'review', 'routine'][Math.floor(rnd() * 3)];
    }
  }

  it('clinical: every step of 300 generated patients is identical with and without the preparation', () => {
    const rnd = seededRandom(13);
    let steps = 0;
    for (let patient = 0; patient < 300; patient++) {
      const answers: Answers = {};
      const twice: string[] = [];
      let plain: ClinicalStep = clinicalStart(rules, parameters, { now });
      let fast: ClinicalStep = clinicalStart(rules, parameters, { now, prepared });
      expect(fast).toEqual(plain);
      while (plain.status === 'question') {
        if (plain.exact_value_requested) twice.push(plain.parameter_id);
        answers[plain.parameter_id] = answerFor(plain.parameter_id, rnd);
        plain = clinicalStep(rules, parameters, answers, { now, exactValueRequested: twice });
        fast = clinicalStep(rules, parameters, answers, { now, exactValueRequested: twice, prepared });
        expect(fast).toEqual(plain);
        steps++;
      }
    }
    expect(steps).toBeGreaterThan(600);
  });

  it('chat: questions, choices and completions are identical with and without the preparation', () => {
    const rnd = seededRandom(7);
    for (let patient = 0; patient < 200; patient++) {
      const answers: Answers = {};
      expect(chatNextQuestion(rules, parameters, answers, { now, prepared })).toEqual(
        chatNextQuestion(rules, parameters, answers, { now }),
      );
      for (let step = chatStep(rules, parameters, answers, { now }); step.status === 'question';) {
        answers[step.question.parameter_id] = answerFor(step.question.parameter_id, rnd);
        const plain = chatStep(rules, parameters, answers, { now });
        expect(chatStep(rules, parameters, answers, { now, prepared })).toEqual(plain);
        if (plain.status === 'choice') {
          const chosen = plain.options[plain.options.length - 1].value;
          expect(chatChoose(rules, parameters, answers, chosen, { now, prepared })).toEqual(
            chatChoose(rules, parameters, answers, chosen, { now }),
          );
        }
        step = plain;
      }
    }
  });

  it('a preparation made from other rules is ignored, never used for these', () => {
    const raised = rules.map((r) => (r.name === 'Type 2 diabetes' ? { ...r, conditions: [cond(HBA1C.id, '>=', 7.0)] } : r));
    const answers: Answers = { [SBP.id]: 120, [HBA1C.id]: 6.7, [DIABETES_TYPE.id]: 'type_2', [NOTES.id]: 'routine', [SMOKER.id]: false };
    const stale = clinicalStep(raised, parameters, answers, { now, prepared });
    expect(stale).toEqual(clinicalStep(raised, parameters, answers, { now }));
    expect(stale.status === 'completed' && stale.findings.map((f) => f.rule_name)).not.toContain('Type 2 diabetes');
    const current = clinicalStep(rules, parameters, answers, { now, prepared });
    expect(current.status === 'completed' && current.findings.map((f) => f.rule_name)).toContain('Type 2 diabetes');
  });
});
