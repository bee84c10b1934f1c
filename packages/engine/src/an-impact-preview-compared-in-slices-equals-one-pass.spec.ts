import { generatePopulation, ImpactComparer } from './impact';
import { aRule, cond, GLUCOSE, HBA1C } from './testing/builders';

/**
 * The API compares the impact preview's patients slice by slice to report "N of M patients
 * compared" (issue 23): the slices must add up to exactly the one-pass comparison, examples
 * included (they name the first patients of each kind).
 */
describe('raising the A1C diagnosis threshold to 7.0, compared in slices of 250 patients', () => {
  const rules = [
    aRule('T2D', [cond(HBA1C.id, '>=', 6.5)], { id: 't2d', actions: [{ type: 'recommendation', severity: 'high', message: 'T2D' }] }),
    aRule('Prediabetes', [cond(HBA1C.id, '>=', 5.7), cond(HBA1C.id, '<', 6.5)], { id: 'pre' }),
    aRule('IFG', [cond(GLUCOSE.id, '>=', 100), cond(GLUCOSE.id, '<', 126)], { id: 'ifg' }),
  ];
  const draft = [
    { ...rules[0], conditions: [cond(HBA1C.id, '>=', 7.0)] },
    { ...rules[1], conditions: [cond(HBA1C.id, '>=', 5.7), cond(HBA1C.id, '<', 7.0)] },
    rules[2],
  ];
  const parameters = [HBA1C, GLUCOSE];
  const patients = generatePopulation([...rules, ...draft], parameters, { size: 2_003, seed: 7, now: '2026-11-23' });
  const comparer = new ImpactComparer(rules, draft, parameters);
  const options = { examples: 5, transitions: 100, findingChanges: 25, findingExamples: 3 };

  it('gives the same transitions, finding changes, counts and examples as one pass', () => {
    const whole = comparer.compare(patients, options);
    const tally = comparer.tally(options);
    for (let start = 0; start < patients.length; start += 250) tally.add(patients, start, Math.min(start + 250, patients.length));
    const sliced = tally.result();
    expect(sliced).toEqual(whole);
    expect(sliced.patients).toBe(2_003);
    expect(sliced.transitions.find((t) => t.from === 't2d' && t.to === 'pre')?.examples.length).toBe(5);
  });

  it('refuses a slice out of order, which would name other patients as the examples', () => {
    const tally = comparer.tally(options);
    tally.add(patients, 0, 250);
    expect(() => tally.add(patients, 500, 750)).toThrow(RangeError);
  });
});
