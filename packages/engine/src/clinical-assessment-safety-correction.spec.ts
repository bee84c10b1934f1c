import { clinicalStep } from './clinical';
import { evaluateRule } from './evaluate';
import { ANTIBODIES, assess, aRule, cond, HBA1C, TSH, WT_LB } from './testing/builders';

/**
 * The correction to the spec's clinical strategy (patient safety, issue 9): no rule "wins" at the
 * first full match; every rule is evaluated, the assessment ends when no unanswered question can
 * change which rules fire, and every fired rule is a finding. An unanswered value is unknown,
 * never false.
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

  describe('no rule wins at its first full match', () => {
    it('waits for the higher-ranked rule instead of recommending the lower one at the first answer', () => {
      expect(clinicalStep(rules, parameters, { [TSH.id]: 7 })).toMatchObject({ status: 'question', parameter_id: ANTIBODIES.id });
    });

    it('recommends the lower rule once the higher one is false', () => {
      const step = clinicalStep(rules, parameters, { [TSH.id]: 7, [ANTIBODIES.id]: false, [WT_LB.id]: 180 });
      expect(step).toMatchObject({ status: 'completed', recommendation: { rule_id: subclinical.id }, undetermined_rules: [] });
    });

    it('recommends the higher rule when it is satisfied, and still lists the lower one as a finding', () => {
      const step = clinicalStep(rules, parameters, { [TSH.id]: 7, [ANTIBODIES.id]: true, [WT_LB.id]: 180 });
      expect(step).toMatchObject({ status: 'completed', recommendation: { rule_id: hashimoto.id, severity: 'high' } });
      expect(step.status === 'completed' && step.findings.map((f) => f.rule_id)).toEqual([hashimoto.id, subclinical.id]);
    });
  });

  describe('the next question is the next unanswered parameter that some undecided rule still uses', () => {
    it('asks weight too: "Weight management" is undecided until it is answered (every finding is wanted)', () => {
      const { asked, final } = assess(rules, parameters, { [TSH.id]: 7, [ANTIBODIES.id]: false, [WT_LB.id]: 180 });
      expect(asked).toEqual(['TSH', 'Antibodies', 'Wt_lb']);
      expect(final.recommendation?.rule_id).toBe(subclinical.id);
    });

    it('skips Antibodies when TSH already rules out both thyroid rules', () => {
      const { asked, final } = assess(rules, parameters, { [TSH.id]: 2, [WT_LB.id]: 300 });
      expect(asked).toEqual(['TSH', 'Wt_lb']);
      expect(final.recommendation?.rule_id).toBe(weight.id);
    });
  });

  describe('when no remaining question can change the outcome but a higher-ranked rule is undetermined', () => {
    // Antibodies answered Not available: Hashimoto's can never be decided. Every satisfied rule is
    // a finding, and the result lists the undetermined rule so the clinician sees what could not
    // be ruled out.
    const answers = { [TSH.id]: 7, [ANTIBODIES.id]: 'unknown', [WT_LB.id]: 180 };

    it('recommends the highest-ranked satisfied rule', () => {
      expect(clinicalStep(rules, parameters, answers)).toMatchObject({ status: 'completed', recommendation: { rule_id: subclinical.id } });
    });

    it('lists the undetermined rules with the inputs that are unknown, and why', () => {
      const step = clinicalStep(rules, parameters, answers);
      const undetermined = [
        {
          rule_id: hashimoto.id,
          rule_name: "Hashimoto's thyroiditis",
          severity: 'high',
          unknown_parameters: [
            { parameter_id: ANTIBODIES.id, parameter_name: 'Antibodies', display_name: 'Thyroid Antibodies', reason: 'unknown_answer' },
          ],
        },
      ];
      expect(step).toMatchObject({ recommendation: { undetermined_higher_rules: undetermined }, undetermined_rules: undetermined });
      expect(step.log).toContainEqual(
        expect.objectContaining({ type: 'warning', message: `Could not be evaluated: "Hashimoto's thyroiditis"` }),
      );
    });

    it('lists undetermined rules ranked below the recommendation too, but not as higher-ranked', () => {
      const later = aRule('Zz later', [cond(HBA1C.id, '>', 7)]);
      const step = clinicalStep([subclinical, hashimoto, later], [...parameters, HBA1C], { ...answers, [HBA1C.id]: 'unknown' });
      expect(step.status === 'completed' && step.recommendation?.undetermined_higher_rules?.map((r) => r.rule_name)).toEqual([
        "Hashimoto's thyroiditis",
      ]);
      expect(step.status === 'completed' && step.undetermined_rules.map((r) => r.rule_name)).toEqual([
        "Hashimoto's thyroiditis",
        'Zz later',
      ]);
    });
  });

  describe('if nothing is satisfied', () => {
    it('completes with no recommendation, listing the rules that could not be decided', () => {
      const step = clinicalStep([hashimoto], parameters, { [TSH.id]: 7, [ANTIBODIES.id]: 'unknown' });
      expect(step).toMatchObject({
        status: 'completed',
        recommendation: null,
        findings: [],
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
