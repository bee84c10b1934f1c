import type { TestApp } from '../support/app';
import type { TestUser } from '../support/factories';
import {
  action,
  cond,
  createFromTemplate,
  createParameter,
  createPublishedRuleSet,
  seedTemplates,
  type ParameterJson,
  type RuleJson,
  type RuleSetJson,
  type VersionJson,
} from '../support/clinical-factories';

/**
 * The knowledge a clinic would publish from the ADA Standards of Care in Diabetes—2026, built
 * through the API as an administrator would: parameters from the seeded templates, rule sets with
 * their cut-points written half-open as the Standards' tables give them.
 *
 *  - Section 2, Table 2.1/2.2: diabetes A1C ≥ 6.5 % or FPG ≥ 126 mg/dL; prediabetes A1C 5.7–6.4 %
 *    or FPG 100–125 mg/dL (written as ≥ 5.7 and < 6.5, ≥ 100 and < 126).
 *  - Section 10: hypertension ≥ 130/80 mmHg; hypertensive crisis ≥ 180/120 mmHg (critical).
 *  - Section 11: albuminuria UACR ≥ 30 mg/g (A2), ≥ 300 mg/g (A3).
 *  - Section 8 and Section 2 screening: BMI overweight ≥ 25, obesity ≥ 30 kg/m²; in Asian
 *    Americans ≥ 23 and ≥ 27.5 kg/m².
 */

export const SECTION_2 = 'ADA Standards of Care in Diabetes—2026, Section 2';
export const SECTION_10 = 'ADA Standards of Care in Diabetes—2026, Section 10';
export const SECTION_11 = 'ADA Standards of Care in Diabetes—2026, Section 11';
export const SECTION_8 = 'ADA Standards of Care in Diabetes—2026, Section 8';

export interface AdaKnowledge {
  p: {
    a1c: ParameterJson;
    fpg: ParameterJson;
    sbp: ParameterJson;
    dbp: ParameterJson;
    bmi: ParameterJson;
    uacr: ParameterJson;
    asian: ParameterJson;
  };
  sets: Record<'diagnosis' | 'bp' | 'kidney' | 'weight', { ruleSet: RuleSetJson; rules: RuleJson[]; version: VersionJson }>;
}

export const RULES = {
  diabetesA1c: 'Diabetes (A1C ≥ 6.5 %)',
  diabetesFpg: 'Diabetes (fasting glucose ≥ 126 mg/dL)',
  prediabetesA1c: 'Prediabetes (A1C 5.7–6.4 %)',
  prediabetesFpg: 'Prediabetes (fasting glucose 100–125 mg/dL)',
  crisis: 'Hypertensive crisis (≥ 180/120 mmHg)',
  hypertension: 'Hypertension (≥ 130/80 mmHg)',
  a2: 'Moderately increased albuminuria (UACR 30–299 mg/g)',
  a3: 'Severely increased albuminuria (UACR ≥ 300 mg/g)',
  overweight: 'Overweight (BMI 25–29.9)',
  obesity: 'Obesity (BMI ≥ 30)',
  overweightAsian: 'Overweight, Asian American (BMI 23–27.4)',
  obesityAsian: 'Obesity, Asian American (BMI ≥ 27.5)',
} as const;

