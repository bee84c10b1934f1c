import { chatCompletionsUrl, validQuestion } from './llm-provider';

describe('validQuestion', () => {
  it.each([
    ["What is the patient's HbA1c (%)?", "What is the patient's HbA1c (%)?"],
    ['  "What is the patient\'s TSH?"  ', "What is the patient's TSH?"],
    ['`What is the BMI?`', 'What is the BMI?'],
    ['What   is the\tweight?', 'What is the weight?'],
  ])('accepts %j', (raw, expected) => {
    expect(validQuestion(raw)).toBe(expected);
  });

  it.each([
    ['not text', 42],
    ['empty', ''],
    ['no question mark', 'Enter the HbA1c.'],
    ['question mark not at the end', 'Is it high? Tell me.'],
    ['two questions', 'Is it high? Is it low?'],
    ['two lines', 'Here you go:\nWhat is the HbA1c?'],
    ['over 200 characters', `What is ${'x'.repeat(200)}?`],
    ['markup', 'What is <b>HbA1c</b>?'],
    ['no letters', '??'],
  ])('refuses %s', (_, raw) => {
    expect(validQuestion(raw)).toBeNull();
  });

  it('accepts exactly 200 characters', () => {
    const q = `What is ${'a'.repeat(191)}?`;
    expect(q).toHaveLength(200);
    expect(validQuestion(q)).toBe(q);
  });
});

describe('chatCompletionsUrl', () => {
  it.each([
    ['https://api.example.com/v1', 'https://api.example.com/v1/chat/completions'],
    ['https://api.example.com/v1/', 'https://api.example.com/v1/chat/completions'],
    ['http://127.0.0.1:8080/v1/chat/completions', 'http://127.0.0.1:8080/v1/chat/completions'],
  ])('%s → %s', (url, expected) => {
    expect(chatCompletionsUrl(url)).toBe(expected);
  });
});
