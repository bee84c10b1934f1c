// ADA 2026 pack, weight and screening: BMI categories with the Asian-American cut-points (Section 8) and diabetes screening (Section 2).
import { c, anyOf, act, DIAGNOSED, BMI, ASIAN, AGE, RISK, TESTED, type PackRule, type PackVignette } from './pack-building';

const S2_SCREEN = 'ADA Standards of Care in Diabetes—2026, Section 2, Table 2.3 (screening adults)';
const S8 =
  'ADA Standards of Care in Diabetes—2026, Section 8 (Obesity and Weight Management); Section 2 (BMI ≥ 23 kg/m² in Asian Americans)';

export const WEIGHT_SCREENING_RULES: PackRule[] = [
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

export const WEIGHT_SCREENING_VIGNETTES: PackVignette[] = [
  { name: 'BMI 30.0 with ancestry unknown is obesity', answers: { [BMI]: 30 }, fired: ['obesity'] },
  { name: 'BMI 29.9, not Asian American, is overweight', answers: { [BMI]: 29.9, [ASIAN]: false }, fired: ['overweight'] },
  { name: 'BMI 27.5 in an Asian American is obesity', answers: { [BMI]: 27.5, [ASIAN]: true }, fired: ['obesity'] },
  { name: 'BMI 23.0 in an Asian American is overweight', answers: { [BMI]: 23, [ASIAN]: true }, fired: ['overweight'] },
  { name: 'Age 35, untested, no diabetes: screen', answers: { [AGE]: 35, [TESTED]: false, [DIAGNOSED]: false }, fired: ['screen'] },
  { name: 'Age 34, untested, no diabetes: no screening by age', answers: { [AGE]: 34, [TESTED]: false, [DIAGNOSED]: false }, fired: [] },
];
