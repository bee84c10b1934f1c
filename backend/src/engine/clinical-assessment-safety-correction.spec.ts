import { clinicalStep } from './clinical';
import { evaluateRule } from './evaluate';
import { ANTIBODIES, assess, aRule, cond, HBA1C, TSH, WT_LB } from './testing/builders';

/**
 * The one deliberate correction to the spec's clinical strategy (patient safety): a rule wins
 * once it is satisfied and every rule ranked above it is already false, and only questions
 * that can still change the outcome are asked. An unanswered value is unknown, never false.
 */
describe('Clinical assessment: safety correction to "first full match wins"', () => {
  const hashimoto = aRule("Hashimoto's thyroiditis", [cond(TSH.id, '>', 4.5), cond(ANTIBODIES.id, 'equals', true)], {
    actions: [{ type: 'referral', severity: 'high', message: 'Refer to endocrinology' }],
  });
  const subclinical = aRule('Subclinical hypothyroidism', [cond(TSH.id, '>', 4.5)], {
    actions: [{ type: 'monitoring', severity: 'low', message: 'Recheck TSH in 6 weeks' }],
  });
  const weight = aRule('Weight management', [cond(WT_LB.id, '>', 250)]);
  const rules = [subclinical, hashimoto, weight];
  const parameters = [TSH, ANTIBODIES, WT_LB];

  describe('a rule wins once it is satisfied and every rule ranked above it is already false', () => {
    it('waits for the higher-ranked rule instead of recommending the lower one at the first answer', () => {
      expect(clinicalStep(rules, parameters, { [TSH.id]: 7 })).toMatchObject({ status: 'question', parameter_id: ANTIBODIES.id });
    });

    it('recommends the lower rule once the higher one is false', () => {
      const step = clinicalStep(rules, parameters, { [TSH.id]: 7, [ANTIBODIES.id]: false });
      expect(step).toMatchObject({ status: 'completed', recommendation: { rule_id: subclinical.id }, undetermined_rules: [] });
    });

    it('recommends the higher rule when it is satisfied', () => {
      const step = clinicalStep(rules, parameters, { [TSH.id]: 7, [ANTIBODIES.id]: true });
      expect(step).toMatchObject({ status: 'completed', recommendation: { rule_id: hashimoto.id, severity: 'high' } });
    });
  });

  describe('the next question is the next unanswered parameter that some undecided rule still uses', () => {
    it('never asks weight once a thyroid rule has won, because it cannot change the outcome', () => {
      const { asked, final } = assess(rules, parameters, { [TSH.id]: 7, [ANTIBODIES.id]: false });
      expect(asked).toEqual(['TSH', 'Antibodies']);
      expect(final.recommendation?.rule_id).toBe(subclinical.id);
    });

    it('skips Antibodies when TSH already rules out both thyroid rules', () => {
      const { asked, final } = assess(rules, parameters, { [TSH.id]: 2, [WT_LB.id]: 300 });
      expect(asked).toEqual(['TSH', 'Wt_lb']);
      expect(final.recommendation?.rule_id).toBe(weight.id);
    });
  });

  describe('when no remaining question can change the outcome but a higher-ranked rule is undetermined', () => {
    // Antibodies answered "unknown" (the "(no specific range)"-style option): Hashimoto's can
    // never be decided. The highest-ranked satisfied rule wins, and the result names the
    // undetermined rule above it so the clinician sees what could not be ruled out.
    const answers = { [TSH.id]: 7, [ANTIBODIES.id]: 'unknown' };

    it('recommends the highest-ranked satisfied rule', () => {
      expect(clinicalStep(rules, parameters, answers)).toMatchObject({ status: 'completed', recommendation: { rule_id: subclinical.id } });
    });

    it('lists the undetermined higher-ranked rules with the parameters that are unknown', () => {
      const step = clinicalStep(rules, parameters, answers);
      const undetermined = [
        {
          rule_id: hashimoto.id,
          rule_name: "Hashimoto's thyroiditis",
          unknown_parameters: [{ parameter_id: ANTIBODIES.id, parameter_name: 'Antibodies' }],
        },
      ];
      expect(step).toMatchObject({ recommendation: { undetermined_higher_rules: undetermined }, undetermined_rules: undetermined });
      expect(step.log).toContainEqual(
        expect.objectContaining({
          type: 'warning',
          message: `Rule "Subclinical hypothyroidism" is recommended, but higher-ranked rules could not be determined: "Hashimoto's thyroiditis"`,
        }),
      );
    });

    it('does not list undetermined rules ranked below the winner', () => {
      const step = clinicalStep([subclinical, hashimoto, aRule('Zz later', [cond(HBA1C.id, '>', 7)])], [...parameters, HBA1C], answers);
      expect(step.status === 'completed' && step.recommendation?.undetermined_higher_rules?.map((r) => r.rule_name)).toEqual([
        "Hashimoto's thyroiditis",
      ]);
    });
  });

  describe('if nothing is satisfied', () => {
    it('completes with no recommendation, listing the rules that could not be decided', () => {
      const step = clinicalStep([hashimoto], parameters, { [TSH.id]: 7, [ANTIBODIES.id]: 'unknown' });
      expect(step).toMatchObject({
        status: 'completed',
        recommendation: null,
        undetermined_rules: [{ rule_id: hashimoto.id }],
      });
      expect(step.log.at(-1)).toMatchObject({ type: 'warning', message: 'Assessment completed without finding a matching rule' });
    });
  });

  it('treats an unanswered value as unknown, never false: a not_equals condition does not pass on a missing answer', () => {
    const notPositive = aRule('Antibody negative', [cond(ANTIBODIES.id, 'not_equals', true)]);
    expect(evaluateRule(notPositive, {}, parameters).result).toBe('unknown');
    expect(clinicalStep([notPositive], parameters, {})).toMatchObject({ status: 'question', parameter_id: ANTIBODIES.id });
  });
});
