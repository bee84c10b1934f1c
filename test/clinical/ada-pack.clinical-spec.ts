import { startTestApp, type TestApp } from '../support/app';
import { createCast } from '../support/factories';
import { runAssessment } from '../support/clinical-factories';
import { F, installAndPublishPack, type InstalledPack } from './ada-pack';

/**
 * The shipped ADA Standards of Care 2026 pack, installed from its template and published, run as a
 * PCP's clinical assessment: every cut-point on each side at the recorded precision, and each
 * combination rule. Values are typed in the parameter's own unit; a parameter a vignette does not
 * give is "Not available". The first expected finding is the primary recommendation.
 */

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let pack: InstalledPack;

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  pack = await installAndPublishPack(t, cast.admin);
});
afterAll(async () => {
  await t?.close();
});

type Given = Record<string, number | boolean | string>;
type Vignette = [situation: string, given: Given, expected: string[]];

const A1C = 'hba1c';
const FPG = 'fasting_glucose';
const OGTT = 'ogtt_2h_glucose';
const RPG = 'random_glucose';
const SYMPTOMS = 'classic_hyperglycemia_symptoms';
const CRISIS = 'hyperglycemic_crisis';
const EGFR = 'egfr';
const UACR = 'microalbumin';
const SBP = 'blood_pressure_systolic';
const DBP = 'blood_pressure_diastolic';
const DX = 'diabetes_diagnosed';
const BMI = 'bmi';
const ASIAN = 'asian_american';
const AGE = 'age';
const RISK = 'diabetes_risk_factor';
const TESTED = 'a1c_in_last_3_years';
const HB = 'hemoglobin';
const SEX = 'sex_assigned_at_birth';
// History inputs: in the form, the counts the record gives in a hook call.
const A1C_DAYS = 'a1c_diabetes_range_days';
const FPG_DAYS = 'fpg_diabetes_range_days';
const LOW = 'egfr_below_60_days';

const DIAGNOSIS: Vignette[] = [
  ['A1C 5.6 % with fasting glucose 99 mg/dL: no glycaemic finding', { [A1C]: 5.6, [FPG]: 99 }, []],
  ['A1C 5.7 % is prediabetes', { [A1C]: 5.7 }, [F.prediabetes]],
  ['A1C 6.4 % is prediabetes, not diabetes', { [A1C]: 6.4 }, [F.prediabetes]],
  ['A1C 6.5 % alone: diabetes needs confirmation', { [A1C]: 6.5 }, [F.a1c]],
  ['Fasting glucose 99 mg/dL alone: no finding', { [FPG]: 99 }, []],
  ['Fasting glucose 100 mg/dL is prediabetes', { [FPG]: 100 }, [F.prediabetes]],
  ['Fasting glucose 125 mg/dL is prediabetes, not diabetes', { [FPG]: 125 }, [F.prediabetes]],
  ['Fasting glucose 126 mg/dL alone: diabetes needs confirmation', { [FPG]: 126 }, [F.fpg]],
  ['2-h OGTT 139 mg/dL is normal glucose tolerance', { [OGTT]: 139 }, []],
  ['2-h OGTT 140 mg/dL is prediabetes (impaired glucose tolerance)', { [OGTT]: 140 }, [F.prediabetes]],
  ['2-h OGTT 199 mg/dL is prediabetes, not diabetes', { [OGTT]: 199 }, [F.prediabetes]],
  ['2-h OGTT 200 mg/dL alone: diabetes needs confirmation', { [OGTT]: 200 }, [F.ogtt]],
  [
    'A1C 6.5 % and fasting glucose 126 mg/dL from the same sample confirm diabetes',
    { [A1C]: 6.5, [FPG]: 126 },
    [F.confirmed, F.a1c, F.fpg],
  ],
  ['A1C 6.5 % and 2-h OGTT 200 mg/dL at the same visit confirm diabetes', { [A1C]: 6.5, [OGTT]: 200 }, [F.confirmed, F.a1c, F.ogtt]],
  ['Fasting glucose 126 and 2-h OGTT 200 mg/dL of one test confirm diabetes', { [FPG]: 126, [OGTT]: 200 }, [F.confirmed, F.fpg, F.ogtt]],
  ['A1C 6.5 % with fasting glucose 125 mg/dL: not confirmed', { [A1C]: 6.5, [FPG]: 125 }, [F.a1c, F.prediabetes]],
  ['Random glucose 200 mg/dL with classic symptoms is diabetes', { [RPG]: 200, [SYMPTOMS]: true }, [F.confirmed]],
  ['Random glucose 199 mg/dL with classic symptoms is not diagnostic', { [RPG]: 199, [SYMPTOMS]: true }, []],
  ['Random glucose 200 mg/dL in a hyperglycaemic crisis is diabetes', { [RPG]: 200, [SYMPTOMS]: false, [CRISIS]: true }, [F.confirmed]],
  [
    'Random glucose 200 mg/dL without symptoms or crisis needs confirmation',
    { [RPG]: 200, [SYMPTOMS]: false, [CRISIS]: false },
    [F.random],
  ],
  ['A1C 6.5 % with fasting glucose 99 mg/dL is discordant', { [A1C]: 6.5, [FPG]: 99 }, [F.a1c, F.discordant]],
  ['A1C 6.5 % with fasting glucose 100 mg/dL is not discordant (prediabetic FPG)', { [A1C]: 6.5, [FPG]: 100 }, [F.a1c, F.prediabetes]],
  ['Fasting glucose 126 mg/dL with A1C 5.6 % is discordant', { [FPG]: 126, [A1C]: 5.6 }, [F.fpg, F.discordant]],
  ['Fasting glucose 126 mg/dL with A1C 5.7 % is not discordant', { [FPG]: 126, [A1C]: 5.7 }, [F.fpg, F.prediabetes]],
];

