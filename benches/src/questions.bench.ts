/**
 * Questions asked per completed clinical assessment, against the number of parameters in use.
 * A generated population of patients answers each assessment the way the API drives it: the
 * engine asks, the patient gives a typed value, a band from the options offered, or "Not
 * available"; a band that straddles a cut-point is asked again once for the exact value
 * (assessments.service passes the parameters asked twice as `exactValueRequested`).
 * Knowledge bases: the ADA 2026 rules over the seeded templates, and generated panels of 20, 50
 * and 100 parameters. Fixed seed: every run measures the same population.
 * Each population is walked twice with the same seed: with the rules prepared on every step, and
 * prepared once (prepareRuleSet, as the services do); the questions asked must be identical, and the
 * CPU time of the two walks is printed with their ratio.
 * Run: npm run bench:questions   (SCALE=2 doubles every population)
 */
import {
  clinicalStart,
  clinicalStep,
  prepareRuleSet,
  seededRandom,
  typeClassOf,
  type Answers,
  type AnswerValue,
  type EngineParameter,
  type EngineRule,
  type PreparedRuleSet,
} from '@cds/engine';
import { DIABETES_TEMPLATES } from '@cds/backend/dist/modules/parameters/diabetes-templates';

/** Population per knowledge base; larger bases cost more per assessment (every step re-evaluates every rule). */
const SCALE = Number(process.env.SCALE ?? 1);
const NOT_AVAILABLE_SHARE = 0.1;
const BAND_SHARE = 0.15;

/** Mulberry32 from the engine: a small, fixed-seed generator, so runs are comparable. */
const random = seededRandom;

function normal(rnd: () => number, mean: number, sd: number): number {
  const u = Math.max(rnd(), 1e-12);
  return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
}

interface Knowledge {
  name: string;
  rules: EngineRule[];
  parameters: EngineParameter[];
  /** A value of the parameter for one patient, in its unit. */
  draw: (p: EngineParameter, rnd: () => number) => AnswerValue;
}

const cond = (parameter: string, operator: string, value: unknown, logic?: 'AND' | 'OR') => ({
  parameter,
  operator,
  value,
  ...(logic ? { logic } : {}),
});
const rule = (id: string, priority: number, conditions: EngineRule['conditions'], severity = 'medium'): EngineRule => ({
  id,
  name: id,
  priority,
  conditions,
  actions: [{ type: 'recommendation', severity, message: id }],
  rule_set_id: 'bench',
});

