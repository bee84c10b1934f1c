import { defaultQuestionText } from './chat';
import { HBA1C, WT_LB } from './testing/builders';

describe('Chat session: "The question text comes from a remote polishing function, falling back to \'What is your {display name in lowercase}?\'."', () => {
  it('words the fallback from the display name in lower case', () => {
    expect(defaultQuestionText(HBA1C)).toBe('What is your hba1c?');
    expect(defaultQuestionText({ ...WT_LB, display_name: 'Body Weight' })).toBe('What is your body weight?');
  });

  it('uses the name when the display name is empty', () => {
    expect(defaultQuestionText({ name: 'Wt_lb', display_name: '' })).toBe('What is your wt_lb?');
  });
});
