import { chatStep } from './chat';
import { aRule, cond, GLUCOSE, HBA1C, SMOKER } from './testing/builders';

describe('Chat session: "Each answer saves answers, answered list, history and step+1, then asks the next question."', () => {
  const rules = [
    aRule('Diabetes', [cond(HBA1C.id, '>=', 6.5), cond(GLUCOSE.id, '>=', 126)]),
    aRule('Smoker with high A1c', [cond(HBA1C.id, '>', 8), cond(SMOKER.id, 'equals', true)]),
  ];
  const parameters = [GLUCOSE, SMOKER, HBA1C];

  it('asks the next unanswered parameter after each answer', () => {
    const asked: string[] = [];
    let answers = {};
    for (let step = chatStep(rules, parameters, answers); step.status === 'question'; step = chatStep(rules, parameters, answers)) {
      asked.push(step.question.parameter_id);
      // The highest band (the last before Not available) keeps every rule open.
      answers = { ...answers, [step.question.parameter_id]: step.question.options.at(-2)!.value };
    }
    expect(asked).toEqual([HBA1C.id, GLUCOSE.id, SMOKER.id]);
  });
});
