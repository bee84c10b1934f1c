// ADA 2026 pack, kidney: KDIGO 2024 eGFR and albuminuria categories, the risk grid and nephrology referral (Section 11).
import { c, anyOf, all, act, EGFR, UACR, EGFR_LOW_DAYS, type PackRule, type PackVignette } from './pack-building';

const KDIGO =
  'KDIGO 2024 Clinical Practice Guideline for CKD (GFR and albuminuria categories, risk heat map); ADA Standards of Care in Diabetes—2026, Section 11';
const KDIGO_REFER = 'KDIGO 2024 Clinical Practice Guideline for CKD, recommendation 5.1 (referral to specialist kidney care)';

export const KIDNEY_RULES: PackRule[] = [
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
];

export const KIDNEY_VIGNETTES: PackVignette[] = [
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
];
