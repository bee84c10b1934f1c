import { clinicalOptions } from './clinical';
import { aParameter, aRule, cond } from './testing/builders';

describe('Clinical assessment: "Option derivation: options from the parameter\'s validation_rules.options if present (label, or \'{name} = {value}\')."', () => {
  const smoking = aParameter('smoking', 'select', {
    validation_rules: { options: [{ label: 'Current smoker', value: 'current' }, { value: 'former' }, { label: '', value: 'never' }] },
  });

  it('uses the configured options, labelling unlabelled ones "{name} = {value}"', () => {
    expect(clinicalOptions(smoking, [aRule('Smoker', [cond(smoking.id, 'equals', 'current')])])).toEqual([
      { label: 'Current smoker', value: 'current' },
      { label: 'smoking = former', value: 'former' },
      { label: 'smoking = never', value: 'never' },
    ]);
  });

  it('takes precedence over every derivation from the rules', () => {
    const tsh = aParameter('TSH', 'lab_range', { validation_rules: { options: [{ label: 'Normal', value: 2 }] } });
    expect(clinicalOptions(tsh, [aRule('High', [cond(tsh.id, '>', 4.5)])])).toEqual([{ label: 'Normal', value: 2 }]);
  });

  it('ignores entries without a usable value and falls back when none is left', () => {
    const odd = aParameter('odd', 'number', { validation_rules: { options: [{ label: 'No value' }, { label: 'Object', value: { x: 1 } }] } });
    expect(clinicalOptions(odd, [aRule('R', [cond(odd.id, '>', 3)])]).map((o) => o.label)).toEqual(['odd < 3', 'odd ≥ 3']);
  });
});
