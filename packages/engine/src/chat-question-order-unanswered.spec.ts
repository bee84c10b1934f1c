import { chatNextQuestion } from './chat';
import { aRule, cond, GLUCOSE, HBA1C, SMOKER } from './testing/builders';

describe('Chat session: "Unanswered ones are asked in that order", skipping questions that cannot change the outcome (issue 9)', () => {
  const rules = [
    aRule('A', [cond(HBA1C.id, '>', 6.5), cond(GLUCOSE.id, '>', 126)]),
    aRule('B', [cond(HBA1C.id, '>', 8), cond(SMOKER.id, 'equals', true)]),
  ];
  // Order: hba1c (used twice), then glucose and smoker (once each) in loaded order.
  const parameters = [GLUCOSE, SMOKER, HBA1C];

  it('skips answered parameters, whatever order they were answered in', () => {
    expect(chatNextQuestion(rules, parameters, {})?.parameter_id).toBe(HBA1C.id);
    expect(chatNextQuestion(rules, parameters, { [GLUCOSE.id]: 100 })?.parameter_id).toBe(HBA1C.id);
    expect(chatNextQuestion(rules, parameters, { [HBA1C.id]: 9 })?.parameter_id).toBe(GLUCOSE.id);
    expect(chatNextQuestion(rules, parameters, { [HBA1C.id]: 9, [GLUCOSE.id]: 100 })?.parameter_id).toBe(SMOKER.id);
    expect(chatNextQuestion(rules, parameters, { [GLUCOSE.id]: 100, [SMOKER.id]: true })?.parameter_id).toBe(HBA1C.id);
  });

  it('skips a question no undecided rule needs any more', () => {
    // HbA1c 7 makes B false, so smoking cannot change the outcome.
    expect(chatNextQuestion(rules, parameters, { [HBA1C.id]: 7, [GLUCOSE.id]: 100 })).toBeNull();
  });

  it('counts Not available (unknown) as an answer but null or blank as none', () => {
    expect(chatNextQuestion(rules, parameters, { [HBA1C.id]: 'unknown' })?.parameter_id).toBe(GLUCOSE.id);
    expect(chatNextQuestion(rules, parameters, { [HBA1C.id]: null })?.parameter_id).toBe(HBA1C.id);
    expect(chatNextQuestion(rules, parameters, { [HBA1C.id]: ' ' })?.parameter_id).toBe(HBA1C.id);
  });

  it('has no question left when everything is answered', () => {
    expect(chatNextQuestion(rules, parameters, { [HBA1C.id]: 9, [GLUCOSE.id]: 100, [SMOKER.id]: false })).toBeNull();
  });
});
