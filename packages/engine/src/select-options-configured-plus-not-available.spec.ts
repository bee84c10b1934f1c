import { clinicalOptions } from './clinical';
import { aParameter, aRule, cond } from './testing/builders';

/** Product-spec §4 (validation_rules.options), plus issue 9's Not available on every question. */
describe('Select questions offer every configured option, plus Not available', () => {
  const smoking = aParameter('smoking', 'select', {
    display_name: 'Smoking',
    validation_rules: { options: [{ label: 'Current smoker', value: 'current' }, { value: 'former' }, { label: '', value: 'never' }] },
  });

  it('uses the configured options, labelling unlabelled ones "{display name} = {value}"', () => {
    expect(clinicalOptions(smoking, [aRule('Smoker', [cond(smoking.id, 'equals', 'current')])])).toEqual([
      { label: 'Current smoker', value: 'current' },
      { label: 'Smoking = former', value: 'former' },
      { label: 'Smoking = never', value: 'never' },
      { label: 'Not available', value: 'unknown' },
    ]);
  });

  // A configured option on a number would submit a stand-in value; numbers use the partition.
  it('ignores configured options on a numeric parameter, which uses the partition', () => {
    const tsh = aParameter('TSH', 'lab_range', { validation_rules: { options: [{ label: 'Normal', value: 2 }] } });
    expect(clinicalOptions(tsh, [aRule('High', [cond(tsh.id, '>', 4.5)])]).map((o) => o.label)).toEqual([
      'TSH ≤ 4.5',
      'TSH > 4.5',
      'Not available',
    ]);
  });

  it('ignores entries without a usable value', () => {
    const odd = aParameter('odd', 'select', {
      validation_rules: { options: [{ label: 'No value' }, { label: 'Object', value: { x: 1 } }, 'plain'] },
    });
    expect(clinicalOptions(odd, []).map((o) => o.label)).toEqual(['odd = plain', 'Not available']);
  });
});
