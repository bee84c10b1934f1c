import { ImpactComparer } from './impact';
import { aParameter, aRule, cond, GLUCOSE, HBA1C } from './testing/builders';

/**
 * Impact preview: which rule is responsible for a change of top finding. A new critical rule
 * takes the top finding from a rule that still fires; a removed rule lets its patients go.
 */
describe('adding a critical hypoglycaemia rule takes the top finding; removing a rule lets its patients go', () => {
  const GLUCOSE_NOW = aParameter('glucose_now', 'lab_range', { units: 'mg/dL' });
  const t2d = aRule('Type 2 diabetes (A1C)', [cond(HBA1C.id, '>=', 6.5)], {
    actions: [{ type: 'recommendation', severity: 'high', message: 'T2D' }],
  });
  const ifg = aRule('Impaired fasting glucose', [cond(GLUCOSE.id, '>=', 100), cond(GLUCOSE.id, '<', 126)]);
  const hypo = aRule('Hypoglycaemia', [cond(GLUCOSE_NOW.id, '<', 54)], {
    actions: [{ type: 'referral', severity: 'critical', message: 'Treat now' }],
  });
  const parameters = [HBA1C, GLUCOSE, GLUCOSE_NOW];

  it('a patient with A1C 7.1 % and glucose 50 mg/dL moves from T2D to hypoglycaemia, caused by the added rule', () => {
    const result = new ImpactComparer([t2d], [t2d, hypo], parameters).compare([{ answers: { [HBA1C.id]: 7.1, [GLUCOSE_NOW.id]: 50 } }]);
    expect(result.transitions).toEqual([{ from: t2d.id, to: hypo.id, cause: hypo.id, cause_kind: 'added', count: 1, examples: [0] }]);
  });

  it('removing the A1C rule moves a 6.8 % patient with fasting glucose 110 to impaired fasting glucose, caused by the removal', () => {
    const result = new ImpactComparer([t2d, ifg], [ifg], parameters).compare([
      { answers: { [HBA1C.id]: 6.8, [GLUCOSE.id]: 110 } },
      { answers: { [HBA1C.id]: 6.8 } },
    ]);
    expect(result.transitions).toEqual([
      { from: t2d.id, to: null, cause: t2d.id, cause_kind: 'removed', count: 1, examples: [1] },
      { from: t2d.id, to: ifg.id, cause: t2d.id, cause_kind: 'removed', count: 1, examples: [0] },
    ]);
  });

  it("raising a rule's priority above another that fires for the same patient makes it responsible", () => {
    const both = { answers: { [HBA1C.id]: 7.1, [GLUCOSE.id]: 110 } };
    const mediumT2d = { ...t2d, priority: 5, actions: [{ type: 'recommendation', severity: 'medium', message: 'T2D' }] };
    const raised = { ...ifg, priority: 10 };
    const result = new ImpactComparer([mediumT2d, ifg], [mediumT2d, raised], parameters).compare([both]);
    expect(result.transitions).toEqual([{ from: mediumT2d.id, to: ifg.id, cause: ifg.id, cause_kind: 'edited', count: 1, examples: [0] }]);
  });
});
