import { chatStep } from './chat';
import { anAction, aRule, cond, HBA1C } from './testing/builders';

describe('Chat session: "Completion sets is_completed and stores final_recommendations."', () => {
  it('hands the service the actions to store as final_recommendations', () => {
    const actions = [anAction('Start metformin', { severity: 'high' }), anAction('Refer to dietitian', { type: 'referral' })];
    const step = chatStep([aRule('Diabetes', [cond(HBA1C.id, '>=', 6.5)], { actions })], [HBA1C], { [HBA1C.id]: 7 });
    expect(step.status).toBe('completed');
    if (step.status === 'completed') expect(step.final_recommendations).toEqual(actions);
  });
});
