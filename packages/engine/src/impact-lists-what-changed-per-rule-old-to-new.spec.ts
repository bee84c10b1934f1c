import { ruleChanges } from './impact-changes';
import { aRule, anAction, cond, BMI, HBA1C, SMOKER } from './testing/builders';

/**
 * The publish dialog's change list: per rule, what reads differently before → after, with values
 * and units, not just which fields differ.
 */
describe('impact preview: what changed in each rule, old → new', () => {
  const obesity = aRule('Obesity', [cond(BMI.id, '>=', 30)], {
    priority: 10,
    actions: [anAction('Weight management', { severity: 'medium' })],
  });
  const smoker = aRule('Smoker', [cond(SMOKER.id, '=', true)]);
  const parameters = [BMI, HBA1C, SMOKER];

  it('lowering the BMI cut-point to 27.5 reads "BMI ≥ 30 kg/m² → BMI ≥ 27.5 kg/m²"', () => {
    const edited = { ...obesity, conditions: [cond(BMI.id, '>=', 27.5)] };
    expect(ruleChanges([obesity, smoker], [edited, smoker], parameters)).toEqual([
      {
        rule_id: obesity.id,
        rule_name: 'Obesity',
        kind: 'edited',
        details: [{ field: 'conditions', before: 'BMI ≥ 30 kg/m²', after: 'BMI ≥ 27.5 kg/m²' }],
      },
    ]);
  });

  it('priority and severity old → new; several conditions joined by their logic', () => {
    const edited = {
      ...obesity,
      priority: 5,
      conditions: [cond(BMI.id, '>=', 30, 'OR'), cond(HBA1C.id, '>', '6.5')],
      actions: [anAction('Weight management', { severity: 'high' })],
    };
    expect(ruleChanges([obesity], [edited], parameters)[0].details).toEqual([
      { field: 'conditions', before: 'BMI ≥ 30 kg/m²', after: 'BMI ≥ 30 kg/m² or HbA1c > 6.5 %' },
      { field: 'priority', before: '10', after: '5' },
      { field: 'severity', before: 'medium', after: 'high' },
      { field: 'actions', before: 'medium: Weight management', after: 'high: Weight management' },
    ]);
  });

  it('added and removed rules are described whole; unchanged rules are left out', () => {
    const changes = ruleChanges([obesity, smoker], [obesity, { ...smoker, id: 'smoker-2' }], parameters);
    expect(changes.map((c) => [c.rule_name, c.kind])).toEqual([
      ['Smoker', 'removed'],
      ['Smoker', 'added'],
    ]);
    expect(changes[0].details).toContainEqual({ field: 'conditions', before: 'Smoker = Yes', after: null });
    expect(changes[1].details).toContainEqual({ field: 'conditions', before: null, after: 'Smoker = Yes' });
  });

  it('a unit changed in the catalogue shows in the rule that uses it, as a parameter change', () => {
    const [change] = ruleChanges([obesity], [obesity], [BMI], [{ ...BMI, units: 'kg' }]);
    expect(change).toMatchObject({
      kind: 'parameters',
      details: [{ field: 'conditions', before: 'BMI ≥ 30 kg/m²', after: 'BMI ≥ 30 kg' }],
    });
  });
});
