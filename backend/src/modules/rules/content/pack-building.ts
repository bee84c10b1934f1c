import type { Action, Condition } from '@cds/engine';

/**
 * Content packs: template rule sets whose content ships with the product. The rows are created
 * by migration 1796100000000 (`rule_sets.content_pack` names the pack); the rules, the parameters
 * they read (by parameter-template name) and the vignettes that gate their publication live here,
 * and `POST /api/rule-sets/from-template` installs them as a draft.
 */
export interface PackRule {
  key: string;
  /** Starts with the finding's name, so the card summary does. */
  name: string;
  description: string;
  priority: number;
  /** `parameter` is a parameter-template name, rewritten to the clinic's parameter id on install. */
  conditions: Condition[];
  actions: Action[];
  source: string;
}

export interface PackVignette {
  name: string;
  /** By parameter-template name; a parameter not given is unknown. */
  answers: Record<string, number | boolean | string>;
  /** Keys of the rules that must fire; the primary one is the engine's first finding among them. */
  fired: string[];
}

export interface ContentPack {
  key: string;
  name: string;
  description: string;
  source: string;
  rules: PackRule[];
  vignettes: PackVignette[];
}

type Value = number | boolean | string;
export const c = (parameter: string, operator: string, value: Value): Condition => ({
  type: 'parameter',
  parameter,
  operator,
  value,
  logic: 'AND',
});

/** Groups joined by OR, the conditions of a group by AND (the engine: AND binds tighter than OR). */
export function anyOf(...groups: Condition[][]): Condition[] {
  const out: Condition[] = [];
  groups.forEach((group, g) =>
    group.forEach((cond, i) => out.push({ ...cond, logic: i === group.length - 1 && g < groups.length - 1 ? 'OR' : 'AND' })),
  );
  return out;
}
export const all = (...conds: Condition[]) => anyOf(conds);

export const act = (type: string, severity: 'low' | 'medium' | 'high' | 'critical', message: string): Action => ({
  type,
  severity,
  message,
});

// Parameter-template names (backend/src/modules/parameters/diabetes-templates.ts).
export const A1C = 'hba1c';
export const FPG = 'fasting_glucose';
export const OGTT = 'ogtt_2h_glucose';
export const RPG = 'random_glucose';
export const SYMPTOMS = 'classic_hyperglycemia_symptoms';
export const CRISIS = 'hyperglycemic_crisis';
export const PREGNANT = 'pregnancy_status';
export const HB = 'hemoglobin';
export const SEX = 'sex_assigned_at_birth';
export const TRANSFUSION = 'recent_transfusion';
export const EGFR = 'egfr';
export const UACR = 'microalbumin';
export const SBP = 'blood_pressure_systolic';
export const DBP = 'blood_pressure_diastolic';
export const DIAGNOSED = 'diabetes_diagnosed';
export const BMI = 'bmi';
export const ASIAN = 'asian_american';
export const AGE = 'age';
export const RISK = 'diabetes_risk_factor';
export const TESTED = 'a1c_in_last_3_years';
// History inputs (criterion-bound: read from the record in a hook call, asked as a count in the form).
export const A1C_DAYS = 'a1c_diabetes_range_days';
export const FPG_DAYS = 'fpg_diabetes_range_days';
export const EGFR_LOW_DAYS = 'egfr_below_60_days';
