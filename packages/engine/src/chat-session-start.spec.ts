import { chatStep } from './chat';
import { aRule, cond, HBA1C, SMOKER, WT_LB } from './testing/builders';

describe('Chat session: "Start creates a session row (empty data, step 1, not completed) and asks the first question."', () => {
  const rules = [
    aRule('Obese smoker', [cond(WT_LB.id, '>', 250), cond(SMOKER.id, 'equals', true)]),
    aRule('Heavy', [cond(WT_LB.id, '>', 300)]),
  ];

  it('asks the most used parameter first when nothing is answered yet', () => {
    const step = chatStep(rules, [SMOKER, HBA1C, WT_LB], {});
    expect(step.status).toBe('question');
    if (step.status !== 'question') return;
    expect(step.question.parameter_id).toBe(WT_LB.id);
    expect(step.question.text).toBe('What is your weight?');
  });
});
