import { ImpactComparer } from './impact';
import { aRule, anAction, cond, HBA1C, SBP } from './testing/builders';

/**
 * Issue 20: the impact preview compared only the primary recommendation. Raising the A1C diabetes
 * cut-point from 6.5 to 7.0 % takes "Diabetes" from every patient at 6.5–6.9 %, but for a patient
 * whose top finding is a hypertensive crisis the top finding does not move, so the preview said
 * nothing. Every finding is now compared.
 */
describe('raising the A1C cut-point to 7.0 removes "Diabetes" from 6.5–6.9 % even when a crisis is primary', () => {
  const crisis = aRule('Hypertensive crisis', [cond(SBP.id, '>', 180)], {
    priority: 100,
    actions: [anAction('Same-day evaluation', { severity: 'critical' })],
  });
  const diabetes = aRule('Diabetes', [cond(HBA1C.id, '>=', 6.5)], { priority: 50, actions: [anAction('Diagnose', { severity: 'high' })] });
  const draft = [crisis, { ...diabetes, conditions: [cond(HBA1C.id, '>=', 7.0)] }];
  const comparer = new ImpactComparer([crisis, diabetes], draft, [HBA1C, SBP]);
  const crisisAt = (a1c: number) => ({ answers: { [HBA1C.id]: a1c, [SBP.id]: 190 } });

  it('no primary recommendation changes, yet "Diabetes" is lost by each 6.5–6.9 % patient', () => {
    const patients = [6.4, 6.5, 6.7, 6.9, 7.0, 7.3].map(crisisAt);
    const result = comparer.compare(patients);
    expect(result).toMatchObject({ patients: 6, changed: 0, transitions: [], findings_changed: 3 });
    expect(result.finding_changes).toEqual([
      { rule: diabetes.id, change: 'lost', cause_kind: 'edited', count: 3, same_primary: 3, examples: [1, 2, 3] },
    ]);
  });

  it('without the crisis the same patients change primary recommendation too, and still lose the finding', () => {
    const result = comparer.compare([{ answers: { [HBA1C.id]: 6.7 } }]);
    expect(result).toMatchObject({
      changed: 1,
      transitions: [{ from: diabetes.id, to: null, cause: diabetes.id, cause_kind: 'edited', count: 1 }],
      finding_changes: [{ rule: diabetes.id, change: 'lost', count: 1, same_primary: 0 }],
    });
  });

  it('a rule that did not change, on a patient whose findings did not change, is not listed', () => {
    expect(comparer.compare([crisisAt(7.3), crisisAt(6.0)])).toMatchObject({
      findings_changed: 0,
      finding_changes: [],
      more_finding_changes: 0,
    });
  });

  it('a removed rule is lost by everyone it fired for; an added one gained', () => {
    const lowered = aRule('Diabetes at 6.0', [cond(HBA1C.id, '>=', 6.0)], { priority: 50 });
    const swap = new ImpactComparer([crisis, diabetes], [crisis, lowered], [HBA1C, SBP]);
    const result = swap.compare([crisisAt(6.7)]);
    expect(result.finding_changes).toEqual([
      { rule: lowered.id, change: 'gained', cause_kind: 'added', count: 1, same_primary: 1, examples: [0] },
      { rule: diabetes.id, change: 'lost', cause_kind: 'removed', count: 1, same_primary: 1, examples: [0] },
    ]);
  });

  it('an unchanged rule read through a changed parameter definition is compared too (cause: parameters)', () => {
    // The rule names its parameter; after the rename it reads nothing, so its finding is lost.
    const byName = aRule('Diabetes (by name)', [cond('hba1c', '>=', 6.5)], { priority: 50 });
    const renamed = new ImpactComparer(
      [crisis, byName],
      [crisis, byName],
      [HBA1C, SBP],
      [{ ...HBA1C, name: 'a1c_retired', display_name: 'Retired A1C' }, SBP],
    );
    expect(renamed.compare([crisisAt(6.7)]).finding_changes).toEqual([
      { rule: byName.id, change: 'lost', cause_kind: 'parameters', count: 1, same_primary: 1, examples: [0] },
    ]);
  });
});
