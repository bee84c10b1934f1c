import { evaluateRule } from './evaluate';
import { buildParameterIndex, resolveParameter } from './parameters';
import { aParameter, aRule, cond } from './testing/builders';

describe('Parameter lookup: "Parameter lookup matches by id, then by name ignoring case, then by display name ignoring case."', () => {
  // Three parameters whose id, name and display name collide on purpose.
  const byId = aParameter('first', 'number', { id: 'weight', display_name: 'Body mass' });
  const byName = aParameter('Weight', 'number', { id: 'p-2', display_name: 'Mass' });
  const byDisplay = aParameter('wt', 'number', { id: 'p-3', display_name: 'WEIGHT KG' });
  const index = buildParameterIndex([byDisplay, byName, byId]);

  it('matches the id first', () => {
    expect(resolveParameter('weight', index)).toEqual({ parameter: byId, matchedBy: 'id', ambiguous: false });
  });

  it('then the name, ignoring case', () => {
    expect(resolveParameter('WEIGHT', index)?.parameter).toBe(byId); // the id, ignoring case, still wins
    expect(resolveParameter('Weight', buildParameterIndex([byName, byDisplay]))).toEqual({
      parameter: byName,
      matchedBy: 'name',
      ambiguous: false,
    });
  });

  it('then the display name, ignoring case', () => {
    expect(resolveParameter('weight kg', index)).toEqual({ parameter: byDisplay, matchedBy: 'display_name', ambiguous: false });
  });

  it('finds nothing for an unknown reference, so its answer is looked up under the reference itself', () => {
    expect(resolveParameter('height', index)).toBeNull();
    expect(evaluateRule(aRule('R', [cond('height', '>', 70)]), { height: 72 }, [byId]).result).toBe(true);
  });

  it('flags a reference that fits several parameters at the level it matched', () => {
    const twins = buildParameterIndex([aParameter('dup', 'number', { id: 'a' }), aParameter('DUP', 'number', { id: 'b' })]);
    expect(resolveParameter('dup', twins)).toMatchObject({ parameter: { id: 'a' }, matchedBy: 'name', ambiguous: true });
  });

  it('evaluates a condition written with a name against the answer stored under the id', () => {
    expect(evaluateRule(aRule('R', [cond('mass', '>', 70)]), { 'p-2': 80 }, [byName]).result).toBe(true);
  });
});
