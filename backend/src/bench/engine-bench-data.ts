import type { Answers, AnswerValue, Condition, EngineParameter, EngineRule } from '../engine';

/** Deterministic PRNG (mulberry32) so every run measures the same rule sets and patients. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uuid(rnd: () => number): string {
  const hex = (n: number): string =>
    Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
}

export interface BenchParameter extends EngineParameter {
  /** Clinically plausible cut-points the generated rules use. */
  cutPoints: number[];
  low: number;
  high: number;
}

const TYPES = ['number', 'lab_range', 'vitals', 'calculated'];

/** Numeric clinical parameters (lab values, vitals, BMI...) with realistic cut-points. */
export function generateParameters(count: number, rnd: () => number): BenchParameter[] {
  return Array.from({ length: count }, (_, i) => {
    const low = Math.round(rnd() * 50);
    const high = low + 10 + Math.round(rnd() * 300);
    const cutPoints = Array.from({ length: 6 }, () => Math.round((low + rnd() * (high - low)) * 10) / 10).sort((a, b) => a - b);
    return {
      id: uuid(rnd),
      name: `param_${i}`,
      display_name: `Parameter ${i}`,
      data_type: TYPES[i % TYPES.length],
      is_active: true,
      cutPoints,
      low,
      high,
    };
  });
}

const OPERATORS = ['greater_than', 'less_than', 'greater_equal', 'less_equal', 'equals', 'not_equals'];
const OPERATOR_WEIGHTS = [0.3, 0.3, 0.15, 0.15, 0.05, 0.05];

function pickOperator(rnd: () => number): string {
  let r = rnd();
  for (let i = 0; i < OPERATORS.length; i++) {
    r -= OPERATOR_WEIGHTS[i];
    if (r < 0) return OPERATORS[i];
  }
  return OPERATORS[0];
}

/** 1 to 4 conditions (mostly 2-3), AND-linked with one OR link in five. */
export function generateRules(count: number, parameters: BenchParameter[], rnd: () => number): EngineRule[] {
  return Array.from({ length: count }, (_, i) => {
    const r = rnd();
    const size = r < 0.2 ? 1 : r < 0.6 ? 2 : r < 0.9 ? 3 : 4;
    const conditions: Condition[] = Array.from({ length: size }, () => {
      const p = parameters[Math.floor(rnd() * parameters.length)];
      return {
        type: 'parameter',
        parameter: p.id,
        operator: pickOperator(rnd),
        value: p.cutPoints[Math.floor(rnd() * p.cutPoints.length)],
        logic: rnd() < 0.2 ? 'OR' : 'AND',
      };
    });
    return {
      id: uuid(rnd),
      name: `Rule ${i}`,
      priority: Math.floor(rnd() * 101),
      conditions,
      actions: [{ type: 'recommendation', severity: 'medium', message: `Advice ${i}` }],
    };
  });
}

/**
 * Patients as the assessment stores them: mostly numbers (often exactly on a cut-point),
 * some questions unanswered, some answered "unknown", some given as a range.
 */
export function generatePatients(count: number, parameters: BenchParameter[], rnd: () => number): Answers[] {
  return Array.from({ length: count }, () => {
    const answers: Answers = {};
    for (const p of parameters) {
      const r = rnd();
      let value: AnswerValue | undefined;
      if (r < 0.08) value = undefined;
      else if (r < 0.11) value = 'unknown';
      else if (r < 0.16) {
        const a = p.low + rnd() * (p.high - p.low);
        const b = p.low + rnd() * (p.high - p.low);
        value = { type: 'range', min: Math.min(a, b), max: Math.max(a, b) };
      } else if (r < 0.3) value = p.cutPoints[Math.floor(rnd() * p.cutPoints.length)];
      else value = Math.round((p.low + rnd() * (p.high - p.low)) * 10) / 10;
      if (value !== undefined) answers[p.id] = value;
    }
    return answers;
  });
}
