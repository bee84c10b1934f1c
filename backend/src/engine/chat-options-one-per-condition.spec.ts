import { chatOptions } from './chat';
import { aRule, cond, DIABETES_TYPE, HBA1C, TSH } from './testing/builders';

describe('Chat session: "Otherwise one option per distinct condition, labelled parameter name, operator, value; the value submitted is threshold minus 1 for < and <=, plus 1 for > and >=, the threshold itself for == or =."', () => {
  it('derives one option per distinct condition', () => {
    const rules = [
      aRule('Low', [cond(HBA1C.id, '<', 5.7)]),
      aRule('Target', [cond(HBA1C.id, '<=', 7)]),
      aRule('High', [cond(HBA1C.id, '>', 9)]),
      aRule('At least', [cond(HBA1C.id, '>=', 6.5)]),
      aRule('Exact', [cond(HBA1C.id, '==', 8)]),
      aRule('Exact again', [cond(HBA1C.id, '=', 8), cond(HBA1C.id, 'equals', 8)]),
    ];
    expect(chatOptions(HBA1C, rules)).toEqual([
      { label: 'hba1c < 5.7', value: 4.7 },
      { label: 'hba1c ≤ 7', value: 6 },
      { label: 'hba1c ≥ 6.5', value: 7.5 },
      { label: 'hba1c = 8', value: 8 },
      { label: 'hba1c > 9', value: 10 },
    ]);
  });

  it('submits the threshold itself for equality, whatever its type', () => {
    expect(chatOptions(DIABETES_TYPE, [aRule('T2', [cond(DIABETES_TYPE.id, '==', 'Type 2')])])).toEqual([
      { label: 'diabetes_type = Type 2', value: 'Type 2' },
    ]);
  });

  it('finds conditions that name the parameter instead of using its id', () => {
    expect(chatOptions(TSH, [aRule('High TSH', [cond('tsh', '>', 4.5)])], [TSH])).toEqual([{ label: 'TSH > 4.5', value: 5.5 }]);
  });

  it('each option value satisfies the condition it is labelled with', () => {
    const { evaluateRule } = jest.requireActual<typeof import('./evaluate')>('./evaluate');
    const rules = [aRule('A', [cond(HBA1C.id, '<', 5.7)]), aRule('B', [cond(HBA1C.id, '>=', 6.5)])];
    for (const [i, option] of chatOptions(HBA1C, rules).entries()) {
      expect(evaluateRule(rules[i], { [HBA1C.id]: option.value as number }, [HBA1C]).result).toBe(true);
    }
  });
});
