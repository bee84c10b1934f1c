/** LOINC codes: up to seven digits, a dash and a mod-10 check digit (4548-4). */
export const LOINC_PATTERN = /^[0-9]{1,7}-[0-9]$/;

/**
 * The LOINC check digit of the part before the dash: from the right, every other digit (the
 * first, third, ...) is doubled, the digits of the results are summed, and the check digit is
 * what brings the sum to the next multiple of ten (Regenstrief's "mod 10" algorithm).
 */
export function loincCheckDigit(body: string): number {
  let sum = 0;
  [...body].reverse().forEach((ch, i) => {
    const d = Number(ch);
    const v = i % 2 === 0 ? d * 2 : d;
    sum += Math.floor(v / 10) + (v % 10);
  });
  return (10 - (sum % 10)) % 10;
}

/** Why a LOINC code is not valid, or null when it is. */
export function loincProblem(code: string): string | null {
  if (!LOINC_PATTERN.test(code)) return `LOINC code "${code}" must look like 4548-4 (up to seven digits, a dash and a check digit).`;
  const [body, check] = code.split('-');
  const expected = loincCheckDigit(body);
  return Number(check) === expected
    ? null
    : `LOINC code "${code}" has a wrong check digit: the code for ${body} ends in -${expected}. Check the code against loinc.org.`;
}
