import { chatStep } from './chat';
import { aRule, cond, HBA1C } from './testing/builders';

describe("Chat session: \"Exactly one match shows 'Based on your responses: {description or name}' and completes with that rule's actions.\"", () => {
  it('uses the description when there is one', () => {
    const rule = aRule('A1c above target', [cond(HBA1C.id, '>', 7)], { description: 'Your HbA1c is above the usual target.' });
    const step = chatStep([rule], [HBA1C], { [HBA1C.id]: 8 });
    expect(step).toEqual({
      status: 'completed',
      message: 'Based on your responses: Your HbA1c is above the usual target.',
      rule,
      finding: expect.objectContaining({ rule_id: rule.id, severity: 'medium' }),
      final_recommendations: rule.actions,
      other_findings: [],
      findings: [expect.objectContaining({ rule_id: rule.id })],
      matches: [expect.objectContaining({ rule })],
      undetermined_rules: [],
      ruled_out: [],
    });
  });

  it('falls back to the name when the description is empty', () => {
    const rule = aRule('A1c above target', [cond(HBA1C.id, '>', 7)], { description: '  ' });
    expect(chatStep([rule], [HBA1C], { [HBA1C.id]: 8 })).toMatchObject({ message: 'Based on your responses: A1c above target' });
  });
});
