import { clinicalStep } from './clinical';
import { ANTIBODIES, assess, aRule, cond, TSH, WT_LB } from './testing/builders';

describe('Clinical assessment: "The first rule whose conditions are all satisfied wins"', () => {
  const hashimoto = aRule("Hashimoto's thyroiditis", [cond(TSH.id, '>', 4.5), cond(ANTIBODIES.id, 'equals', true)]);
  const subclinical = aRule('Subclinical hypothyroidism', [cond(TSH.id, '>', 4.5)]);
  const parameters = [TSH, ANTIBODIES, WT_LB];

  it('recommends the highest-ranked satisfied rule when several are satisfied', () => {
    const step = clinicalStep([subclinical, hashimoto], parameters, { [TSH.id]: 7, [ANTIBODIES.id]: true });
    expect(step).toMatchObject({ status: 'completed', recommendation: { rule_id: hashimoto.id } });
  });

  it('falls through to the next rule when the first is not satisfied', () => {
    const step = clinicalStep([subclinical, hashimoto], parameters, { [TSH.id]: 7, [ANTIBODIES.id]: false });
    expect(step).toMatchObject({ status: 'completed', recommendation: { rule_id: subclinical.id } });
  });

  it('honours OR links: the rule is satisfied when one branch is', () => {
    const either = aRule('Thyroid work-up', [cond(TSH.id, '>', 10, 'OR'), cond(ANTIBODIES.id, 'equals', true)]);
    expect(clinicalStep([either], parameters, { [TSH.id]: 2, [ANTIBODIES.id]: true })).toMatchObject({
      status: 'completed',
      recommendation: { rule_id: either.id },
    });
  });

  // Deliberate correction: read literally, "Subclinical" would win at the first answer (TSH 7)
  // because "Hashimoto's" fails on the still-missing Antibodies answer.
  it('does not let a lower-ranked rule win while a more specific rule above it waits on an answer', () => {
    const first = clinicalStep([subclinical, hashimoto], parameters, { [TSH.id]: 7 });
    expect(first).toMatchObject({ status: 'question', parameter_id: ANTIBODIES.id });
    const { asked, final } = assess([subclinical, hashimoto], parameters, { [TSH.id]: 7, [ANTIBODIES.id]: true });
    expect(asked).toEqual(['TSH', 'Antibodies']);
    expect(final.recommendation?.rule_id).toBe(hashimoto.id);
  });
});