function ada(): Knowledge {
  // An adult primary-care population: roughly a third with prediabetes-range values, a tenth with diabetes.
  const typical: Record<string, [number, number, number]> = {
    hba1c: [5.8, 0.9, 1],
    fasting_glucose: [104, 22, 0],
    blood_pressure_systolic: [127, 17, 0],
    blood_pressure_diastolic: [79, 10, 0],
    bmi: [28.5, 5.5, 1],
    microalbumin: [25, 60, 0],
  };
  // The spec's six templates the rules read (the seed now holds the ADA pack's too), and the ancestry finding.
  const parameters: EngineParameter[] = [
    ...DIABETES_TEMPLATES.filter((t) => t.name in typical).map((t) => ({
      id: t.name,
      name: t.name,
      display_name: t.display_name,
      data_type: t.data_type,
      units: t.units,
      validation_rules: t.validation_rules,
    })),
    { id: 'asian_american', name: 'asian_american', display_name: 'Asian American ancestry', data_type: 'boolean' },
  ];
  const rules = [
    rule('Diabetes (A1C)', 80, [cond('hba1c', '>=', 6.5)], 'high'),
    rule('Diabetes (FPG)', 80, [cond('fasting_glucose', '>=', 126)], 'high'),
    rule('Prediabetes (A1C)', 50, [cond('hba1c', '>=', 5.7), cond('hba1c', '<', 6.5)]),
    rule('Prediabetes (FPG)', 50, [cond('fasting_glucose', '>=', 100), cond('fasting_glucose', '<', 126)]),
    rule(
      'Hypertensive crisis',
      100,
      [cond('blood_pressure_systolic', '>=', 180, 'OR'), cond('blood_pressure_diastolic', '>=', 120)],
      'critical',
    ),
    rule('Hypertension', 60, [cond('blood_pressure_systolic', '>=', 130, 'OR'), cond('blood_pressure_diastolic', '>=', 80)]),
    rule('Albuminuria A3', 70, [cond('microalbumin', '>=', 300)], 'high'),
    rule('Albuminuria A2', 65, [cond('microalbumin', '>=', 30), cond('microalbumin', '<', 300)]),
    rule('Obesity', 40, [cond('bmi', '>=', 30), cond('asian_american', 'equals', false)]),
    rule('Overweight', 30, [cond('bmi', '>=', 25), cond('bmi', '<', 30), cond('asian_american', 'equals', false)], 'low'),
    rule('Obesity (Asian American)', 40, [cond('bmi', '>=', 27.5), cond('asian_american', 'equals', true)]),
    rule('Overweight (Asian American)', 30, [cond('bmi', '>=', 23), cond('bmi', '<', 27.5), cond('asian_american', 'equals', true)], 'low'),
  ];
  return {
    name: 'ADA 2026 (6 templates + ancestry)',
    rules,
    parameters,
    draw: (p, rnd) => {
      if (p.data_type === 'boolean') return rnd() < 0.1;
      const [mean, sd, decimals] = typical[p.name];
      const limits = p.validation_rules as { min: number; max: number };
      const v = Math.min(limits.max, Math.max(limits.min, normal(rnd, mean, sd)));
      return Number(v.toFixed(decimals));
    },
  };
}

/**
 * A generated panel: n numeric parameters, each with a two-cut-point ladder (like prediabetes /
 * diabetes), and one rule in four combining two parameters with AND.
 */
function panel(n: number): Knowledge {
  const parameters: EngineParameter[] = Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    name: `p${i}`,
    display_name: `Parameter ${i}`,
    data_type: 'lab_range',
    units: 'mg/dL',
    validation_rules: { min: 0, max: 200, decimals: 0 },
  }));
  const rules: EngineRule[] = [];
  for (let i = 0; i < n; i++) {
    rules.push(rule(`high ${i}`, 80, [cond(`p${i}`, '>=', 140)], 'high'));
    rules.push(rule(`borderline ${i}`, 50, [cond(`p${i}`, '>=', 110), cond(`p${i}`, '<', 140)]));
    if (i % 4 === 3) rules.push(rule(`combined ${i}`, 60, [cond(`p${i - 1}`, '>=', 110), cond(`p${i}`, '>=', 110)]));
  }
  return {
    name: `generated panel (${n} parameters)`,
    rules,
    parameters,
    draw: (_p, r) => Math.round(Math.min(200, Math.max(0, normal(r, 100, 25)))),
  };
}

/**
 * A gated panel: one screening parameter and n − 1 follow-ups; every rule needs the screen to be
 * abnormal (like "TSH > 4.5 and antibodies positive"), so a normal screen makes the follow-ups moot.
 */
function gated(n: number): Knowledge {
  const base = panel(n);
  const rules: EngineRule[] = [];
  for (let i = 1; i < n; i++) {
    rules.push(rule(`screen and high ${i}`, 80, [cond('p0', '>=', 110), cond(`p${i}`, '>=', 140)], 'high'));
    rules.push(rule(`screen and borderline ${i}`, 50, [cond('p0', '>=', 110), cond(`p${i}`, '>=', 110), cond(`p${i}`, '<', 140)]));
  }
  return { ...base, name: `gated panel (1 screen + ${n - 1} follow-ups)`, rules };
}

