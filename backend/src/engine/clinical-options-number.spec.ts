import { clinicalOptions } from './clinical';
import { evaluateRule } from './evaluate';
import { aRule, BMI, cond, HBA1C, TSH, WT_LB } from './testing/builders';

describe('Clinical assessment: "Number parameters use sorted distinct thresholds: one threshold gives \'{name} < t\' with value t-1 and \'{name} ≥ t\' with value t+1; several give \'< first\', ranges \'a-b\' with the midpoint as value, and \'> last\' with last+1."', () => {
  it('splits at a single threshold', () => {
    expect(clinicalOptions(WT_LB, [aRule('Heavy', [cond(WT_LB.id, '>', 250)]), aRule('Also', [cond(WT_LB.id, '>=', '250')])])).toEqual([
      { label: 'Wt_lb < 250', value: 249 },
      { label: 'Wt_lb ≥ 250', value: 251 },
    ]);
  });

  it('makes bands between several thresholds, valued at their midpoints', () => {
    const rules = [
      aRule('Diabetes', [cond(HBA1C.id, '>=', 6.5)]),
      aRule('Normal', [cond(HBA1C.id, '<', 5.7)]),
      aRule('Poor control', [cond(HBA1C.id, '>', 9)]),
      aRule('Prediabetes', [cond(HBA1C.id, '>=', 5.7), cond(HBA1C.id, '<', 6.5)]),
    ];
    expect(clinicalOptions(HBA1C, rules)).toEqual([
      { label: 'hba1c < 5.7', value: 4.7 },
      { label: 'hba1c 5.7-6.5', value: 6.1 },
      { label: 'hba1c 6.5-9', value: 7.75 },
      { label: 'hba1c > 9', value: 10 },
    ]);
  });

  it('gives each band a value that falls inside it, so the chosen option decides the rules the way its label says', () => {
    const rules = [aRule('Low', [cond(TSH.id, '<', 0.4)]), aRule('High', [cond(TSH.id, '>', 4.5)])];
    const results = clinicalOptions(TSH, rules).map((option) =>
      rules.map((rule) => evaluateRule(rule, { [TSH.id]: option.value as number }, [TSH]).result),
    );
    expect(results).toEqual([
      [true, false],
      [false, false],
      [false, true],
    ]);
  });

  it('treats calculated parameters (BMI) as numbers', () => {
    expect(clinicalOptions(BMI, [aRule('Obese', [cond(BMI.id, '>=', 30)])]).map((o) => o.value)).toEqual([29, 31]);
  });
});
