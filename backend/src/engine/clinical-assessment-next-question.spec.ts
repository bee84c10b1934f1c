import { clinicalStep } from './clinical';
import { ANTIBODIES, assess, aRule, cond, GLUCOSE, HBA1C, TSH, WT_LB } from './testing/builders';

describe('Clinical assessment: "Otherwise the next unanswered parameter is asked."', () => {
  const rules = [
    aRule('Thyroid and weight', [cond(TSH.id, '>', 4.5), cond(WT_LB.id, '>', 250)]),
    aRule('Glycaemia', [cond(HBA1C.id, '>', 6.5), cond(GLUCOSE.id, '>', 126)]),
  ];
  const parameters = [HBA1C, GLUCOSE, WT_LB, TSH];

  it('asks the next unanswered parameter in clinical order', () => {
    expect(clinicalStep(rules, parameters, { [TSH.id]: 6 })).toMatchObject({ status: 'question', parameter_id: WT_LB.id });
  });

  it('asks the parameter with its display name, default wording and derived options', () => {
    // "Thyroid and weight" is satisfied, but "Glycaemia" ranks above it (same size, name first)
    // and is still undetermined, so its first parameter is asked.
    expect(clinicalStep(rules, parameters, { [TSH.id]: 6, [WT_LB.id]: 300 })).toEqual(
      expect.objectContaining({
        status: 'question',
        parameter_id: HBA1C.id,
        parameter_name: 'hba1c',
        display_name: 'HbA1c',
        text: 'What is your hba1c?',
        options: [
          { label: 'hba1c < 6.5', value: 5.5 },
          { label: 'hba1c ≥ 6.5', value: 7.5 },
        ],
      }),
    );
  });

  // Deliberate correction: only questions that can still change the outcome are asked.
  it('skips a parameter whose rules are already decided', () => {
    // TSH 2 makes "Thyroid and weight" false, so weight can no longer matter.
    const { asked } = assess(rules, parameters, { [TSH.id]: 2, [HBA1C.id]: 7, [GLUCOSE.id]: 130 });
    expect(asked).toEqual(['TSH', 'hba1c', 'fasting_glucose']);
  });

  it('skips parameters used only by rules ranked below one that has already won', () => {
    const hashimoto = aRule("Hashimoto's", [cond(TSH.id, '>', 4.5), cond(ANTIBODIES.id, 'equals', true)]);
    const weight = aRule('Weight', [cond(WT_LB.id, '>', 250)]);
    const { asked, final } = assess([hashimoto, weight], [TSH, ANTIBODIES, WT_LB], { [TSH.id]: 8, [ANTIBODIES.id]: true });
    expect(asked).toEqual(['TSH', 'Antibodies']);
    expect(final.recommendation?.rule_name).toBe("Hashimoto's");
  });

  it('does not ask a parameter in a part of a rule already made false', () => {
    const rule = aRule('Split', [cond(TSH.id, '>', 4.5), cond(WT_LB.id, '>', 250, 'OR'), cond(HBA1C.id, '>', 7)]);
    const { asked } = assess([rule], [TSH, WT_LB, HBA1C], { [TSH.id]: 2, [HBA1C.id]: 6 });
    expect(asked).toEqual(['TSH', 'hba1c']);
  });
});
