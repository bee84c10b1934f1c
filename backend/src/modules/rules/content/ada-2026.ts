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

export const ADA_2026_PACK_KEY = 'ada-2026';
export const ADA_2026_PACK_NAME = 'ADA Standards of Care 2026 — diabetes, kidney and blood pressure';
export const ADA_2026_PACK_DESCRIPTION =
  'Diagnosis (confirmed / needs confirmation), prediabetes, discordant results, A1C reliability, hypoglycemia levels 1–2, KDIGO CKD stages, albuminuria and risk grid with nephrology referral, hypertensive crisis and stages, BP goal in diabetes, BMI categories with Asian-American cut-points and diabetes screening. Installs as a draft with its parameters and vignettes.';

const S2 = 'ADA Standards of Care in Diabetes—2026, Section 2 (Diagnosis and Classification of Diabetes), Table 2.1';
const S2_PRE = 'ADA Standards of Care in Diabetes—2026, Section 2, Table 2.2 (prediabetes)';
const S2_A1C = 'ADA Standards of Care in Diabetes—2026, Section 2 (A1C: conditions that affect its accuracy)';
const S2_SCREEN = 'ADA Standards of Care in Diabetes—2026, Section 2, Table 2.3 (screening adults)';
const S6 = 'ADA Standards of Care in Diabetes—2026, Section 6 (Glycemic Goals and Hypoglycemia), Table 6.4';
const S8 =
  'ADA Standards of Care in Diabetes—2026, Section 8 (Obesity and Weight Management); Section 2 (BMI ≥ 23 kg/m² in Asian Americans)';
const S10 = 'ADA Standards of Care in Diabetes—2026, Section 10 (Cardiovascular Disease and Risk Management)';
const ACC_AHA = 'ACC/AHA 2017 High Blood Pressure Guideline (BP categories; hypertensive crisis > 180 and/or > 120 mmHg)';
const KDIGO =
  'KDIGO 2024 Clinical Practice Guideline for CKD (GFR and albuminuria categories, risk heat map); ADA Standards of Care in Diabetes—2026, Section 11';
const KDIGO_REFER = 'KDIGO 2024 Clinical Practice Guideline for CKD, recommendation 5.1 (referral to specialist kidney care)';

type Value = number | boolean | string;
const c = (parameter: string, operator: string, value: Value): Condition => ({
  type: 'parameter',
  parameter,
  operator,
  value,
  logic: 'AND',
});

/** Groups joined by OR, the conditions of a group by AND (the engine: AND binds tighter than OR). */
function anyOf(...groups: Condition[][]): Condition[] {
  const out: Condition[] = [];
  groups.forEach((group, g) =>
    group.forEach((cond, i) => out.push({ ...cond, logic: i === group.length - 1 && g < groups.length - 1 ? 'OR' : 'AND' })),
  );
  return out;
}
const all = (...conds: Condition[]) => anyOf(conds);

const act = (type: string, severity: 'low' | 'medium' | 'high' | 'critical', message: string): Action => ({ type, severity, message });

// Parameter-template names (backend/src/modules/parameters/diabetes-templates.ts).
const A1C = 'hba1c';
const FPG = 'fasting_glucose';
const OGTT = 'ogtt_2h_glucose';
const RPG = 'random_glucose';
const SYMPTOMS = 'classic_hyperglycemia_symptoms';
const CRISIS = 'hyperglycemic_crisis';
const PREGNANT = 'pregnancy_status';
const HB = 'hemoglobin';
const SEX = 'sex_assigned_at_birth';
const TRANSFUSION = 'recent_transfusion';
const EGFR = 'egfr';
const UACR = 'microalbumin';
const SBP = 'blood_pressure_systolic';
const DBP = 'blood_pressure_diastolic';
const DIAGNOSED = 'diabetes_diagnosed';
const BMI = 'bmi';
const ASIAN = 'asian_american';
const AGE = 'age';
const RISK = 'diabetes_risk_factor';
const TESTED = 'a1c_in_last_3_years';
// History inputs (criterion-bound: read from the record in a hook call, asked as a count in the form).
const A1C_DAYS = 'a1c_diabetes_range_days';
const FPG_DAYS = 'fpg_diabetes_range_days';
const EGFR_LOW_DAYS = 'egfr_below_60_days';

const CONFIRM_LATER =
  'A single abnormal result: diabetes is not yet confirmed. A second abnormal result (the same test on a new sample, or a different test from the same sample) confirms it; when one is given with it, "Diabetes (confirmed)" is shown as well.';

