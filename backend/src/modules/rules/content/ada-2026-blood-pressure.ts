// ADA 2026 pack, blood pressure: ACC/AHA 2017 categories and the BP goal in diabetes (Section 10).
import { c, anyOf, act, SBP, DBP, DIAGNOSED, type PackRule, type PackVignette } from './pack-building';

const S10 = 'ADA Standards of Care in Diabetes—2026, Section 10 (Cardiovascular Disease and Risk Management)';
const ACC_AHA = 'ACC/AHA 2017 High Blood Pressure Guideline (BP categories; hypertensive crisis > 180 and/or > 120 mmHg)';

export const BLOOD_PRESSURE_RULES: PackRule[] = [
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
];

export const BLOOD_PRESSURE_VIGNETTES: PackVignette[] = [
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
];
