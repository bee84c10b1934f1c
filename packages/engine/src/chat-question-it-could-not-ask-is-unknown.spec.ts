import { chatEvaluate, chatStep } from './chat';
import { aParameter, aRule, cond, GLUCOSE, HBA1C, SMOKER } from './testing/builders';

/**
 * Product-spec §4 had the chat check only answered conditions, so a rule matched on half its
 * conditions. Issue 9: a question the chat could not ask, or that was answered Not available, is
 * unknown, never satisfied.
 */
describe('Chat: a question it could not ask is unknown, never satisfied', () => {
  const parameters = [HBA1C, GLUCOSE, SMOKER];

  it('does not match on the answered conditions alone', () => {
    const rule = aRule('R', [cond(HBA1C.id, '>', 7), cond(GLUCOSE.id, '>', 126)]);
    expect(chatEvaluate([rule], parameters, { [HBA1C.id]: 8 })).toEqual([]);
  });

  it('asks the missing condition instead', () => {
    const rule = aRule('R', [cond(HBA1C.id, '>', 7), cond(GLUCOSE.id, '>', 126)]);
    expect(chatStep([rule], parameters, { [HBA1C.id]: 8 })).toMatchObject({ status: 'question', question: { parameter_id: GLUCOSE.id } });
  });

  it('lists a rule on an inactive parameter as undetermined, with the input it could not ask', () => {
    const retired = aParameter('retired_lab', 'number', { is_active: false });
    const step = chatStep([aRule('Retired', [cond(retired.id, '>', 1)])], [retired], {});
    expect(step).toMatchObject({
      status: 'completed',
      rule: null,
      undetermined_rules: [{ rule_name: 'Retired', unknown_parameters: [{ parameter_id: retired.id, reason: 'cannot_be_asked' }] }],
    });
  });

  it('does not match a rule without conditions', () => {
    expect(chatEvaluate([aRule('Empty', [])], parameters, { [HBA1C.id]: 8 })).toEqual([]);
  });

  it('does not match on a Not available answer', () => {
    expect(chatEvaluate([aRule('R', [cond(HBA1C.id, '>', 7)])], parameters, { [HBA1C.id]: 'unknown' })).toEqual([]);
  });

  it('matches once every condition holds, with the rule as a finding', () => {
    const rule = aRule('R', [cond(HBA1C.id, '>', 7), cond(GLUCOSE.id, '>', 126)]);
    const [match] = chatEvaluate([rule], parameters, { [HBA1C.id]: 8, [GLUCOSE.id]: 130 });
    expect(match).toMatchObject({ rule, finding: { rule_id: rule.id, severity: 'medium' } });
    expect(match.trace.map((t) => t.result)).toEqual([true, true]);
  });
});
