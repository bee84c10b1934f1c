import { clinicalOptions } from './clinical';
import { ANTIBODIES, aRule, cond } from './testing/builders';

describe('Clinical assessment: "Boolean parameters give Positive ({name}) for true and Negative ({name}) for false, using the values that appear, or both by default."', () => {
  const both = [
    { label: 'Positive (Antibodies)', value: true },
    { label: 'Negative (Antibodies)', value: false },
  ];

  it('offers Positive and Negative when both values appear', () => {
    const rules = [aRule('Pos', [cond(ANTIBODIES.id, 'equals', true)]), aRule('Neg', [cond(ANTIBODIES.id, 'equals', false)])];
    expect(clinicalOptions(ANTIBODIES, rules)).toEqual(both);
  });

  // Safety decision: offering only the value that appears would force a negative patient's
  // clinician to answer "Positive"; both answers are always offered.
  it('still offers Negative when the rules only test for Positive', () => {
    expect(clinicalOptions(ANTIBODIES, [aRule('Pos', [cond(ANTIBODIES.id, 'equals', 'true')])])).toEqual(both);
  });

  it('offers both when the values that appear are not booleans', () => {
    expect(clinicalOptions(ANTIBODIES, [aRule('Odd', [cond(ANTIBODIES.id, 'bogus', 'maybe')])])).toEqual(both);
  });
});
