import type { EngineParameter } from '../../engine';
import { answerLabel, answerProblem } from './answer-check';

const param = (data_type: string, validation_rules: Record<string, unknown> = {}): EngineParameter => ({
  id: 'p1', name: 'hba1c', display_name: 'HbA1c', data_type, validation_rules,
});

describe('answerProblem: an answer must fit the question asked', () => {
  const offered = [{ label: 'hba1c < 6.5', value: 5.5 }, { label: 'hba1c ≥ 6.5', value: 7.5 }];

  it('accepts any option offered, whatever its type', () => {
    expect(answerProblem(param('number'), [{ label: 'Not Sure', value: 'unknown' }], 'unknown')).toBeNull();
    expect(answerProblem(param('number'), offered, 7.5)).toBeNull();
  });

  it.each([
    ['number', 7.2], ['lab_range', { type: 'range', min: 6, max: 7 }], ['calculated', 31],
    ['boolean', false], ['date', '2025-03-01'], ['time_based', '2025-03-01T10:00:00Z'], ['text', 'metformin'], ['select', 'yes'],
  ])('accepts a %s answer of the right type (%j)', (type, value) => {
    expect(answerProblem(param(type), [], value)).toBeNull();
  });

  it.each([
    ['number', '7.2'], ['number', null], ['number', Number.NaN], ['number', true], ['number', { type: 'range', min: 8, max: 7 }],
    ['number', { type: 'range', min: 6, max: 7, extra: 1 }], ['boolean', 'true'], ['boolean', 1], ['date', '2025-02-30'],
    ['date', 20250301], ['text', ''], ['text', 'x'.repeat(1001)], ['text', 5], ['select', ['a']], ['mystery', { a: 1 }],
  ])('refuses a %s answer of the wrong type (case %#)', (type, value) => {
    expect(answerProblem(param(type), offered, value)).toMatch(/^value must be/);
  });

  it('a configured list of options is closed', () => {
    const p = param('select', { options: [{ label: 'Type 1', value: 't1' }] });
    expect(answerProblem(p, [{ label: 'Type 1', value: 't1' }], 't1')).toBeNull();
    expect(answerProblem(p, [{ label: 'Type 1', value: 't1' }], 't2')).toBe('value must be one of the options offered for HbA1c');
  });
});

describe('answerLabel', () => {
  it('is the label of the option chosen, else the value in words', () => {
    expect(answerLabel([{ label: 'Positive (Antibodies)', value: true }], true)).toBe('Positive (Antibodies)');
    expect(answerLabel([], 7.2)).toBe('7.2');
    expect(answerLabel([], { type: 'range', min: 6, max: 7 })).toBe('6–7');
  });
});