const RULES: PackRule[] = [
  // Section 2: diagnosis. Two abnormal results: two tests of the same sample or visit, or abnormal results on two days of the last 12 months.
  {
    key: 'diabetes_confirmed',
    name: 'Diabetes (confirmed)',
    description:
      'Two abnormal results (A1C ≥ 6.5 %, fasting glucose ≥ 126 mg/dL, 2-h OGTT glucose ≥ 200 mg/dL) from the same sample or visit, or on two different days in the last 12 months; or random glucose ≥ 200 mg/dL with classic symptoms or a hyperglycaemic crisis.',
    priority: 90,
    conditions: anyOf(
      [c(A1C, '>=', 6.5), c(FPG, '>=', 126)],
      [c(A1C, '>=', 6.5), c(OGTT, '>=', 200)],
      [c(FPG, '>=', 126), c(OGTT, '>=', 200)],
      [c(A1C_DAYS, '>=', 2)],
      [c(FPG_DAYS, '>=', 2)],
      [c(A1C_DAYS, '>=', 1), c(FPG_DAYS, '>=', 1)],
      [c(RPG, '>=', 200), c(SYMPTOMS, 'equals', true)],
      [c(RPG, '>=', 200), c(CRISIS, 'equals', true)],
    ),
    actions: [
      act(
        'alert',
        'high',
        'Diabetes is confirmed by ADA 2026 criteria: record the diagnosis, classify the type (test islet autoantibodies if type 1 diabetes is possible) and start comprehensive care (Sections 3–16).',
      ),
    ],
    source: S2,
  },
  {
    key: 'needs_confirmation_a1c',
    name: 'Diabetes (needs confirmation) — A1C ≥ 6.5 %',
    description: 'A1C in the diabetes range without a second abnormal result.',
    priority: 80,
    conditions: all(c(A1C, '>=', 6.5)),
    actions: [act('monitoring', 'high', `Repeat the A1C on a new sample, or measure fasting glucose or a 2-h OGTT. ${CONFIRM_LATER}`)],
    source: S2,
  },
  {
    key: 'needs_confirmation_fpg',
    name: 'Diabetes (needs confirmation) — fasting glucose ≥ 126 mg/dL',
    description: 'Fasting plasma glucose in the diabetes range without a second abnormal result.',
    priority: 80,
    conditions: all(c(FPG, '>=', 126)),
    actions: [
      act('monitoring', 'high', `Repeat the fasting plasma glucose on another day, or measure A1C from the same sample. ${CONFIRM_LATER}`),
    ],
    source: S2,
  },
  {
    key: 'needs_confirmation_ogtt',
    name: 'Diabetes (needs confirmation) — 2-h OGTT ≥ 200 mg/dL',
    description: '2-h plasma glucose during a 75 g OGTT in the diabetes range without a second abnormal result.',
    priority: 80,
    conditions: all(c(OGTT, '>=', 200)),
    actions: [act('monitoring', 'high', `Repeat the 2-h OGTT on another day, or measure A1C or fasting glucose. ${CONFIRM_LATER}`)],
    source: S2,
  },
  {
    key: 'needs_confirmation_random',
    name: 'Diabetes (needs confirmation) — random glucose ≥ 200 mg/dL without symptoms',
    description: 'Random plasma glucose ≥ 200 mg/dL is diagnostic only with classic symptoms or a hyperglycaemic crisis.',
    priority: 80,
    conditions: all(c(RPG, '>=', 200), c(SYMPTOMS, 'equals', false), c(CRISIS, 'equals', false)),
    actions: [
      act(
        'monitoring',
        'high',
        'Without classic symptoms or a crisis, random glucose ≥ 200 mg/dL does not diagnose diabetes: measure A1C and fasting plasma glucose (or a 2-h OGTT) to confirm or exclude it.',
      ),
    ],
    source: S2,
  },
  {
    key: 'prediabetes',
    name: 'Prediabetes',
    description: 'A1C 5.7–6.4 %, fasting glucose 100–125 mg/dL, or 2-h OGTT glucose 140–199 mg/dL.',
    priority: 50,
    conditions: anyOf(
      [c(A1C, '>=', 5.7), c(A1C, '<', 6.5)],
      [c(FPG, '>=', 100), c(FPG, '<', 126)],
      [c(OGTT, '>=', 140), c(OGTT, '<', 200)],
    ),
    actions: [
      act(
        'recommendation',
        'medium',
        'Refer to an intensive lifestyle intervention (Diabetes Prevention Program), consider metformin when BMI ≥ 35 kg/m², age < 60 or prior gestational diabetes (Section 3), and retest at least yearly.',
      ),
    ],
    source: S2_PRE,
  },
  {
    key: 'discordant',
    name: 'Discordant glycemic results',
    description: 'A1C and fasting glucose of the same visit fall in different categories (one in the diabetes range, the other normal).',
    priority: 60,
    conditions: anyOf([c(A1C, '>=', 6.5), c(FPG, '<', 100)], [c(FPG, '>=', 126), c(A1C, '<', 5.7)]),
    actions: [
      act(
        'monitoring',
        'medium',
        'Repeat the abnormal test; diagnose on the result that is confirmed. Check for conditions that make A1C unreliable (anaemia, haemoglobin variants, CKD, pregnancy, recent transfusion).',
      ),
    ],
    source: S2,
  },
  {
    key: 'discordant_over_time',
    name: 'Discordant glycemic results over time',
    description:
      'One earlier result in the diabetes range in the last 12 months (A1C ≥ 6.5 % or fasting glucose ≥ 126 mg/dL) that the current result of the same test does not confirm.',
    priority: 60,
    conditions: anyOf(
      [c(A1C, '<', 6.5), c(A1C_DAYS, '>=', 1), c(A1C_DAYS, '<', 2)],
      [c(FPG, '<', 126), c(FPG_DAYS, '>=', 1), c(FPG_DAYS, '<', 2)],
    ),
    actions: [
      act(
        'monitoring',
        'medium',
        'An abnormal result in the last 12 months is not confirmed by the current one: unless diabetes is already diagnosed and treated, repeat the test on a new sample and diagnose on a confirmed result. Check for conditions that make A1C unreliable.',
      ),
    ],
    source: S2,
  },
  {
    key: 'a1c_unreliable',
    name: 'A1C may be unreliable',
    description:
      'Pregnancy, anaemia (haemoglobin < 12 g/dL, or < 13 g/dL in men), eGFR < 30 (CKD G4–G5), or transfusion or blood loss in the last 3 months.',
    priority: 55,
    conditions: anyOf(
      [c(PREGNANT, 'equals', true)],
      [c(HB, '<', 12)],
      [c(HB, '<', 13), c(SEX, 'equals', 'male')],
      [c(EGFR, '<', 30)],
      [c(TRANSFUSION, 'equals', true)],
    ),
    actions: [
      act(
        'recommendation',
        'medium',
        'A1C may not reflect glycaemia here: diagnose with plasma glucose criteria (fasting glucose, 2-h OGTT) and interpret A1C for monitoring with care.',
      ),
    ],
    source: S2_A1C,
  },
  // Section 6: hypoglycemia.
  {
    key: 'hypo_2',
    name: 'Hypoglycemia level 2',
    description: 'Glucose < 54 mg/dL.',
    priority: 100,
    conditions: anyOf([c(RPG, '<', 54)], [c(FPG, '<', 54)]),
    actions: [
      act(
        'alert',
        'critical',
        'Clinically significant hypoglycaemia: treat now (15–20 g glucose, or glucagon if the patient cannot take it by mouth), recheck in 15 minutes, and review insulin and sulfonylurea doses; prescribe glucagon.',
      ),
    ],
    source: S6,
  },
  {
    key: 'hypo_1',
    name: 'Hypoglycemia level 1',
    description: 'Glucose 54–69 mg/dL.',
    priority: 95,
    conditions: anyOf([c(RPG, '>=', 54), c(RPG, '<', 70)], [c(FPG, '>=', 54), c(FPG, '<', 70)]),
    actions: [
      act(
        'alert',
        'high',
        'Alert value: treat with 15–20 g fast-acting carbohydrate and recheck in 15 minutes; review glucose-lowering therapy for hypoglycaemia risk.',
      ),
    ],
    source: S6,
  },
  // Section 11 and KDIGO 2024: eGFR categories. CKD needs > 90 days; only G5 acts at once.
  {
    key: 'ckd_g5',
    name: 'CKD stage G5',
    description: 'eGFR < 15 mL/min/1.73 m² (kidney failure range).',
    priority: 100,
    conditions: all(c(EGFR, '<', 15)),
    actions: [
      act(
        'referral',
        'critical',
        'eGFR in the kidney failure range: refer to nephrology urgently for kidney replacement therapy planning, check for acute kidney injury, and review every drug dose (metformin is contraindicated).',
      ),
    ],
    source: KDIGO,
  },
  {
    key: 'ckd_g4',
    name: 'CKD stage G4',
    description: 'eGFR 15–29 mL/min/1.73 m², reduced (< 60) for more than 90 days.',
    priority: 80,
    conditions: all(c(EGFR, '>=', 15), c(EGFR, '<', 30), c(EGFR_LOW_DAYS, '>', 90)),
    actions: [
      act(
        'monitoring',
        'high',
        'CKD G4 (reduced for more than 90 days): refer to nephrology, stop metformin below 30, adjust drug doses and plan for kidney replacement therapy.',
      ),
    ],
    source: KDIGO,
  },
  {
    key: 'ckd_g3b',
    name: 'CKD stage G3b',
    description: 'eGFR 30–44 mL/min/1.73 m², reduced (< 60) for more than 90 days.',
    priority: 72,
    conditions: all(c(EGFR, '>=', 30), c(EGFR, '<', 45), c(EGFR_LOW_DAYS, '>', 90)),
    actions: [
      act(
        'monitoring',
        'medium',
        'CKD G3b (reduced for more than 90 days): measure UACR; use an SGLT2 inhibitor for kidney protection; metformin at most 1,000 mg/day below 45; review drug doses.',
      ),
    ],
    source: KDIGO,
  },
  {
    key: 'ckd_g3a',
    name: 'CKD stage G3a',
    description: 'eGFR 45–59 mL/min/1.73 m², reduced (< 60) for more than 90 days.',
    priority: 70,
    conditions: all(c(EGFR, '>=', 45), c(EGFR, '<', 60), c(EGFR_LOW_DAYS, '>', 90)),
    actions: [
      act(
        'monitoring',
        'medium',
        'CKD G3a (reduced for more than 90 days): measure UACR; use an SGLT2 inhibitor for kidney protection and review drug doses.',
      ),
    ],
    source: KDIGO,
  },
  {
    key: 'egfr_reduced_unconfirmed',
    name: 'Reduced eGFR, persistence not yet shown',
    description: 'eGFR 15–59 mL/min/1.73 m², reduced for 90 days or less: CKD is not yet established (KDIGO: more than 3 months).',
    priority: 68,
    conditions: all(c(EGFR, '>=', 15), c(EGFR, '<', 60), c(EGFR_LOW_DAYS, '<=', 90)),
    actions: [
      act(
        'monitoring',
        'medium',
        'Persistence not yet shown: repeat eGFR (with UACR) in 3 months; CKD needs a reduced eGFR for more than 90 days. Look for acute kidney injury if the fall is new, and dose drugs for the current eGFR.',
      ),
    ],
    source: KDIGO,
  },
  {
    key: 'albuminuria_a3',
    name: 'Albuminuria A3',
    description: 'UACR ≥ 300 mg/g (severely increased).',
    priority: 77,
    conditions: all(c(UACR, '>=', 300)),
    actions: [
      act(
        'medication',
        'high',
        'Confirm with a repeat UACR within 3–6 months; start an ACE inhibitor or ARB at the maximum tolerated dose and an SGLT2 inhibitor; consider finerenone.',
      ),
    ],
    source: KDIGO,
  },
  {
    key: 'albuminuria_a2',
    name: 'Albuminuria A2',
    description: 'UACR 30–299 mg/g (moderately increased).',
    priority: 65,
    conditions: all(c(UACR, '>=', 30), c(UACR, '<', 300)),
    actions: [
      act(
        'monitoring',
        'medium',
        'Confirm with 2 of 3 samples over 3–6 months; with hypertension or confirmed albuminuria, start an ACE inhibitor or ARB and an SGLT2 inhibitor.',
      ),
    ],
    source: KDIGO,
  },
  {
    key: 'kdigo_very_high',
    name: 'CKD risk very high (KDIGO)',
    description: 'KDIGO heat map: G3a with A3, G3b with A2–A3, or G4–G5 whatever the albuminuria.',
    priority: 78,
    conditions: anyOf(
      [c(EGFR, '>=', 45), c(EGFR, '<', 60), c(UACR, '>=', 300)],
      [c(EGFR, '>=', 30), c(EGFR, '<', 45), c(UACR, '>=', 30)],
      [c(EGFR, '<', 30)],
    ),
    actions: [
      act(
        'monitoring',
        'high',
        'Very high risk of CKD progression: monitor eGFR and UACR at least 3–4 times a year, and involve nephrology.',
      ),
    ],
    source: KDIGO,
  },
  {
    key: 'kdigo_high',
    name: 'CKD risk high (KDIGO)',
    description: 'KDIGO heat map: G1–G2 with A3, G3a with A2, or G3b with A1.',
    priority: 68,
    conditions: anyOf(
      [c(EGFR, '>=', 60), c(UACR, '>=', 300)],
      [c(EGFR, '>=', 45), c(EGFR, '<', 60), c(UACR, '>=', 30), c(UACR, '<', 300)],
      [c(EGFR, '>=', 30), c(EGFR, '<', 45), c(UACR, '<', 30)],
    ),
    actions: [act('monitoring', 'medium', 'High risk of CKD progression: monitor eGFR and UACR 2–3 times a year.')],
    source: KDIGO,
  },
  {
    key: 'kdigo_moderate',
    name: 'CKD risk moderately increased (KDIGO)',
    description: 'KDIGO heat map: G1–G2 with A2, or G3a with A1.',
    priority: 62,
    conditions: anyOf([c(EGFR, '>=', 60), c(UACR, '>=', 30), c(UACR, '<', 300)], [c(EGFR, '>=', 45), c(EGFR, '<', 60), c(UACR, '<', 30)]),
    actions: [
      act('monitoring', 'medium', 'Moderately increased risk: monitor eGFR and UACR at least yearly (twice yearly is reasonable).'),
    ],
    source: KDIGO,
  },
  {
    key: 'kdigo_low',
    name: 'CKD risk low (KDIGO)',
    description: 'KDIGO heat map: G1–G2 with A1 (no CKD by these markers).',
    priority: 20,
    conditions: all(c(EGFR, '>=', 60), c(UACR, '<', 30)),
    actions: [act('monitoring', 'low', 'No CKD by eGFR and albuminuria: screen UACR and eGFR yearly in diabetes.')],
    source: KDIGO,
  },
  {
    key: 'nephrology_referral',
    name: 'Nephrology referral indicated (KDIGO 2024)',
    description: 'eGFR < 30 mL/min/1.73 m², or UACR ≥ 300 mg/g (A3).',
    priority: 76,
    conditions: anyOf([c(EGFR, '<', 30)], [c(UACR, '>=', 300)]),
    actions: [
      act(
        'referral',
        'high',
        'Refer to specialist kidney care (also for a sustained eGFR fall, progression, refractory hypertension, or hereditary kidney disease).',
      ),
    ],
    source: KDIGO_REFER,
  },
  // Section 10 and ACC/AHA 2017: blood pressure.
  {
    key: 'hypertensive_crisis',
    name: 'Hypertensive crisis',
    description: 'Systolic > 180 mmHg and/or diastolic > 120 mmHg.',
    priority: 100,
    conditions: anyOf([c(SBP, '>', 180)], [c(DBP, '>', 120)]),
    actions: [
      act(
        'referral',
        'critical',
        'Repeat the measurement now and assess for acute target-organ damage (chest pain, dyspnoea, neurological deficit, visual change): if present, treat as a hypertensive emergency in hospital; if absent, intensify oral therapy and review within days.',
      ),
    ],
    source: `${ACC_AHA}; ${S10}`,
  },
  {
    key: 'hypertension_stage_2',
    name: 'Hypertension stage 2',
    description: 'Systolic ≥ 140 mmHg or diastolic ≥ 90 mmHg.',
    priority: 65,
    conditions: anyOf([c(SBP, '>=', 140)], [c(DBP, '>=', 90)]),
    actions: [
      act(
        'medication',
        'high',
        'Confirm with repeated readings (home or ambulatory); in diabetes start two agents (ACE inhibitor or ARB first with albuminuria) plus lifestyle therapy, and reassess within a month.',
      ),
    ],
    source: `${ACC_AHA}; ${S10}`,
  },
  {
    key: 'hypertension_stage_1',
    name: 'Hypertension stage 1',
    description: 'Systolic 130–139 mmHg or diastolic 80–89 mmHg, and not stage 2.',
    priority: 60,
    conditions: anyOf([c(SBP, '>=', 130), c(SBP, '<', 140), c(DBP, '<', 90)], [c(DBP, '>=', 80), c(DBP, '<', 90), c(SBP, '<', 140)]),
    actions: [
      act(
        'recommendation',
        'medium',
        'Confirm with repeated readings; start lifestyle therapy, and drug therapy in diabetes or when 10-year ASCVD risk ≥ 10 %.',
      ),
    ],
    source: `${ACC_AHA}; ${S10}`,
  },
  {
    key: 'bp_above_target',
    name: 'BP above target',
    description: 'Diagnosed diabetes with blood pressure ≥ 130/80 mmHg (goal < 130/80).',
    priority: 58,
    conditions: anyOf([c(DIAGNOSED, 'equals', true), c(SBP, '>=', 130)], [c(DIAGNOSED, 'equals', true), c(DBP, '>=', 80)]),
    actions: [
      act(
        'medication',
        'medium',
        'Above the < 130/80 mmHg goal in diabetes: intensify lifestyle and antihypertensive therapy and recheck within 3 months.',
      ),
    ],
    source: S10,
  },
  // Sections 8 and 2: BMI and screening. BMI ≥ 30 is obesity whatever the ancestry, also when it is not known.
  {
    key: 'obesity',
    name: 'Obesity',
    description: 'BMI ≥ 30 kg/m², or ≥ 27.5 kg/m² in Asian Americans.',
    priority: 40,
    conditions: anyOf([c(BMI, '>=', 30)], [c(BMI, '>=', 27.5), c(ASIAN, 'equals', true)]),
    actions: [
      act(
        'recommendation',
        'medium',
        'Offer weight-management treatment: nutrition, physical activity and behavioural therapy; consider obesity pharmacotherapy (Section 8).',
      ),
    ],
    source: S8,
  },
  {
    key: 'overweight',
    name: 'Overweight',
    description: 'BMI 25–29.9 kg/m² (23–27.4 kg/m² in Asian Americans).',
    priority: 30,
    conditions: anyOf(
      [c(BMI, '>=', 25), c(BMI, '<', 27.5)],
      [c(BMI, '>=', 27.5), c(BMI, '<', 30), c(ASIAN, 'equals', false)],
      [c(BMI, '>=', 23), c(BMI, '<', 25), c(ASIAN, 'equals', true)],
    ),
    actions: [
      act(
        'recommendation',
        'low',
        'Offer lifestyle intervention for weight loss; screen for diabetes when another risk factor is present.',
      ),
    ],
    source: S8,
  },
  {
    key: 'screen',
    name: 'Screen for diabetes',
    description:
      'No diabetes and no A1C or glucose test in 3 years, with age ≥ 35, or overweight or obesity (BMI ≥ 25, ≥ 23 in Asian Americans) with a risk factor.',
    priority: 35,
    conditions: anyOf(
      [c(AGE, '>=', 35), c(TESTED, 'equals', false), c(DIAGNOSED, 'equals', false)],
      [c(BMI, '>=', 25), c(RISK, 'equals', true), c(TESTED, 'equals', false), c(DIAGNOSED, 'equals', false)],
      [c(BMI, '>=', 23), c(ASIAN, 'equals', true), c(RISK, 'equals', true), c(TESTED, 'equals', false), c(DIAGNOSED, 'equals', false)],
    ),
    actions: [
      act(
        'monitoring',
        'medium',
        'Test for prediabetes and diabetes (A1C, fasting glucose or 2-h OGTT); if normal, repeat at least every 3 years.',
      ),
    ],
    source: S2_SCREEN,
  },
];