const HISTORY: Vignette[] = [
  ['A1C ≥ 6.5 % on two days in 12 months confirms diabetes', { [A1C]: 6.8, [A1C_DAYS]: 2 }, [F.confirmed, F.a1c]],
  ['A1C 6.8 % on its first abnormal day still needs confirmation', { [A1C]: 6.8, [A1C_DAYS]: 1, [FPG_DAYS]: 0 }, [F.a1c]],
  ['Fasting glucose ≥ 126 mg/dL on two days confirms diabetes', { [FPG]: 128, [FPG_DAYS]: 2 }, [F.confirmed, F.fpg]],
  ['An abnormal A1C and an abnormal fasting glucose on different days confirm diabetes', { [A1C_DAYS]: 1, [FPG_DAYS]: 1 }, [F.confirmed]],
  ['A1C 7.0 % then 5.5 % twenty days later is discordant over time', { [A1C]: 5.5, [A1C_DAYS]: 1 }, [F.discordantOverTime]],
  ['A1C 6.9 % then 6.1 % is discordant over time and prediabetes', { [A1C]: 6.1, [A1C_DAYS]: 1 }, [F.discordantOverTime, F.prediabetes]],
  ['Fasting glucose 140 then 95 mg/dL is discordant over time', { [FPG]: 95, [FPG_DAYS]: 1 }, [F.discordantOverTime]],
  ['A1C 6.3 % after two abnormal days: confirmed diabetes, not discordance', { [A1C]: 6.3, [A1C_DAYS]: 2 }, [F.confirmed, F.prediabetes]],
];

const A1C_RELIABILITY: Vignette[] = [
  ['Pregnancy: A1C may be unreliable', { pregnancy_status: true }, [F.unreliable]],
  ['Haemoglobin 11.9 g/dL in a woman: A1C may be unreliable', { [HB]: 11.9, [SEX]: 'female' }, [F.unreliable]],
  ['Haemoglobin 12.0 g/dL in a woman is not anaemia', { [HB]: 12, [SEX]: 'female' }, []],
  ['Haemoglobin 12.9 g/dL in a man: A1C may be unreliable', { [HB]: 12.9, [SEX]: 'male' }, [F.unreliable]],
  ['Haemoglobin 13.0 g/dL in a man is not anaemia', { [HB]: 13, [SEX]: 'male' }, []],
  ['Transfusion in the last 3 months: A1C may be unreliable', { recent_transfusion: true }, [F.unreliable]],
];

const HYPOGLYCEMIA: Vignette[] = [
  ['Random glucose 53 mg/dL is hypoglycemia level 2', { [RPG]: 53 }, [F.hypo2]],
  ['Random glucose 54 mg/dL is hypoglycemia level 1, not level 2', { [RPG]: 54 }, [F.hypo1]],
  ['Random glucose 69 mg/dL is hypoglycemia level 1', { [RPG]: 69 }, [F.hypo1]],
  ['Random glucose 70 mg/dL is not hypoglycemia', { [RPG]: 70 }, []],
  ['Fasting glucose 53 mg/dL is hypoglycemia level 2', { [FPG]: 53 }, [F.hypo2]],
  ['Fasting glucose 69 mg/dL is hypoglycemia level 1', { [FPG]: 69 }, [F.hypo1]],
];

