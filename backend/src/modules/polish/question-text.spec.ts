import { polishInputHash } from './polish-input';
import { questionText } from './question-text';

const base = { name: 'hba1c', display_name: 'HbA1c', category: 'labs', data_type: 'number', units: '%' };

describe('questionText', () => {
  it("uses the spec's default until a question is stored", () => {
    expect(questionText({ ...base, polished_question: null, polished_input_hash: null, question_override: null })).toBe(
      'What is your hba1c?',
    );
  });

  it('uses the polished question made from the parameter as it is now', () => {
    const polished = { ...base, polished_question: 'What was the latest HbA1c?', polished_input_hash: polishInputHash(base) };
    expect(questionText(polished)).toBe('What was the latest HbA1c?');
  });

  it('ignores a polished question made for an older display name', () => {
    const stale = {
      ...base,
      display_name: 'Glucose',
      polished_question: 'What was the latest HbA1c?',
      polished_input_hash: polishInputHash(base),
    };
    expect(questionText(stale)).toBe('What is your glucose?');
  });

  it("prefers an admin's override to everything", () => {
    const overridden = {
      ...base,
      question_override: ' Latest A1c? ',
      polished_question: 'What was the latest HbA1c?',
      polished_input_hash: polishInputHash(base),
    };
    expect(questionText(overridden)).toBe('Latest A1c?');
  });
});

describe('polishInputHash', () => {
  it('is 64 hex characters and changes with any input the wording depends on', () => {
    const h = polishInputHash(base);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    for (const change of [{ display_name: 'A1c' }, { name: 'a1c' }, { category: 'vitals' }, { data_type: 'text' }, { units: 'mmol/mol' }]) {
      expect(polishInputHash({ ...base, ...change })).not.toBe(h);
    }
    expect(polishInputHash({ ...base })).toBe(h);
  });
});
