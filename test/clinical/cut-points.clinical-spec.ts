import { startTestApp, type TestApp } from '../support/app';
import { createCast } from '../support/factories';
import { runAssessment } from '../support/clinical-factories';
import { buildAdaKnowledge, fired, RULES, type AdaKnowledge } from './ada-2026';

/**
 * Every ADA 2026 cut-point, one step below, on it, and one step above (a step is the parameter's
 * recorded precision), typed in the parameter's unit. Parameters a vignette does not give are
 * "Not available", so each vignette isolates one measurement.
 */

let t: TestApp;
let cast: Awaited<ReturnType<typeof createCast>>;
let k: AdaKnowledge;

beforeAll(async () => {
  t = await startTestApp();
  cast = await createCast(t);
  k = await buildAdaKnowledge(t, cast.admin);
});
afterAll(async () => {
  await t?.close();
});

type P = keyof AdaKnowledge['p'];
type Vignette = [situation: string, given: Partial<Record<P, unknown>>, expected: string[]];

const V: Vignette[] = [
  // Section 2, A1C
  ['A1C 5.6 % (one step below 5.7) is no glycaemic finding', { a1c: 5.6 }, []],
  ['A1C exactly 5.7 % is prediabetes', { a1c: 5.7 }, [RULES.prediabetesA1c]],
  ['A1C 5.8 % is prediabetes', { a1c: 5.8 }, [RULES.prediabetesA1c]],
  ['A1C 6.4 % (one step below 6.5) is prediabetes, not diabetes', { a1c: 6.4 }, [RULES.prediabetesA1c]],
  ['A1C exactly 6.5 % is diabetes', { a1c: 6.5 }, [RULES.diabetesA1c]],
  ['A1C 6.6 % is diabetes', { a1c: 6.6 }, [RULES.diabetesA1c]],
  // Section 2, fasting plasma glucose
  ['Fasting glucose 99 mg/dL is normal', { fpg: 99 }, []],
  ['Fasting glucose exactly 100 mg/dL is prediabetes (impaired fasting glucose)', { fpg: 100 }, [RULES.prediabetesFpg]],
  ['Fasting glucose 101 mg/dL is prediabetes', { fpg: 101 }, [RULES.prediabetesFpg]],
  ['Fasting glucose 125 mg/dL is prediabetes, not diabetes', { fpg: 125 }, [RULES.prediabetesFpg]],
  ['Fasting glucose exactly 126 mg/dL is diabetes', { fpg: 126 }, [RULES.diabetesFpg]],
  ['Fasting glucose 127 mg/dL is diabetes', { fpg: 127 }, [RULES.diabetesFpg]],
  // Section 10, blood pressure
  ['Systolic 129 mmHg is at target', { sbp: 129 }, []],
  ['Systolic exactly 130 mmHg is hypertension', { sbp: 130 }, [RULES.hypertension]],
  ['Systolic 131 mmHg is hypertension', { sbp: 131 }, [RULES.hypertension]],
  ['Systolic 179 mmHg is hypertension, not a crisis', { sbp: 179 }, [RULES.hypertension]],
  [
    'Systolic exactly 180 mmHg is a hypertensive crisis, shown above the hypertension finding',
    { sbp: 180 },
    [RULES.crisis, RULES.hypertension],
  ],
  ['Systolic 181 mmHg is a hypertensive crisis', { sbp: 181 }, [RULES.crisis, RULES.hypertension]],
  ['Diastolic 79 mmHg is at target', { dbp: 79 }, []],
  ['Diastolic exactly 80 mmHg is hypertension', { dbp: 80 }, [RULES.hypertension]],
  ['Diastolic 81 mmHg is hypertension', { dbp: 81 }, [RULES.hypertension]],
  ['Diastolic 119 mmHg is hypertension, not a crisis', { dbp: 119 }, [RULES.hypertension]],
  ['Diastolic exactly 120 mmHg is a hypertensive crisis', { dbp: 120 }, [RULES.crisis, RULES.hypertension]],
  ['Diastolic 121 mmHg is a hypertensive crisis', { dbp: 121 }, [RULES.crisis, RULES.hypertension]],
  // Section 11, albuminuria
  ['UACR 29 mg/g is normal to mildly increased (A1)', { uacr: 29 }, []],
  ['UACR exactly 30 mg/g is moderately increased albuminuria (A2)', { uacr: 30 }, [RULES.a2]],
  ['UACR 31 mg/g is A2', { uacr: 31 }, [RULES.a2]],
  ['UACR 299 mg/g is A2, not A3', { uacr: 299 }, [RULES.a2]],
  ['UACR exactly 300 mg/g is severely increased albuminuria (A3)', { uacr: 300 }, [RULES.a3]],
  ['UACR 301 mg/g is A3', { uacr: 301 }, [RULES.a3]],
  // Section 8, BMI (general cut-points)
  ['BMI 24.9 is not overweight', { bmi: 24.9, asian: false }, []],
  ['BMI exactly 25.0 is overweight', { bmi: 25, asian: false }, [RULES.overweight]],
  ['BMI 25.1 is overweight', { bmi: 25.1, asian: false }, [RULES.overweight]],
  ['BMI 29.9 is overweight, not obesity', { bmi: 29.9, asian: false }, [RULES.overweight]],
  ['BMI exactly 30.0 is obesity', { bmi: 30, asian: false }, [RULES.obesity]],
  ['BMI 30.1 is obesity', { bmi: 30.1, asian: false }, [RULES.obesity]],
  // Section 2 screening and Section 8, Asian American cut-points
  ['Asian American, BMI 22.9 is below the screening cut-point', { bmi: 22.9, asian: true }, []],
  ['Asian American, BMI exactly 23.0 is overweight', { bmi: 23, asian: true }, [RULES.overweightAsian]],
  ['Asian American, BMI 23.1 is overweight', { bmi: 23.1, asian: true }, [RULES.overweightAsian]],
  ['Asian American, BMI 27.4 is overweight, not obesity', { bmi: 27.4, asian: true }, [RULES.overweightAsian]],
  ['Asian American, BMI exactly 27.5 is obesity', { bmi: 27.5, asian: true }, [RULES.obesityAsian]],
  ['Asian American, BMI 27.6 is obesity', { bmi: 27.6, asian: true }, [RULES.obesityAsian]],
  ['Asian American, BMI 24 is overweight where the general cut-point would say nothing', { bmi: 24, asian: true }, [RULES.overweightAsian]],
];

describe('ADA 2026 cut-points: one step below, on, and one step above', () => {
  it.each(V)('%s', async (_situation, given, expected) => {
    const answers = Object.fromEntries(Object.entries(given).map(([name, value]) => [k.p[name as P].id, value]));
    const { result } = await runAssessment(t, cast.pcp, answers);
    expect(result.is_completed).toBe(true);
    expect(fired(result.findings)).toEqual(expected);
    expect(result.recommendation?.rule_name ?? null).toBe(expected[0] ?? null);
    // The typed value is stored as entered, never a stand-in. A question that could no longer
    // change which rules fire is not asked (BMI 22.9 makes Asian ancestry irrelevant).
    const asked = Object.entries(given).filter(([name]) => result.answer_details.some((d) => d.parameter_id === k.p[name as P].id));
    expect(asked.length).toBeGreaterThan(0);
    for (const [name, value] of asked) {
      const detail = result.answer_details.find((d) => d.parameter_id === k.p[name as P].id);
      expect(detail).toMatchObject({ value, entered_as: typeof value === 'number' ? 'typed' : 'option' });
    }
    // Each card cites its guideline.
    for (const f of result.findings) expect(f.source).toMatch(/^ADA Standards of Care in Diabetes—2026, Section \d+/);
  });
});
