import { chatQuestionOrder } from './chat';
import { aParameter, aRule, cond, GLUCOSE, HBA1C, SMOKER, WT_LB } from './testing/builders';

describe('Chat session: "Question order: parameters ranked by how often active rules use them, most used first; if none are used, all parameters in loaded order."', () => {
  it('ranks by the number of conditions that use each parameter', () => {
    const rules = [
      aRule('A', [cond(GLUCOSE.id, '>', 126), cond(HBA1C.id, '>', 6.5)]),
      aRule('B', [cond(HBA1C.id, '>', 8), cond(SMOKER.id, 'equals', true)]),
      aRule('C', [cond(HBA1C.id, '<', 5.7), cond(GLUCOSE.id, '<', 100)]),
    ];
    expect(chatQuestionOrder(rules, [SMOKER, WT_LB, GLUCOSE, HBA1C]).map((p) => p.name)).toEqual(['hba1c', 'fasting_glucose', 'smoker']);
  });

  it('keeps loaded order between parameters used equally often', () => {
    const rules = [aRule('A', [cond(GLUCOSE.id, '>', 126)]), aRule('B', [cond(SMOKER.id, 'equals', true)])];
    expect(chatQuestionOrder(rules, [SMOKER, GLUCOSE]).map((p) => p.name)).toEqual(['smoker', 'fasting_glucose']);
    expect(chatQuestionOrder(rules, [GLUCOSE, SMOKER]).map((p) => p.name)).toEqual(['fasting_glucose', 'smoker']);
  });

  it('counts references by name and display name too', () => {
    const rules = [aRule('A', [cond('SMOKER', 'equals', true), cond('Smoker', 'equals', true), cond(HBA1C.id, '>', 7)])];
    expect(chatQuestionOrder(rules, [HBA1C, SMOKER]).map((p) => p.name)).toEqual(['smoker', 'hba1c']);
  });

  it('asks every parameter in loaded order when no rule uses any', () => {
    expect(chatQuestionOrder([aRule('Other', [cond('p-elsewhere', '>', 1)])], [WT_LB, SMOKER, HBA1C])).toEqual([WT_LB, SMOKER, HBA1C]);
    expect(chatQuestionOrder([], [WT_LB, SMOKER])).toEqual([WT_LB, SMOKER]);
  });

  it('does not ask inactive parameters', () => {
    const retired = aParameter('retired', 'number', { is_active: false });
    const rules = [aRule('A', [cond(retired.id, '>', 1), cond(HBA1C.id, '>', 7)])];
    expect(chatQuestionOrder(rules, [retired, HBA1C])).toEqual([HBA1C]);
  });
});