/** One patient through one assessment; returns the number of questions asked. */
function assess(k: Knowledge, rnd: () => number, prepared?: PreparedRuleSet): number {
  const truth = new Map(k.parameters.map((p) => [p.id, k.draw(p, rnd)]));
  const unavailable = new Set(k.parameters.filter(() => rnd() < NOT_AVAILABLE_SHARE).map((p) => p.id));
  const byBand = new Set(k.parameters.filter(() => rnd() < BAND_SHARE).map((p) => p.id));
  const answers: Answers = {};
  const asked: string[] = [];
  const now = new Date('2026-11-23T00:00:00Z');
  let step = clinicalStart(k.rules, k.parameters, { now, prepared });
  while (step.status === 'question') {
    const id = step.parameter_id;
    const again = asked.includes(id);
    asked.push(id);
    const value = truth.get(id)!;
    const parameter = k.parameters.find((p) => p.id === id)!;
    let answer: AnswerValue = value;
    if (unavailable.has(id)) answer = 'unknown';
    else if (byBand.has(id) && !again && typeClassOf(parameter.data_type) === 'numeric') {
      // The band the clinician would press: the option whose interval holds the value.
      const band = step.options.find((o) => {
        const b = o.value as { type?: string; min: number | null; max: number | null; min_inclusive?: boolean; max_inclusive?: boolean };
        if (b?.type !== 'range') return false;
        const v = value as number;
        const aboveMin = b.min === null || (b.min_inclusive === false ? v > b.min : v >= b.min);
        const belowMax = b.max === null || (b.max_inclusive === false ? v < b.max : v <= b.max);
        return aboveMin && belowMax;
      });
      if (band) answer = band.value;
    }
    answers[id] = answer;
    const twice = [...new Set(asked.filter((x, i) => asked.indexOf(x) !== i))];
    step = clinicalStep(k.rules, k.parameters, answers, { now, exactValueRequested: twice, prepared });
  }
  return asked.length;
}

function usedParameters(k: Knowledge): number {
  return new Set(k.rules.flatMap((r) => r.conditions.map((c) => c.parameter))).size;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

function main(): void {
  const rows: string[] = [];
  const runs: [Knowledge, number][] = [
    [ada(), 2_000],
    [panel(20), 1_000],
    [gated(20), 1_000],
    [panel(50), 300],
    [gated(50), 300],
    [panel(100), 60],
  ];
  for (const [i, [k, population]] of runs.entries()) {
    const PATIENTS = Math.max(1, Math.round(population * SCALE));
    const walk = (prepared?: PreparedRuleSet) => {
      const rnd = random(42 + i);
      const counts: number[] = [];
      const cpu = process.cpuUsage();
      for (let n = 0; n < PATIENTS; n++) counts.push(assess(k, rnd, prepared));
      const used = process.cpuUsage(cpu);
      return { counts, ms: (used.user + used.system) / 1000 / PATIENTS };
    };
    const plain = walk();
    const fast = walk(prepareRuleSet(k.rules, k.parameters));
    if (fast.counts.join() !== plain.counts.join()) throw new Error(`${k.name}: the prepared rules asked different questions`);
    const counts = plain.counts.sort((a, b) => a - b);
    const used = usedParameters(k);
    const mean = counts.reduce((s, c) => s + c, 0) / counts.length;
    rows.push(
      `| ${k.name} | ${PATIENTS} | ${used} | ${k.rules.length} | ${mean.toFixed(2)} | ${quantile(counts, 0.5)} | ${quantile(counts, 0.9)} | ${counts.at(-1)} | ${(mean / used).toFixed(3)} | ${plain.ms.toFixed(2)} | ${fast.ms.toFixed(2)} | ${(fast.ms / plain.ms).toFixed(2)} |`,
    );
  }
  console.log('Questions asked per completed assessment (generated patients, fixed seed;');
  console.log(
    `${NOT_AVAILABLE_SHARE * 100} % of answers Not available, ${BAND_SHARE * 100} % given as a band, a straddling band asked again once)\n`,
  );
  console.log(
    '| knowledge | patients | parameters in use | rules | mean questions | median | p90 | max | ratio (mean / parameters) | CPU ms per assessment, prepared each step | prepared once | ratio |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(r);
}

main();