export async function buildAdaKnowledge(t: TestApp, admin: TestUser): Promise<AdaKnowledge> {
  const templates = await seedTemplates(t, admin);
  const fromTemplate = (name: string, suffix: string) => createFromTemplate(t, admin, templates[name], { name: `${name}_${suffix}` });
  const suffix = Date.now().toString(36);
  const p = {
    a1c: await fromTemplate('hba1c', suffix),
    fpg: await fromTemplate('fasting_glucose', suffix),
    sbp: await fromTemplate('blood_pressure_systolic', suffix),
    dbp: await fromTemplate('blood_pressure_diastolic', suffix),
    bmi: await fromTemplate('bmi', suffix),
    uacr: await fromTemplate('microalbumin', suffix),
    asian: await createParameter(t, admin, {
      name: `asian_american_${suffix}`,
      display_name: 'Asian American ancestry',
      data_type: 'boolean',
      category: 'demographics',
    }),
  };

  const diagnosis = await createPublishedRuleSet(
    t,
    admin,
    [
      {
        name: RULES.diabetesA1c,
        priority: 80,
        conditions: [cond(p.a1c, '>=', 6.5)],
        actions: [
          action('Diagnose diabetes; confirm with a second test unless the diagnosis is clinically clear', {
            severity: 'high',
            type: 'alert',
          }),
        ],
      },
      {
        name: RULES.diabetesFpg,
        priority: 80,
        conditions: [cond(p.fpg, '>=', 126)],
        actions: [
          action('Diagnose diabetes; confirm with a second test unless the diagnosis is clinically clear', {
            severity: 'high',
            type: 'alert',
          }),
        ],
      },
      {
        name: RULES.prediabetesA1c,
        priority: 50,
        conditions: [cond(p.a1c, '>=', 5.7), cond(p.a1c, '<', 6.5)],
        actions: [action('Refer to a diabetes prevention program; retest yearly', { type: 'lifestyle' })],
      },
      {
        name: RULES.prediabetesFpg,
        priority: 50,
        conditions: [cond(p.fpg, '>=', 100), cond(p.fpg, '<', 126)],
        actions: [action('Refer to a diabetes prevention program; retest yearly', { type: 'lifestyle' })],
      },
    ],
    { name: 'ADA 2026 Diagnosis', source: SECTION_2 },
  );
  const bp = await createPublishedRuleSet(
    t,
    admin,
    [
      {
        name: RULES.crisis,
        priority: 100,
        conditions: [cond(p.sbp, '>=', 180, 'OR'), cond(p.dbp, '>=', 120)],
        actions: [action('Hypertensive crisis: evaluate today for target-organ damage', { severity: 'critical', type: 'referral' })],
      },
      {
        name: RULES.hypertension,
        priority: 60,
        conditions: [cond(p.sbp, '>=', 130, 'OR'), cond(p.dbp, '>=', 80)],
        actions: [action('Confirm with repeated readings; start lifestyle therapy and treat to < 130/80', { severity: 'medium' })],
      },
    ],
    { name: 'ADA 2026 Blood pressure', source: SECTION_10 },
  );
  const kidney = await createPublishedRuleSet(
    t,
    admin,
    [
      {
        name: RULES.a3,
        priority: 70,
        conditions: [cond(p.uacr, '>=', 300)],
        actions: [action('Confirm within 3–6 months; start an ACE inhibitor or ARB and an SGLT2 inhibitor', { severity: 'high' })],
      },
      {
        name: RULES.a2,
        priority: 65,
        conditions: [cond(p.uacr, '>=', 30), cond(p.uacr, '<', 300)],
        actions: [action('Confirm with 2 of 3 samples over 3–6 months; consider an ACE inhibitor or ARB', { severity: 'medium' })],
      },
    ],
    { name: 'ADA 2026 Kidney', source: SECTION_11 },
  );
  const weight = await createPublishedRuleSet(
    t,
    admin,
    [
      {
        name: RULES.obesity,
        priority: 40,
        conditions: [cond(p.bmi, '>=', 30), cond(p.asian, 'equals', false)],
        actions: [action('Obesity: offer weight-management treatment', { severity: 'medium' })],
      },
      {
        name: RULES.overweight,
        priority: 30,
        conditions: [cond(p.bmi, '>=', 25), cond(p.bmi, '<', 30), cond(p.asian, 'equals', false)],
        actions: [action('Overweight: screen for diabetes and offer lifestyle intervention', { severity: 'low' })],
      },
      {
        name: RULES.obesityAsian,
        priority: 40,
        conditions: [cond(p.bmi, '>=', 27.5), cond(p.asian, 'equals', true)],
        actions: [action('Obesity at the Asian American cut-point: offer weight-management treatment', { severity: 'medium' })],
      },
      {
        name: RULES.overweightAsian,
        priority: 30,
        conditions: [cond(p.bmi, '>=', 23), cond(p.bmi, '<', 27.5), cond(p.asian, 'equals', true)],
        actions: [action('Overweight at the Asian American cut-point: screen for diabetes', { severity: 'low' })],
      },
    ],
    { name: 'ADA 2026 Weight', source: SECTION_8 },
  );
  return { p, sets: { diagnosis, bp, kidney, weight } };
}

/** The names of the rules that fired, primary first. */
export const fired = (findings: { rule_name: string }[]) => findings.map((f) => f.rule_name);
