import { clinicalStep } from './clinical';
import { ANTIBODIES, assess, aRule, band, cond, GLUCOSE, HBA1C, TSH, WT_LB } from './testing/builders';

describe('Clinical assessment: the next question is the next unanswered parameter that can still change which rules fire', () => {
  const rules = [
    aRule('Thyroid and weight', [cond(TSH.id, '>', 4.5), cond(WT_LB.id, '>', 250)]),
    aRule('Glycaemia', [cond(HBA1C.id, '>', 6.5), cond(GLUCOSE.id, '>', 126)]),
  ];
  const parameters = [HBA1C, GLUCOSE, WT_LB, TSH];

  it('asks the next unanswered parameter in clinical order', () => {
    expect(clinicalStep(rules, parameters, { [TSH.id]: 6 })).toMatchObject({ status: 'question', parameter_id: WT_LB.id });
  });

  it('asks the parameter with its display name, default wording, typed entry and partition bands', () => {
    expect(clinicalStep(rules, parameters, { [TSH.id]: 6, [WT_LB.id]: 300 })).toEqual(
      expect.objectContaining({
        status: 'question',
        parameter_id: HBA1C.id,
        parameter_name: 'hba1c',
        display_name: 'HbA1c',
        text: 'What is your hba1c?',
        input: {
          kind: 'number',
          unit: '%',
          unit_display: '%',
          units_accepted: [{ code: '%', display: '%' }],
          min: null,
          max: null,
          decimals: null,
        },
        options: [
          { label: 'HbA1c ≤ 6.5 %', value: band(null, 6.5, false, true) },
          { label: 'HbA1c > 6.5 %', value: band(6.5, null, false, false) },
          { label: 'Not available', value: 'unknown' },
        ],
      }),
    );
  });

  it('skips a parameter whose rules are already decided', () => {
    // TSH 2 makes "Thyroid and weight" false, so weight can no longer matter.
    const { asked } = assess(rules, parameters, { [TSH.id]: 2, [HBA1C.id]: 7, [GLUCOSE.id]: 130 });
    expect(asked).toEqual(['TSH', 'hba1c', 'fasting_glucose']);
  });

  it('still asks parameters of lower-ranked rules once a higher one has fired: every finding is wanted', () => {
    const hashimoto = aRule("Hashimoto's", [cond(TSH.id, '>', 4.5), cond(ANTIBODIES.id, 'equals', true)]);
    const weight = aRule('Weight', [cond(WT_LB.id, '>', 250)]);
    const { asked, final } = assess([hashimoto, weight], [TSH, ANTIBODIES, WT_LB], { [TSH.id]: 8, [ANTIBODIES.id]: true, [WT_LB.id]: 300 });
    expect(asked).toEqual(['TSH', 'Antibodies', 'Wt_lb']);
    expect(final.findings.map((f) => f.rule_name)).toEqual(["Hashimoto's", 'Weight']);
  });

  it('does not ask a parameter in a part of a rule already made false', () => {
    const rule = aRule('Split', [cond(TSH.id, '>', 4.5), cond(WT_LB.id, '>', 250, 'OR'), cond(HBA1C.id, '>', 7)]);
    const { asked } = assess([rule], [TSH, WT_LB, HBA1C], { [TSH.id]: 2, [HBA1C.id]: 6 });
    expect(asked).toEqual(['TSH', 'hba1c']);
  });
});