const KIDNEY: Vignette[] = [
  ['eGFR 14 is CKD G5 at once: critical, refer', { [EGFR]: 14 }, [F.g5, F.riskVeryHigh, F.referral, F.unreliable]],
  ['eGFR 15 is CKD G4, not G5', { [LOW]: 120, [EGFR]: 15 }, [F.g4, F.riskVeryHigh, F.referral, F.unreliable]],
  ['eGFR 29 is CKD G4', { [LOW]: 120, [EGFR]: 29 }, [F.g4, F.riskVeryHigh, F.referral, F.unreliable]],
  ['eGFR 30 is CKD G3b, not G4', { [LOW]: 120, [EGFR]: 30 }, [F.g3b]],
  ['eGFR 44 is CKD G3b', { [LOW]: 120, [EGFR]: 44 }, [F.g3b]],
  ['eGFR 45 is CKD G3a, not G3b', { [LOW]: 120, [EGFR]: 45 }, [F.g3a]],
  ['eGFR 59 is CKD G3a', { [LOW]: 120, [EGFR]: 59 }, [F.g3a]],
  ['eGFR 60 is no reduced-eGFR finding', { [EGFR]: 60, [LOW]: 0 }, []],
  ['eGFR 52, a first reduced value: persistence not yet shown', { [EGFR]: 52, [LOW]: 0 }, [F.egfrUnconfirmed]],
  ['eGFR 40 reduced for exactly 90 days: persistence not yet shown', { [EGFR]: 40, [LOW]: 90 }, [F.egfrUnconfirmed]],
  ['eGFR 40 reduced for 91 days is CKD G3b', { [EGFR]: 40, [LOW]: 91 }, [F.g3b]],
  [
    'eGFR 20, a first reduced value: persistence not yet shown, very high risk, refer',
    { [EGFR]: 20, [LOW]: 0 },
    [F.riskVeryHigh, F.referral, F.egfrUnconfirmed, F.unreliable],
  ],
  ['eGFR 14 on a first reduced value is still CKD G5 at once', { [EGFR]: 14, [LOW]: 0 }, [F.g5, F.riskVeryHigh, F.referral, F.unreliable]],
  ['UACR 29 mg/g with eGFR 90: low risk', { [UACR]: 29, [EGFR]: 90 }, [F.riskLow]],
  ['UACR 30 mg/g with eGFR 90: albuminuria A2, moderately increased risk', { [UACR]: 30, [EGFR]: 90 }, [F.a2, F.riskModerate]],
  ['UACR 299 mg/g with eGFR 90: A2, not A3', { [UACR]: 299, [EGFR]: 90 }, [F.a2, F.riskModerate]],
  ['UACR 300 mg/g with eGFR 90: A3, high risk, refer', { [UACR]: 300, [EGFR]: 90 }, [F.a3, F.referral, F.riskHigh]],
  ['UACR 300 mg/g alone: A3 and referral', { [UACR]: 300 }, [F.a3, F.referral]],
  ['eGFR 59 with UACR 29 mg/g: G3a A1, moderately increased risk', { [LOW]: 120, [EGFR]: 59, [UACR]: 29 }, [F.g3a, F.riskModerate]],
  ['eGFR 59 with UACR 30 mg/g: G3a A2, high risk', { [LOW]: 120, [EGFR]: 59, [UACR]: 30 }, [F.g3a, F.riskHigh, F.a2]],
  [
    'eGFR 59 with UACR 300 mg/g: G3a A3, very high risk',
    { [LOW]: 120, [EGFR]: 59, [UACR]: 300 },
    [F.riskVeryHigh, F.a3, F.referral, F.g3a],
  ],
  ['eGFR 44 with UACR 29 mg/g: G3b A1, high risk', { [LOW]: 120, [EGFR]: 44, [UACR]: 29 }, [F.g3b, F.riskHigh]],
  ['eGFR 44 with UACR 30 mg/g: G3b A2, very high risk', { [LOW]: 120, [EGFR]: 44, [UACR]: 30 }, [F.riskVeryHigh, F.g3b, F.a2]],
  [
    'eGFR 29 with UACR 10 mg/g: G4 is very high risk whatever the albuminuria',
    { [LOW]: 120, [EGFR]: 29, [UACR]: 10 },
    [F.g4, F.riskVeryHigh, F.referral, F.unreliable],
  ],
];

