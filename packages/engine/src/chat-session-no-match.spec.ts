import { CHAT_NO_MATCH, chatStep } from './chat';
import { aRule, cond, HBA1C } from './testing/builders';

/**
 * Product-spec §4's no-match text told the physician to "consult with your healthcare provider"
 * (patient advice, to the provider). Issue 20: the message says what the answers ruled out.
 */
describe('Chat session: no match completes with no recommendations and says what the answers ruled out', () => {
  it('completes with "No rule fired" and the condition the answer made false', () => {
    const rule = aRule('A1c above target', [cond(HBA1C.id, '>', 7)]);
    const step = chatStep([rule], [HBA1C], { [HBA1C.id]: 5.4 });
    expect(step).toEqual({
      status: 'completed',
      message: 'No rule fired: HbA1c 5.4 % is not above 7 %.',
      rule: null,
      finding: null,
      final_recommendations: [],
      other_findings: [],
      findings: [],
      matches: [],
      undetermined_rules: [],
      ruled_out: [
        {
          parameter_id: HBA1C.id,
          parameter_name: 'hba1c',
          display_name: 'HbA1c',
          units: '%',
          operator: 'greater_than',
          threshold: 7,
          value: 5.4,
          rule_names: ['A1c above target'],
          statement: 'HbA1c 5.4 % is not above 7 %',
        },
      ],
    });
    expect(CHAT_NO_MATCH).toBe('No rule fired');
  });

  it('never gives the physician patient advice', () => {
    const step = chatStep([aRule('A1c above target', [cond(HBA1C.id, '>', 7)])], [HBA1C], { [HBA1C.id]: 5.4 });
    expect(step.status === 'completed' && step.message).not.toMatch(/consult|healthcare provider/i);
  });
});
