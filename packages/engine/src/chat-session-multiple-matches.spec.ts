import { CHAT_MULTIPLE_MATCHES, chatChoose, chatStep } from './chat';
import { aRule, cond, GLUCOSE, HBA1C } from './testing/builders';

describe('Chat session: "More than one match gives a choice question \'Multiple recommendations are available. Which would you like to follow?\' with the rule names as options."', () => {
  const lifestyle = aRule('Lifestyle advice', [cond(HBA1C.id, '>', 5.7)], { priority: 10 });
  const metformin = aRule('Start metformin', [cond(HBA1C.id, '>', 6.5), cond(GLUCOSE.id, '>', 126)], { priority: 50 });
  const rules = [lifestyle, metformin];
  const answers = { [HBA1C.id]: 7.2, [GLUCOSE.id]: 140 };

  it('offers the matching rules by name, highest priority first', () => {
    const step = chatStep(rules, [HBA1C, GLUCOSE], answers);
    expect(step).toMatchObject({
      status: 'choice',
      message: CHAT_MULTIPLE_MATCHES,
      options: [
        { label: 'Start metformin', value: metformin.id },
        { label: 'Lifestyle advice', value: lifestyle.id },
      ],
    });
    expect(CHAT_MULTIPLE_MATCHES).toBe('Multiple recommendations are available. Which would you like to follow?');
  });

  it('completes with the chosen rule', () => {
    const step = chatChoose(rules, [HBA1C, GLUCOSE], answers, lifestyle.id);
    expect(step).toMatchObject({ status: 'completed', rule: { id: lifestyle.id }, final_recommendations: lifestyle.actions });
  });

  it('refuses a choice that is not one of the matches', () => {
    expect(chatChoose(rules, [HBA1C, GLUCOSE], { [HBA1C.id]: 6, [GLUCOSE.id]: 90 }, metformin.id)).toBeNull();
  });
});