const BLOOD_PRESSURE: Vignette[] = [
  ['BP 180/100 mmHg is stage 2, not a crisis (ACC/AHA: above 180)', { [SBP]: 180, [DBP]: 100 }, [F.stage2]],
  ['BP 181/100 mmHg is a hypertensive crisis', { [SBP]: 181, [DBP]: 100 }, [F.crisis, F.stage2]],
  ['BP 150/120 mmHg is stage 2, not a crisis', { [SBP]: 150, [DBP]: 120 }, [F.stage2]],
  ['BP 150/121 mmHg is a hypertensive crisis', { [SBP]: 150, [DBP]: 121 }, [F.crisis, F.stage2]],
  ['BP 129/79 mmHg is no hypertension', { [SBP]: 129, [DBP]: 79 }, []],
  ['BP 130/79 mmHg is stage 1', { [SBP]: 130, [DBP]: 79 }, [F.stage1]],
  ['BP 139/79 mmHg is stage 1, not stage 2', { [SBP]: 139, [DBP]: 79 }, [F.stage1]],
  ['BP 140/79 mmHg is stage 2', { [SBP]: 140, [DBP]: 79 }, [F.stage2]],
  ['BP 120/80 mmHg is stage 1', { [SBP]: 120, [DBP]: 80 }, [F.stage1]],
  ['BP 120/89 mmHg is stage 1', { [SBP]: 120, [DBP]: 89 }, [F.stage1]],
  ['BP 120/90 mmHg is stage 2', { [SBP]: 120, [DBP]: 90 }, [F.stage2]],
  ['Diabetes with BP 129/79 mmHg is at target', { [SBP]: 129, [DBP]: 79, [DX]: true }, []],
  ['Diabetes with BP 130/79 mmHg is above the < 130/80 target', { [SBP]: 130, [DBP]: 79, [DX]: true }, [F.stage1, F.bpTarget]],
  ['Diabetes with BP 128/80 mmHg is above the < 130/80 target', { [SBP]: 128, [DBP]: 80, [DX]: true }, [F.stage1, F.bpTarget]],
  ['No diabetes, BP 130/79 mmHg: stage 1 only', { [SBP]: 130, [DBP]: 79, [DX]: false }, [F.stage1]],
];

const WEIGHT_AND_SCREENING: Vignette[] = [
  ['BMI 24.9, not Asian American: no weight finding', { [BMI]: 24.9, [ASIAN]: false }, []],
  ['BMI 25.0, not Asian American, is overweight', { [BMI]: 25, [ASIAN]: false }, [F.overweight]],
  ['BMI 29.9, not Asian American, is overweight, not obesity', { [BMI]: 29.9, [ASIAN]: false }, [F.overweight]],
  ['BMI 30.0, not Asian American, is obesity', { [BMI]: 30, [ASIAN]: false }, [F.obesity]],
  ['BMI 30.0 with ancestry not available is obesity', { [BMI]: 30 }, [F.obesity]],
  ['BMI 35 with ancestry not available is obesity', { [BMI]: 35 }, [F.obesity]],
  ['BMI 30.0 in an Asian American is obesity', { [BMI]: 30, [ASIAN]: true }, [F.obesity]],
  ['BMI 26 with ancestry not available is overweight either way', { [BMI]: 26 }, [F.overweight]],
  ['Asian American, BMI 22.9: no weight finding', { [BMI]: 22.9, [ASIAN]: true }, []],
  ['Asian American, BMI 23.0 is overweight', { [BMI]: 23, [ASIAN]: true }, [F.overweight]],
  ['Asian American, BMI 27.4 is overweight, not obesity', { [BMI]: 27.4, [ASIAN]: true }, [F.overweight]],
  ['Asian American, BMI 27.5 is obesity', { [BMI]: 27.5, [ASIAN]: true }, [F.obesity]],
  ['Age 35, no diabetes, no A1C in 3 years: screen', { [AGE]: 35, [TESTED]: false, [DX]: false }, [F.screen]],
  ['Age 34, no diabetes, no A1C in 3 years: no screening by age', { [AGE]: 34, [TESTED]: false, [DX]: false }, []],
  ['Age 35 with an A1C in the last 3 years: not due', { [AGE]: 35, [TESTED]: true, [DX]: false }, []],
  [
    'Age 30, BMI 25 with a risk factor, untested: screen',
    { [AGE]: 30, [BMI]: 25, [ASIAN]: false, [RISK]: true, [TESTED]: false, [DX]: false },
    [F.screen, F.overweight],
  ],
  [
    'Age 30, BMI 24.9 with a risk factor, not Asian American: no screening',
    { [AGE]: 30, [BMI]: 24.9, [ASIAN]: false, [RISK]: true, [TESTED]: false, [DX]: false },
    [],
  ],
  [
    'Asian American aged 30, BMI 23 with a risk factor, untested: screen',
    { [AGE]: 30, [BMI]: 23, [ASIAN]: true, [RISK]: true, [TESTED]: false, [DX]: false },
    [F.screen, F.overweight],
  ],
  [
    'Asian American aged 30, BMI 22.9 with a risk factor: no screening',
    { [AGE]: 30, [BMI]: 22.9, [ASIAN]: true, [RISK]: true, [TESTED]: false, [DX]: false },
    [],
  ],
];

