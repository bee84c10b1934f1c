// ADA 2026 pack, glycemia: diagnosis and its confirmation, prediabetes, discordant results, A1C reliability (Section 2) and hypoglycemia (Section 6).
import {
  c,
  anyOf,
  all,
  act,
  A1C,
  FPG,
  OGTT,
  RPG,
  SYMPTOMS,
  CRISIS,
  PREGNANT,
  HB,
  SEX,
  TRANSFUSION,
  EGFR,
  A1C_DAYS,
  FPG_DAYS,
  type PackRule,
  type PackVignette,
} from './pack-building';

const S2 = 'ADA Standards of Care in Diabetes—2026, Section 2 (Diagnosis and Classification of Diabetes), Table 2.1';
const S2_PRE = 'ADA Standards of Care in Diabetes—2026, Section 2, Table 2.2 (prediabetes)';
const S2_A1C = 'ADA Standards of Care in Diabetes—2026, Section 2 (A1C: conditions that affect its accuracy)';
const S6 = 'ADA Standards of Care in Diabetes—2026, Section 6 (Glycemic Goals and Hypoglycemia), Table 6.4';

const CONFIRM_LATER =
  'A single abnormal result: diabetes is not yet confirmed. A second abnormal result (the same test on a new sample, or a different test from the same sample) confirms it; when one is given with it, "Diabetes (confirmed)" is shown as well.';

export const GLYCEMIA_RULES: PackRule[] = [
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
];

export const GLYCEMIA_VIGNETTES: PackVignette[] = [
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
];