/** The pack's own vignettes: each cut-point side and each combination rule; they gate its publication. */
const VIGNETTES: PackVignette[] = [
  { name: 'A1C 5.6 % and fasting glucose 99 mg/dL: no glycaemic finding', answers: { [A1C]: 5.6, [FPG]: 99 }, fired: [] },
  { name: 'A1C 5.7 % alone is prediabetes', answers: { [A1C]: 5.7 }, fired: ['prediabetes'] },
  { name: 'A1C 6.4 % alone is prediabetes', answers: { [A1C]: 6.4 }, fired: ['prediabetes'] },
  { name: 'A1C 6.5 % alone needs confirmation', answers: { [A1C]: 6.5 }, fired: ['needs_confirmation_a1c'] },
  {
    name: 'A1C 6.5 % with fasting glucose 126 mg/dL in the same sample confirms diabetes',
    answers: { [A1C]: 6.5, [FPG]: 126 },
    fired: ['diabetes_confirmed', 'needs_confirmation_a1c', 'needs_confirmation_fpg'],
  },
  { name: 'Fasting glucose 125 mg/dL alone is prediabetes', answers: { [FPG]: 125 }, fired: ['prediabetes'] },
  { name: 'Fasting glucose 126 mg/dL alone needs confirmation', answers: { [FPG]: 126 }, fired: ['needs_confirmation_fpg'] },
  { name: '2-h OGTT 199 mg/dL is prediabetes', answers: { [OGTT]: 199 }, fired: ['prediabetes'] },
  { name: '2-h OGTT 200 mg/dL alone needs confirmation', answers: { [OGTT]: 200 }, fired: ['needs_confirmation_ogtt'] },
  {
    name: 'Random glucose 200 mg/dL with classic symptoms is diabetes',
    answers: { [RPG]: 200, [SYMPTOMS]: true },
    fired: ['diabetes_confirmed'],
  },
  { name: 'Random glucose 199 mg/dL with classic symptoms is not diagnostic', answers: { [RPG]: 199, [SYMPTOMS]: true }, fired: [] },
  {
    name: 'Random glucose 200 mg/dL without symptoms or crisis needs confirmation',
    answers: { [RPG]: 200, [SYMPTOMS]: false, [CRISIS]: false },
    fired: ['needs_confirmation_random'],
  },
  {
    name: 'A1C 7.0 % with fasting glucose 95 mg/dL is discordant',
    answers: { [A1C]: 7, [FPG]: 95 },
    fired: ['needs_confirmation_a1c', 'discordant'],
  },
  {
    name: 'A1C ≥ 6.5 % on two days in 12 months confirms diabetes',
    answers: { [A1C]: 6.9, [A1C_DAYS]: 2 },
    fired: ['diabetes_confirmed', 'needs_confirmation_a1c'],
  },
  {
    name: 'A1C 6.9 % on its first abnormal day still needs confirmation',
    answers: { [A1C]: 6.9, [A1C_DAYS]: 1, [FPG_DAYS]: 0 },
    fired: ['needs_confirmation_a1c'],
  },
  {
    name: 'Fasting glucose ≥ 126 mg/dL on two days confirms diabetes',
    answers: { [FPG]: 131, [FPG_DAYS]: 2 },
    fired: ['diabetes_confirmed', 'needs_confirmation_fpg'],
  },
  {
    name: 'An abnormal A1C and an abnormal fasting glucose on different days confirm diabetes',
    answers: { [A1C_DAYS]: 1, [FPG_DAYS]: 1 },
    fired: ['diabetes_confirmed'],
  },
  {
    name: 'A1C 7.0 % then 5.5 %: discordant over time',
    answers: { [A1C]: 5.5, [A1C_DAYS]: 1 },
    fired: ['discordant_over_time'],
  },
  {
    name: 'Fasting glucose 130 then 110 mg/dL: discordant over time, and prediabetes',
    answers: { [FPG]: 110, [FPG_DAYS]: 1 },
    fired: ['prediabetes', 'discordant_over_time'],
  },
  {
    name: 'A1C 6.2 % after two abnormal days is confirmed diabetes, not discordance',
    answers: { [A1C]: 6.2, [A1C_DAYS]: 2 },
    fired: ['diabetes_confirmed', 'prediabetes'],
  },
  { name: 'Pregnancy makes A1C unreliable', answers: { [PREGNANT]: true }, fired: ['a1c_unreliable'] },
  { name: 'Haemoglobin 12.5 g/dL in a man makes A1C unreliable', answers: { [HB]: 12.5, [SEX]: 'male' }, fired: ['a1c_unreliable'] },
  { name: 'Haemoglobin 12.5 g/dL in a woman is not anaemia', answers: { [HB]: 12.5, [SEX]: 'female' }, fired: [] },
  { name: 'Glucose 53 mg/dL is hypoglycemia level 2', answers: { [RPG]: 53 }, fired: ['hypo_2'] },
  { name: 'Glucose 54 mg/dL is hypoglycemia level 1', answers: { [RPG]: 54 }, fired: ['hypo_1'] },
  { name: 'Glucose 70 mg/dL is not hypoglycemia', answers: { [RPG]: 70 }, fired: [] },
  {
    name: 'eGFR 14 is CKD G5 at once',
    answers: { [EGFR]: 14 },
    fired: ['ckd_g5', 'kdigo_very_high', 'nephrology_referral', 'a1c_unreliable'],
  },
  {
    name: 'eGFR 15, reduced for 91 days, is CKD G4',
    answers: { [EGFR]: 15, [EGFR_LOW_DAYS]: 91 },
    fired: ['ckd_g4', 'kdigo_very_high', 'nephrology_referral', 'a1c_unreliable'],
  },
  { name: 'eGFR 30, reduced for 91 days, is CKD G3b', answers: { [EGFR]: 30, [EGFR_LOW_DAYS]: 91 }, fired: ['ckd_g3b'] },
  { name: 'eGFR 45, reduced for 91 days, is CKD G3a', answers: { [EGFR]: 45, [EGFR_LOW_DAYS]: 91 }, fired: ['ckd_g3a'] },
  {
    name: 'eGFR 45, a first reduced value: persistence not yet shown',
    answers: { [EGFR]: 45, [EGFR_LOW_DAYS]: 0 },
    fired: ['egfr_reduced_unconfirmed'],
  },
  {
    name: 'eGFR 59, reduced for exactly 90 days: persistence not yet shown',
    answers: { [EGFR]: 59, [EGFR_LOW_DAYS]: 90 },
    fired: ['egfr_reduced_unconfirmed'],
  },
  {
    name: 'eGFR 14 on a first reduced value is still CKD G5 at once',
    answers: { [EGFR]: 14, [EGFR_LOW_DAYS]: 0 },
    fired: ['ckd_g5', 'kdigo_very_high', 'nephrology_referral', 'a1c_unreliable'],
  },
  { name: 'eGFR 60 is no eGFR finding', answers: { [EGFR]: 60, [EGFR_LOW_DAYS]: 0 }, fired: [] },
  { name: 'eGFR 90 with UACR 29 mg/g is low risk', answers: { [EGFR]: 90, [UACR]: 29 }, fired: ['kdigo_low'] },
  {
    name: 'eGFR 90 with UACR 30 mg/g is A2, moderately increased risk',
    answers: { [EGFR]: 90, [UACR]: 30 },
    fired: ['albuminuria_a2', 'kdigo_moderate'],
  },
  {
    name: 'eGFR 90 with UACR 300 mg/g is A3, high risk, refer',
    answers: { [EGFR]: 90, [UACR]: 300 },
    fired: ['albuminuria_a3', 'nephrology_referral', 'kdigo_high'],
  },
  {
    name: 'eGFR 40 with UACR 100 mg/g is very high risk',
    answers: { [EGFR]: 40, [EGFR_LOW_DAYS]: 200, [UACR]: 100 },
    fired: ['ckd_g3b', 'albuminuria_a2', 'kdigo_very_high'],
  },
  { name: 'BP 180/100 is stage 2, not a crisis', answers: { [SBP]: 180, [DBP]: 100 }, fired: ['hypertension_stage_2'] },
  {
    name: 'BP 181/100 is a hypertensive crisis',
    answers: { [SBP]: 181, [DBP]: 100 },
    fired: ['hypertensive_crisis', 'hypertension_stage_2'],
  },
  {
    name: 'BP 150/121 is a hypertensive crisis',
    answers: { [SBP]: 150, [DBP]: 121 },
    fired: ['hypertensive_crisis', 'hypertension_stage_2'],
  },
  { name: 'BP 129/79 is no hypertension', answers: { [SBP]: 129, [DBP]: 79 }, fired: [] },
  {
    name: 'BP 130/79 in diabetes is stage 1 and above target',
    answers: { [SBP]: 130, [DBP]: 79, [DIAGNOSED]: true },
    fired: ['hypertension_stage_1', 'bp_above_target'],
  },
  { name: 'BMI 30.0 with ancestry unknown is obesity', answers: { [BMI]: 30 }, fired: ['obesity'] },
  { name: 'BMI 29.9, not Asian American, is overweight', answers: { [BMI]: 29.9, [ASIAN]: false }, fired: ['overweight'] },
  { name: 'BMI 27.5 in an Asian American is obesity', answers: { [BMI]: 27.5, [ASIAN]: true }, fired: ['obesity'] },
  { name: 'BMI 23.0 in an Asian American is overweight', answers: { [BMI]: 23, [ASIAN]: true }, fired: ['overweight'] },
  { name: 'Age 35, untested, no diabetes: screen', answers: { [AGE]: 35, [TESTED]: false, [DIAGNOSED]: false }, fired: ['screen'] },
  { name: 'Age 34, untested, no diabetes: no screening by age', answers: { [AGE]: 34, [TESTED]: false, [DIAGNOSED]: false }, fired: [] },
];

export const ADA_2026_PACK: ContentPack = {
  key: ADA_2026_PACK_KEY,
  name: ADA_2026_PACK_NAME,
  description: ADA_2026_PACK_DESCRIPTION,
  source: 'ADA Standards of Care in Diabetes—2026; KDIGO 2024 CKD guideline; ACC/AHA 2017 High Blood Pressure Guideline',
  rules: RULES,
  vignettes: VIGNETTES,
};

export const CONTENT_PACKS: Readonly<Record<string, ContentPack>> = { [ADA_2026_PACK_KEY]: ADA_2026_PACK };

/** The parameter-template names a pack's rules and vignettes read, in first-use order. */
export function packParameterKeys(pack: ContentPack): string[] {
  const keys = new Set<string>();
  for (const r of pack.rules) for (const cond of r.conditions) keys.add(cond.parameter);
  for (const v of pack.vignettes) for (const k of Object.keys(v.answers)) keys.add(k);
  return [...keys];
}