async function run(given: Given) {
  const answers = Object.fromEntries(
    Object.entries(given).map(([name, value]) => {
      const p = pack.p[name];
      if (!p) throw new Error(`The pack did not install a parameter "${name}"`);
      return [p.id, value];
    }),
  );
  const { result } = await runAssessment(t, cast.pcp, answers);
  expect(result.is_completed).toBe(true);
  return result;
}

describe.each([
  ['ADA 2026 §2 diagnosis', DIAGNOSIS],
  ['ADA 2026 §2 diagnosis over the history', HISTORY],
  ['ADA 2026 §2 A1C reliability', A1C_RELIABILITY],
  ['ADA 2026 §6 hypoglycemia', HYPOGLYCEMIA],
  ['KDIGO 2024 kidney', KIDNEY],
  ['ACC/AHA 2017 and ADA 2026 §10 blood pressure', BLOOD_PRESSURE],
  ['ADA 2026 §8 and §2 weight and screening', WEIGHT_AND_SCREENING],
])('the installed ADA pack: %s', (_section, vignettes) => {
  it.each(vignettes)('%s', async (_situation, given, expected) => {
    const result = await run(given);
    const names = result.findings.map((f) => f.rule_name);
    expect([...names].sort()).toEqual([...expected].sort());
    expect(result.recommendation?.rule_name ?? null).toBe(expected[0] ?? null);
    for (const f of result.findings) expect(f.source).toMatch(/ADA Standards of Care in Diabetes—2026|KDIGO 2024|ACC\/AHA 2017/);
  });
});

describe('the installed ADA pack: what the physician reads', () => {
  it('critical findings: hypoglycemia level 2, CKD G5 and hypertensive crisis', async () => {
    const critical: Given[] = [{ [RPG]: 53 }, { [EGFR]: 14 }, { [SBP]: 181, [DBP]: 100 }];
    for (const given of critical) {
      const result = await run(given);
      expect(result.recommendation?.severity).toBe('critical');
    }
  });

  it('a single abnormal A1C says which test to repeat; a reduced eGFR says persistence is not yet shown', async () => {
    const a1c = (await run({ [A1C]: 6.5 })) as unknown as { findings: { actions: { message: string }[] }[] };
    expect(a1c.findings[0].actions[0].message).toContain('Repeat the A1C on a new sample');
    const first = (await run({ [EGFR]: 20, [LOW]: 0 })) as unknown as { findings: { rule_name: string; actions: { message: string }[] }[] };
    expect(first.findings.find((f) => f.rule_name === F.egfrUnconfirmed)?.actions[0].message).toContain(
      'Persistence not yet shown: repeat eGFR (with UACR) in 3 months',
    );
    expect(first.findings.map((f) => f.rule_name)).not.toContain(F.g4);
  });

  it('a reduced eGFR whose persistence is not available leaves the CKD stage undetermined, never false', async () => {
    const result = await run({ [EGFR]: 40 });
    expect(result.findings.map((f) => f.rule_name)).toEqual([]);
    expect(result.undetermined_rules.map((r) => r.rule_name)).toEqual(expect.arrayContaining([F.g3b, F.egfrUnconfirmed]));
  });

  it('BMI 28 with ancestry not available is neither overweight nor obesity: both are left undetermined', async () => {
    const result = await run({ [BMI]: 28 });
    expect(result.findings.map((f) => f.rule_name)).toEqual([]);
    expect(result.undetermined_rules.map((r) => r.rule_name)).toEqual(expect.arrayContaining([F.obesity, F.overweight]));
  });
});
