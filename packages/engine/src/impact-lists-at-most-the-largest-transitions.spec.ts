import { ImpactComparer, type ImpactPatient } from './impact';
import { aParameter, aRule, cond } from './testing/builders';

/**
 * A sweeping edit of a large rule set can move patients along thousands of small paths; the
 * preview lists the largest ones up to its cap and counts the rest.
 */
describe('impact preview: transitions are capped, largest first', () => {
  // 16 flags, one rule each; the draft reverses their priorities, so a patient with flags i < j
  // moves from rule j to rule i: 16 × 15 / 2 = 120 distinct transitions.
  const flags = Array.from({ length: 16 }, (_, i) => aParameter(`flag${i}`, 'boolean'));
  const before = flags.map((f, i) => aRule(`Rule ${i}`, [cond(f.id, '=', true)], { id: `r${i}`, priority: i }));
  const after = before.map((r, i) => ({ ...r, priority: 100 - i }));
  const patients: ImpactPatient[] = [];
  for (let i = 0; i < flags.length; i++)
    for (let j = i + 1; j < flags.length; j++) {
      // Rule 1 → rule 0 is the largest transition: three patients make it.
      for (let k = i === 0 && j === 1 ? 3 : 1; k > 0; k--) patients.push({ answers: { [flags[i].id]: true, [flags[j].id]: true } });
    }
  const comparer = new ImpactComparer(before, after, flags);

  it('lists 100 of the 120 transitions, the largest first, and counts the 20 left out', () => {
    const result = comparer.compare(patients, { transitions: 100 });
    expect(result.changed).toBe(122);
    expect(result.transitions).toHaveLength(100);
    expect(result.more_transitions).toBe(20);
    expect(result.transitions[0]).toMatchObject({ from: 'r1', to: 'r0', count: 3 });
  });

  it('without a cap lists every transition', () => {
    const result = comparer.compare(patients);
    expect(result.transitions).toHaveLength(120);
    expect(result.more_transitions).toBe(0);
  });
});
