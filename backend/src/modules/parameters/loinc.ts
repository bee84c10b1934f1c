/** LOINC format and mod-10 check digit, shared with the console (packages/contracts). */
export { LOINC_PATTERN, loincCheckDigit, loincProblem } from '@cds/contracts';
