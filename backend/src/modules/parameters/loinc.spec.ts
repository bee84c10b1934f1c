import { DIABETES_TEMPLATES } from './diabetes-templates';
import { loincCheckDigit, loincProblem } from './loinc';

describe('LOINC check digit', () => {
  it.each(DIABETES_TEMPLATES.filter((t) => t.loinc_code !== null).map((t) => [t.name, t.loinc_code!]))(
    'the %s template code %s is valid',
    (_name, code) => {
      expect(loincProblem(code)).toBeNull();
    },
  );

  it('4548-4 (HbA1c) is accepted; 4548-5 is refused with the right digit named', () => {
    expect(loincCheckDigit('4548')).toBe(4);
    expect(loincProblem('4548-4')).toBeNull();
    expect(loincProblem('4548-5')).toBe(
      'LOINC code "4548-5" has a wrong check digit: the code for 4548 ends in -4. Check the code against loinc.org.',
    );
  });

  it('refuses a code without the dash and check digit', () => {
    expect(loincProblem('45484')).toMatch(/must look like 4548-4/);
  });
});
