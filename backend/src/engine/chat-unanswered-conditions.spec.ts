import { chatEvaluate } from './chat';
import { aRule, cond, GLUCOSE, HBA1C, SMOKER } from './testing/builders';

describe('Chat session: "Only conditions whose parameter has an answer are checked, so unanswered conditions do not block a match, but a rule needs at least one condition."', () => {
  const parameters = [HBA1C, GLUCOSE, SMOKER];

  it('matches on the answered conditions alone', () => {
    const rule = aRule('R', [cond(HBA1C.id, '>', 7), cond(GLUCOSE.id, '>', 126)]);
    const [match] = chatEvaluate([rule], parameters, { [HBA1C.id]: 8 });
    expect(match.rule).toBe(rule);
    expect(match.trace.map((t) => t.result)).toEqual([true, 'skipped']);
  });

  it('still fails on an answered condition that is false', () => {
    const rule = aRule('R', [cond(HBA1C.id, '>', 7), cond(GLUCOSE.id, '>', 126)]);
    expect(chatEvaluate([rule], parameters, { [HBA1C.id]: 8, [GLUCOSE.id]: 100 })).toEqual([]);
  });

  it('does not match a rule none of whose conditions is answered', () => {
    expect(chatEvaluate([aRule('R', [cond(GLUCOSE.id, '>', 126)])], parameters, { [HBA1C.id]: 8 })).toEqual([]);
  });

  it('does not match a rule without conditions', () => {
    expect(chatEvaluate([aRule('Empty', [])], parameters, { [HBA1C.id]: 8 })).toEqual([]);
  });

  it('drops an unanswered OR branch instead of letting it match', () => {
    const rule = aRule('R', [cond(GLUCOSE.id, '>', 126, 'OR'), cond(HBA1C.id, '>', 7)]);
    expect(chatEvaluate([rule], parameters, { [HBA1C.id]: 6 })).toEqual([]);
  });

  it('does not match on a "Not sure" answer: it is checked, and not known to be true', () => {
    expect(chatEvaluate([aRule('R', [cond(HBA1C.id, '>', 7)])], parameters, { [HBA1C.id]: 'unknown' })).toEqual([]);
  });
});
