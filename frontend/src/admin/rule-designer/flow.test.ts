import { describe, expect, it } from 'vitest';
import { parameter } from '../test/fixtures';
import { buildFlow, conditionLabel, cutText } from './flow';
import type { RuleDraft } from './draft';

const hba1c = parameter({ id: 'p-1', display_name: 'HbA1c', units: '%', data_type: 'lab_range' });
const ab = parameter({ id: 'p-2', display_name: 'Antibodies', data_type: 'boolean', units: null });

const draft = (o: Partial<RuleDraft>): RuleDraft => ({
  name: 'Poor control',
  description: '',
  priority: '0',
  conditions: [],
  actions: [],
  ...o,
});

describe('flow preview model', () => {
  it('a condition reads its unit as people write it ("mmHg", not the UCUM code)', () => {
    const sbp = parameter({ id: 'p-9', display_name: 'Systolic BP', units: 'mm[Hg]', data_type: 'number' });
    expect(conditionLabel({ parameter: 'p-9', operator: 'greater_equal', value: '180' }, [sbp])).toBe('Systolic BP ≥ 180 mmHg');
  });

  it('no data: "No rule data to preview"', () => {
    expect(buildFlow(draft({}), [])).toEqual({ empty: true, message: 'No rule data to preview' });
  });

  it('start node with the rule name, conditions joined by their logic, the decision, actions with Yes on the first branch', () => {
    const model = buildFlow(
      draft({
        conditions: [
          { key: 'a', parameter: 'p-1', operator: 'greater_than', value: '7', logic: 'OR' },
          { key: 'b', parameter: 'p-2', operator: 'equals', value: 'true', logic: 'AND' },
        ],
        actions: [
          { key: 'x', type: 'recommendation', severity: 'high', message: 'Intensify therapy' },
          { key: 'y', type: 'referral', severity: 'medium', message: 'Refer to endocrinology' },
        ],
      }),
      [hba1c, ab],
    );
    if (model.empty) throw new Error('expected a flow');
    expect(model.nodes.map((n) => [n.type, n.data.label])).toEqual([
      ['start', 'Poor control'],
      ['condition', 'HbA1c > 7 %'],
      ['condition', 'Antibodies Is True'],
      ['decision', 'Conditions Met?'],
      ['action', 'Intensify therapy'],
      ['action', 'Refer to endocrinology'],
    ]);
    expect(model.edges.map((e) => [e.source, e.target, e.label])).toEqual([
      ['start', 'condition-0', undefined],
      ['condition-0', 'condition-1', 'OR'],
      ['condition-1', 'decision', undefined],
      ['decision', 'action-0', 'Yes'],
      ['decision', 'action-1', undefined],
    ]);
    expect(model.nodes[5].data.actionType).toBe('referral');
  });

  it('conditions but no actions: "No actions defined"', () => {
    const model = buildFlow(draft({ conditions: [{ key: 'a', parameter: 'p-1', operator: 'less_than', value: '5', logic: 'AND' }] }), [
      hba1c,
    ]);
    if (model.empty) throw new Error('expected a flow');
    expect(model.nodes.at(-1)).toMatchObject({ type: 'note', data: { label: 'No actions defined' } });
  });

  it('cuts action text at 50 characters, then "..."', () => {
    const long = 'Start metformin 500 mg twice daily with meals and review in 3 months';
    expect(cutText(long)).toBe(`${long.slice(0, 50)}...`);
    expect(cutText('x'.repeat(50))).toBe('x'.repeat(50));
    const model = buildFlow(draft({ actions: [{ key: 'x', type: 'medication', severity: 'medium', message: long }] }), []);
    if (model.empty) throw new Error('expected a flow');
    expect(model.nodes.find((n) => n.type === 'action')!.data.label).toHaveLength(53);
  });
});
