export { UCUM_ALIASES, canonicalUnit } from './units';
export { conversionProblem, readConversion, toParameterUnit } from './conversion';
export type { UnitConversion } from './conversion';
export { LOINC_SYSTEM, codeForUnit, lookbackDays, panelsWith, readCodes, searchCodes, searchKey } from './codes';
export { USABLE_STATUSES, comparatorInterval, effectiveTime, inParameterUnit, isUnreadable, quantityOf, readHistory } from './observations';
export type { Comparator, ParameterScale, RecordHistory, RecordResult, ScaledValue, Unreadable } from './observations';
export { dayOf, isStale, latest, lowestOnLatestDay } from './takes';
export type { Dated } from './takes';
export {
  GLUCOSE_MMOL_L_TO_MG_DL,
  HBA1C_MMOL_MOL_TO_PERCENT,
  HBA1C_PERCENT_TO_MMOL_MOL,
  UACR_MG_MMOL_TO_MG_G,
} from './guideline-conversions';
