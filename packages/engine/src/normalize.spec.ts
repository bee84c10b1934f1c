import { normalizeAction, normalizeCondition } from './normalize';

describe('normalizeCondition', () => {
  it.each(['parameter', 'parameter_id', 'parameterId', 'field', 'name'])('reads the parameter from the older key %s', (key) => {
    expect(normalizeCondition({ [key]: 'p-hba1c', operator: '>', value: 7 }).parameter).toBe('p-hba1c');
  });

  it('prefers `parameter` over the older keys when both are present', () => {
    expect(normalizeCondition({ name: 'old', parameter_id: 'older', parameter: 'p-new', operator: '>' }).parameter).toBe('p-new');
  });

  it('skips blank keys and takes the first one filled in', () => {
    expect(normalizeCondition({ parameter: '  ', parameter_id: 'p-1', operator: '>' }).parameter).toBe('p-1');
  });

  it('reads logicOperator as logic, OR only when it says OR, otherwise AND (the default)', () => {
    expect(normalizeCondition({ parameter: 'p', operator: '>', value: 1, logicOperator: 'or' }).logic).toBe('OR');
    expect(normalizeCondition({ parameter: 'p', operator: '>', value: 1, logicOperator: 'OR', logic: 'AND' }).logic).toBe('AND');
    expect(normalizeCondition({ parameter: 'p', operator: '>', value: 1 }).logic).toBe('AND');
    expect(normalizeCondition({ parameter: 'p', operator: '>', value: 1, logic: 'XOR' }).logic).toBe('AND');
  });

  it('stores the canonical operator and keeps an unknown one as written, for validation to report', () => {
    expect(normalizeCondition({ parameter: 'p', operator: '>=', value: 1 }).operator).toBe('greater_equal');
    expect(normalizeCondition({ parameter: 'p', operator: 'Is Not', value: true }).operator).toBe('not_equals');
    expect(normalizeCondition({ parameter: 'p', operator: ' between ', value: 1 }).operator).toBe('between');
  });

  it('gives the full shape with type "parameter" and keeps the id and value', () => {
    expect(normalizeCondition({ id: 'c1', parameter_id: 'p', operator: '==', value: '7' })).toEqual({
      id: 'c1',
      type: 'parameter',
      parameter: 'p',
      operator: 'equals',
      value: '7',
      logic: 'AND',
    });
  });

  it('turns anything that is not an object into an empty condition that validation rejects', () => {
    expect(normalizeCondition(null)).toEqual({ type: 'parameter', parameter: '', operator: '', value: null, logic: 'AND' });
    expect(normalizeCondition('hba1c > 7').parameter).toBe('');
  });
});

describe('normalizeAction', () => {
  it('defaults the severity to medium (spec section 9)', () => {
    expect(normalizeAction({ type: 'alert', message: 'Check thyroid' }).severity).toBe('medium');
    expect(normalizeAction({ type: 'alert', message: 'Check thyroid', severity: ' ' }).severity).toBe('medium');
  });

  it('keeps a given severity, lower-cased', () => {
    expect(normalizeAction({ type: 'alert', message: 'x', severity: 'High' }).severity).toBe('high');
  });

  it('uses the value as the message when an older action has no message', () => {
    expect(normalizeAction({ type: 'referral', value: 'Refer to endocrinology' })).toEqual({
      type: 'referral',
      severity: 'medium',
      message: 'Refer to endocrinology',
      value: 'Refer to endocrinology',
    });
  });

  it('defaults the type to recommendation', () => {
    expect(normalizeAction({ message: 'Recheck in 3 months' }).type).toBe('recommendation');
  });
});
