import { CHAT_NO_MATCH, chatStep } from './chat';
import { aRule, cond, HBA1C } from './testing/builders';

describe('Chat session: "No match says \'Based on your responses, no specific recommendations are available at this time. Please consult with your healthcare provider.\' and completes with no recommendations."', () => {
  it('completes with the no-match message and no recommendations', () => {
    const step = chatStep([aRule('A1c above target', [cond(HBA1C.id, '>', 7)])], [HBA1C], { [HBA1C.id]: 5.4 });
    expect(step).toEqual({
      status: 'completed',
      message: CHAT_NO_MATCH,
      rule: null,
      finding: null,
      final_recommendations: [],
      other_findings: [],
      findings: [],
      matches: [],
      undetermined_rules: [],
    });
    expect(CHAT_NO_MATCH).toBe(
      'Based on your responses, no specific recommendations are available at this time. Please consult with your healthcare provider.',
    );
  });
});
