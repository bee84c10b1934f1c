import { chatStep } from './chat';
import { aRule, cond, GLUCOSE, HBA1C } from './testing/builders';

describe('Chat session: "When no unanswered parameters remain, rules are evaluated."', () => {
  const rules = [aRule('High A1c', [cond(HBA1C.id, '>', 7)]), aRule('High glucose', [cond(GLUCOSE.id, '>', 126)])];

  it('keeps asking while a parameter is unanswered, even if a rule already matches', () => {
    const step = chatStep(rules, [HBA1C, GLUCOSE], { [HBA1C.id]: 9 });
    expect(step.status).toBe('question');
  });

  it('evaluates once every parameter has an answer', () => {
    const step = chatStep(rules, [HBA1C, GLUCOSE], { [HBA1C.id]: 9, [GLUCOSE.id]: 100 });
    expect(step).toMatchObject({ status: 'completed', rule: { name: 'High A1c' } });
  });
});
