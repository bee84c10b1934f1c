import { chatOptions } from './chat';
import { clinicalOptions } from './clinical';
import { ANTIBODIES, aRule, cond } from './testing/builders';

/** Issue 9: booleans offer Yes, No and Not available, whatever values the rules use. */
describe('Boolean questions offer Yes, No and Not available', () => {
  const all = [
    { label: 'Yes', value: true },
    { label: 'No', value: false },
    { label: 'Not available', value: 'unknown' },
  ];

  it('offers all three when both values appear', () => {
    const rules = [aRule('Pos', [cond(ANTIBODIES.id, 'equals', true)]), aRule('Neg', [cond(ANTIBODIES.id, 'equals', false)])];
    expect(clinicalOptions(ANTIBODIES, rules)).toEqual(all);
  });

  // Offering only the value that appears would force a negative patient's clinician to answer "Yes".
  it('still offers No when the rules only test for Yes, and in the chat too', () => {
    expect(clinicalOptions(ANTIBODIES, [aRule('Pos', [cond(ANTIBODIES.id, 'equals', 'true')])])).toEqual(all);
    expect(chatOptions(ANTIBODIES, [aRule('Pos', [cond(ANTIBODIES.id, 'equals', true)])])).toEqual(all);
  });

  it('offers all three when no rule mentions the parameter', () => {
    expect(clinicalOptions(ANTIBODIES, [])).toEqual(all);
  });
});
