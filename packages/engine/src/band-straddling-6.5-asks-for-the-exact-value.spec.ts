import { clinicalStep } from './clinical';
import { assess, aRule, band, cond, HBA1C } from './testing/builders';

/**
 * Issue 9: a band across a threshold says nothing about the rule; the assessment asks once for
 * the exact value, and a second band leaves the rule undetermined rather than guessing.
 */
describe('A band straddling 6.5 % is unknown and the exact value is asked', () => {
  const diabetes = aRule('Diabetes (A1C)', [cond(HBA1C.id, '>=', 6.5)]);
  const straddling = band(6, 7, true, false);

  it('leaves the rule unknown and asks HbA1c again, naming the threshold', () => {
    const step = clinicalStep([diabetes], [HBA1C], { [HBA1C.id]: straddling });
    expect(step).toMatchObject({
      status: 'question',
      parameter_id: HBA1C.id,
      exact_value_requested: true,
      question: { exact_value_requested: true },
    });
    expect(step.status === 'question' && step.exact_value_reason).toBe(
      'The band given spans HbA1c ≥ 6.5 % (rule "Diabetes (A1C)"); enter the exact value.',
    );
  });

  it('decides the rule from the exact value given at the second ask', () => {
    const { asked, exactRequested, final } = assess([diabetes], [HBA1C], { [HBA1C.id]: [straddling, 6.8] });
    expect(asked).toEqual(['hba1c', 'hba1c']);
    expect(exactRequested).toEqual([HBA1C.id]);
    expect(final.recommendation?.rule_name).toBe('Diabetes (A1C)');
  });

  it('asks only once: a second non-exact answer leaves the rule undetermined, with the reason', () => {
    const { asked, final } = assess([diabetes], [HBA1C], { [HBA1C.id]: [straddling, band(6.2, 6.9, true, true)] });
    expect(asked).toEqual(['hba1c', 'hba1c']);
    expect(final).toMatchObject({
      recommendation: null,
      undetermined_rules: [
        { rule_name: 'Diabetes (A1C)', unknown_parameters: [{ parameter_id: HBA1C.id, reason: 'straddles_threshold' }] },
      ],
    });
  });

  it('does not ask again when the band already decides every rule', () => {
    expect(clinicalStep([diabetes], [HBA1C], { [HBA1C.id]: band(7, 8, true, true) })).toMatchObject({ status: 'completed' });
  });
});
