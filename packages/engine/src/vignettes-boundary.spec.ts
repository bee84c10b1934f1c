import { aParameter, anAction, aRule, cond } from './testing/builders';
import { boundaryVignettes } from './vignettes';

const HBA1C = aParameter('hba1c', 'lab_range', { display_name: 'HbA1c', units: '%', validation_rules: { decimals: 1, min: 3, max: 20 } });
const normal = aRule('Normal', [cond(HBA1C.id, '<', 5.7)]);
const pre = aRule('Prediabetes', [cond(HBA1C.id, '>=', 5.7), cond(HBA1C.id, '<', 6.5)]);
const diabetes = aRule('Diabetes', [cond(HBA1C.id, '>=', 6.5)], { actions: [anAction('Diagnose', { severity: 'high' })] });

describe('boundaryVignettes: t − one step, t and t + one step at every cut-point', () => {
  const vignettes = boundaryVignettes([normal, pre, diabetes], [HBA1C]);

  it('gives 5.6, 5.7, 5.8 and 6.4, 6.5, 6.6 for HbA1c recorded to one decimal', () => {
    expect(vignettes.map((v) => [v.cut_point, v.position, v.value])).toEqual([
      [5.7, -1, 5.6],
      [5.7, 0, 5.7],
      [5.7, 1, 5.8],
      [6.5, -1, 6.4],
      [6.5, 0, 6.5],
      [6.5, 1, 6.6],
    ]);
  });

  it('an HbA1c of exactly 6.5 % fires diabetes, and 6.4 % fires prediabetes', () => {
    const at = (value: number) => vignettes.find((v) => v.value === value)!.result;
    expect(at(6.5)).toEqual({ fired: [diabetes.id], primary: diabetes.id, undetermined: [] });
    expect(at(6.4)).toEqual({ fired: [pre.id], primary: pre.id, undetermined: [] });
    expect(at(5.6).primary).toBe(normal.id);
    expect(at(5.7).primary).toBe(pre.id);
  });

  it('uses two-decimal steps when the parameter is recorded to two decimals', () => {
    const fine = { ...HBA1C, validation_rules: { decimals: 2 } };
    expect(boundaryVignettes([diabetes], [fine]).map((v) => v.value)).toEqual([6.49, 6.5, 6.51]);
  });

  it('whole units for a parameter with integer thresholds and no declared decimals', () => {
    const sbp = aParameter('sbp', 'vitals', { display_name: 'Systolic Blood Pressure' });
    expect(boundaryVignettes([aRule('Crisis', [cond(sbp.id, '>=', 180)])], [sbp]).map((v) => v.value)).toEqual([179, 180, 181]);
  });

  it('a cut-point between recorded values gives the two values around it', () => {
    const whole = { ...HBA1C, validation_rules: { decimals: 0 } };
    expect(boundaryVignettes([diabetes], [whole]).map((v) => [v.position, v.value])).toEqual([
      [-1, 6],
      [1, 7],
    ]);
  });

  it('leaves out values beyond the plausible limits', () => {
    const low = aRule('At the floor', [cond(HBA1C.id, '>=', 3)]);
    expect(boundaryVignettes([low], [HBA1C]).map((v) => v.value)).toEqual([3, 3.1]);
  });

  it('keeps the other answers given as the base of each vignette', () => {
    const smoker = aParameter('smoker', 'boolean');
    const rule = aRule('Smoking diabetic', [cond(HBA1C.id, '>=', 6.5), cond(smoker.id, 'equals', true)]);
    const [below, on] = boundaryVignettes([rule], [HBA1C, smoker], { base: { [smoker.id]: true } });
    expect(below.answers).toEqual({ [smoker.id]: true, [HBA1C.id]: 6.4 });
    expect(on.result.fired).toEqual([rule.id]);
  });
});
