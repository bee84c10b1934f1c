import { assess, aRule, cond, GLUCOSE, HBA1C } from './testing/builders';

/** Issue 9: "Not measured" can be recorded, and it is unknown, never false or true. */
describe('Not available leaves the rule undetermined and listed with its missing input', () => {
  const diabetes = aRule('Type 2 diabetes', [cond(HBA1C.id, '>=', 6.5), cond(GLUCOSE.id, '>=', 126)], {
    actions: [{ type: 'recommendation', severity: 'high', message: 'Diagnose T2D' }],
  });

  it('lists the rule under "could not be evaluated" with the input that was not available', () => {
    const { final } = assess([diabetes], [HBA1C, GLUCOSE], { [HBA1C.id]: 7.2, [GLUCOSE.id]: 'unknown' });
    expect(final).toMatchObject({
      recommendation: null,
      findings: [],
      undetermined_rules: [
        {
          rule_name: 'Type 2 diabetes',
          severity: 'high',
          unknown_parameters: [{ parameter_id: GLUCOSE.id, display_name: 'Fasting Glucose', reason: 'unknown_answer' }],
        },
      ],
    });
  });

  it('does not list it when another answer already rules it out', () => {
    const { asked, final } = assess([diabetes], [HBA1C, GLUCOSE], { [HBA1C.id]: 5.2, [GLUCOSE.id]: 'unknown' });
    expect(asked).toEqual(['hba1c']);
    expect(final.undetermined_rules).toEqual([]);
  });
});
