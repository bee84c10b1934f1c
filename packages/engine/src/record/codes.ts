/** LOINC codes as the record uses them: which codes one parameter reads, and which code a value is written under. */

export const LOINC_SYSTEM = 'http://loinc.org';

/**
 * Codes that measure one thing in different units, read as one: HbA1c is reported as NGSP % under
 * 4548-4 and as IFCC mmol/mol under 59261-8. A parameter coded with either reads both (converted by
 * its accepted units), and one search asks for both.
 */
const SAME_MEASURE: readonly (readonly string[])[] = [['4548-4', '59261-8']];

/** The unit each code of a SAME_MEASURE group is reported in: the export writes the code that matches the value's unit. */
const CODE_FOR_UNIT: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '4548-4': { '%': '4548-4', 'mmol/mol': '59261-8' },
  '59261-8': { '%': '4548-4', 'mmol/mol': '59261-8' },
};

/** Panels that carry a code as a component: blood pressure is often recorded as the panel 85354-9. */
const PANELS_WITH: Readonly<Record<string, readonly string[]>> = {
  '8480-6': ['85354-9'],
  '8462-4': ['85354-9'],
};

/** The codes whose value is this parameter's: its own first, then those of the same measure. */
export function readCodes(loinc: string): string[] {
  const group = SAME_MEASURE.find((g) => g.includes(loinc));
  return group ? [loinc, ...group.filter((c) => c !== loinc)] : [loinc];
}

/** The codes a search for this parameter asks for: every code it reads and any panel that carries one. */
export function searchCodes(loinc: string): string[] {
  const own = readCodes(loinc);
  return [...own, ...own.flatMap((c) => PANELS_WITH[c] ?? [])];
}

/** The panels that carry this code as a component (none for most codes). */
export function panelsWith(loinc: string): readonly string[] {
  return PANELS_WITH[loinc] ?? [];
}

/** One name for the search of a code: two parameters whose codes are one measure share one fetch. */
export function searchKey(loinc: string): string {
  const group = SAME_MEASURE.find((g) => g.includes(loinc));
  return group ? group[0] : loinc;
}

/** The LOINC code for a value of this parameter in `unit`: never 4548-4 (a % code) with a mmol/mol value. */
export function codeForUnit(loinc: string, unit: string | null | undefined): string {
  return (unit && CODE_FOR_UNIT[loinc]?.[unit]) || loinc;
}

/**
 * How old a value may be and still count, when the parameter does not say (validation_rules.lookback_days).
 * HbA1c reflects 2 to 3 months, so 90 days; fasting glucose likewise; blood pressure is re-measured at
 * every visit, so 30 days; BMI, UACR and eGFR are yearly checks, so 365 days. Anything else: 365 days.
 */
const DEFAULT_LOOKBACK_DAYS: Readonly<Record<string, number>> = {
  '4548-4': 90,
  '59261-8': 90,
  '1558-6': 90,
  '8480-6': 30,
  '8462-4': 30,
  '39156-5': 365,
  '9318-7': 365,
  '33914-3': 365,
  '62238-1': 365,
  '98979-8': 365,
};
const FALLBACK_LOOKBACK_DAYS = 365;

export function lookbackDays(validationRules: Record<string, unknown> | null | undefined, loinc: string | null): number {
  const own = validationRules?.lookback_days;
  if (typeof own === 'number' && Number.isInteger(own) && own > 0) return own;
  return (loinc && DEFAULT_LOOKBACK_DAYS[loinc]) || FALLBACK_LOOKBACK_DAYS;
}
