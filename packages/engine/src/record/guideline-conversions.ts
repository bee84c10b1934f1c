import type { UnitConversion } from './conversion';

/**
 * The unit conversions whose cut-points a guideline publishes in both units, written once: the
 * templates, the history criteria, the Panel's plots and its HbA1c bands all read these, so one
 * result reads the same number everywhere it is shown.
 */

/**
 * HbA1c IFCC mmol/mol → NGSP %: % = mmol/mol × 0.09148 + 2.152 (the NGSP/IFCC master equation), run
 * through the pairs ADA and the NGSP table publish as the same cut-points (39 / 48 / 53 / 64 / 75
 * mmol/mol = 5.7 / 6.5 / 7 / 8 / 9 %), so 48 mmol/mol is diabetes and 75 mmol/mol is not above 9 %.
 */
export const HBA1C_MMOL_MOL_TO_PERCENT = {
  code: 'mmol/mol',
  factor: 0.09148,
  offset: 2.152,
  equivalents: [
    [39, 5.7],
    [48, 6.5],
    [53, 7],
    [64, 8],
    [75, 9],
  ],
} as const satisfies UnitConversion;

/** The same pairs the other way (NGSP % → IFCC mmol/mol), for a parameter kept in mmol/mol. */
export const HBA1C_PERCENT_TO_MMOL_MOL = {
  code: '%',
  factor: 10.93135,
  offset: -23.52427,
  equivalents: HBA1C_MMOL_MOL_TO_PERCENT.equivalents.map(([mmol, pct]) => [pct, mmol] as const),
} as const satisfies UnitConversion;

/** Plasma glucose mmol/L → mg/dL (× 18), through ADA's pairs: hypoglycaemia levels 2 and 1, IFG and diabetes. */
export const GLUCOSE_MMOL_L_TO_MG_DL = {
  code: 'mmol/L',
  factor: 18,
  equivalents: [
    [3.0, 54],
    [3.9, 70],
    [5.6, 100],
    [7.0, 126],
  ],
} as const satisfies UnitConversion;

/** UACR mg/mmol → mg/g creatinine (× 8.84), through KDIGO's categories published in both units (3 / 30 mg/mmol = 30 / 300 mg/g). */
export const UACR_MG_MMOL_TO_MG_G = {
  code: 'mg/mmol',
  factor: 8.84,
  equivalents: [
    [3, 30],
    [30, 300],
  ],
} as const satisfies UnitConversion;
