import { chatStep } from './chat';
import { aRule, cond, GLUCOSE, HBA1C } from './testing/builders';

describe('Chat session: "Restart starts a fresh session."', () => {
  it('depends on nothing but the answers given: a fresh session starts at the first question again', () => {
    const rules = [aRule('Diabetes', [cond(HBA1C.id, '>=', 6.5), cond(GLUCOSE.id, '>=', 126)]), aRule('A1c', [cond(HBA1C.id, '>', 7)])];
    const finished = chatStep(rules, [GLUCOSE, HBA1C], { [HBA1C.id]: 8, [GLUCOSE.id]: 130 });
    expect(finished.status).not.toBe('question');
    const restarted = chatStep(rules, [GLUCOSE, HBA1C], {});
    expect(restarted).toMatchObject({ status: 'question', question: { parameter_id: HBA1C.id } });
  });
});
