import { ImpactComparer } from './impact';
import { aRule, cond, GLUCOSE, HBA1C } from './testing/builders';

/**
 * Impact preview, one clinical situation: the published version says diabetes from A1C ≥ 6.5 %,
 * the draft raises it to 7.0 % and widens prediabetes to < 7.0 %. A patient at 6.7 % moves from
 * diabetes to prediabetes, and the diabetes rule, whose edit let the patient go, is responsible.
 */
describe('raising the A1C diagnosis threshold to 7.0 reclassifies a 6.7 % patient from T2D to prediabetes', () => {
  const high = [{ type: 'recommendation', severity: 'high', message: 'Diagnose type 2 diabetes' }];
  const medium = [{ type: 'lifestyle', severity: 'medium', message: 'Refer to a diabetes prevention programme' }];
  const t2d = aRule('Type 2 diabetes (A1C)', [cond(HBA1C.id, '>=', 6.5)], { actions: high });
  const prediabetes = aRule('Prediabetes (A1C)', [cond(HBA1C.id, '>=', 5.7), cond(HBA1C.id, '<', 6.5)], { actions: medium });
  const glucose = aRule('Diabetes (fasting glucose)', [cond(GLUCOSE.id, '>=', 126)], { actions: high });
  const published = [t2d, prediabetes, glucose];
  const draft = [
    { ...t2d, conditions: [cond(HBA1C.id, '>=', 7.0)] },
    { ...prediabetes, conditions: [cond(HBA1C.id, '>=', 5.7), cond(HBA1C.id, '<', 7.0)] },
    glucose,
  ];
  const comparer = new ImpactComparer(published, draft, [HBA1C, GLUCOSE]);

  it('moves the 6.7 % patient from T2D to prediabetes, caused by the edited diabetes rule', () => {
    const result = comparer.compare([{ answers: { [HBA1C.id]: 6.7 } }]);
    expect(result).toEqual({
      patients: 1,
      changed: 1,
      transitions: [{ from: t2d.id, to: prediabetes.id, cause: t2d.id, cause_kind: 'edited', count: 1, examples: [0] }],
      more_transitions: 0,
      findings_changed: 1,
      finding_changes: [
        { rule: prediabetes.id, change: 'gained', cause_kind: 'edited', count: 1, same_primary: 0, examples: [0] },
        { rule: t2d.id, change: 'lost', cause_kind: 'edited', count: 1, same_primary: 0, examples: [0] },
      ],
      more_finding_changes: 0,
    });
  });

  it('leaves the primary recommendation of 6.4 % (prediabetes), 7.2 % (T2D) and a 6.7 % patient diagnosed by glucose where it was', () => {
    const result = comparer.compare([
      { answers: { [HBA1C.id]: 6.4 } },
      { answers: { [HBA1C.id]: 7.2 } },
      { answers: { [HBA1C.id]: 6.7, [GLUCOSE.id]: 130 } },
    ]);
    expect(result).toMatchObject({ patients: 3, changed: 0, transitions: [], more_transitions: 0 });
  });

  // Issue 20: comparing only the top finding hid this patient's lost A1C diagnosis behind the glucose one.
  it('the 6.7 % patient diagnosed by glucose keeps the top finding but loses "Type 2 diabetes (A1C)": the preview counts it', () => {
    const result = comparer.compare([{ answers: { [HBA1C.id]: 6.4 } }, { answers: { [HBA1C.id]: 6.7, [GLUCOSE.id]: 130 } }]);
    expect(result.findings_changed).toBe(1);
    expect(result.finding_changes).toEqual([
      { rule: prediabetes.id, change: 'gained', cause_kind: 'edited', count: 1, same_primary: 1, examples: [1] },
      { rule: t2d.id, change: 'lost', cause_kind: 'edited', count: 1, same_primary: 1, examples: [1] },
    ]);
  });

  it('counts every 6.5 to 6.9 % patient in one transition and keeps the first few as examples', () => {
    const patients = [6.5, 6.6, 6.7, 6.8, 6.9, 6.7, 6.6].map((v) => ({ answers: { [HBA1C.id]: v } }));
    const result = comparer.compare(patients, { examples: 3 });
    expect(result.changed).toBe(7);
    expect(result.transitions).toHaveLength(1);
    expect(result.transitions[0]).toMatchObject({ count: 7, examples: [0, 1, 2] });
  });

  it('an unanswered A1C is unknown for both versions: no finding before, none after', () => {
    expect(comparer.compare([{ answers: {} }]).changed).toBe(0);
  });
});
