import { seededRandom, type Answers, type AnswerValue, type Condition, type EngineParameter, type EngineRule } from '@cds/engine';

/** Deterministic PRNG (mulberry32, the engine's) so every run measures the same rule sets and patients. */
export const random = seededRandom;

function uuid(rnd: () => number): string {
  const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
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

/**
 * The realistic mix (issue 13): besides numeric parameters, booleans (answered true / false),
 * selects (one of the configured options), free text (searched with contains / starts with /
 * ends with, or compared exactly) and dates (ISO days, compared with before / after / on).
 */
export type MixedKind = 'numeric' | 'boolean' | 'select' | 'text' | 'date';

export interface MixedParameter extends BenchParameter {
  kind: MixedKind;
  /** Select options, text phrases or ISO dates the rules and answers draw from. */
  values: string[];
}

/** Of every ten parameters: five numeric, two boolean, one select, one text, one date. */
const MIX: readonly MixedKind[] = ['numeric', 'numeric', 'boolean', 'numeric', 'select', 'numeric', 'text', 'boolean', 'numeric', 'date'];
const PHRASES = [
  'Family history of Type 2 diabetes',
  'Mother had gestational diabetes',
  'No family history',
  'Father: hypertension, Type 2 diabetes',
  'Smoker, 10 pack-years',
  'Former smoker',
  'Sedentary; shift work',
  'Takes metformin 500 mg',
  'Statin intolerance',
  'Night-time hypoglycaemia reported',
];
const SEARCH_WORDS = ['diabetes', 'smoker', 'family', 'type 2', 'metformin', 'hypo', 'former', 'no '];
const DAY_MS = 86_400_000;

function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function generateMixedParameters(count: number, rnd: () => number): MixedParameter[] {
  return generateParameters(count, rnd).map((p, i) => {
    const kind = MIX[i % MIX.length];
    const data_type = kind === 'numeric' ? p.data_type : kind;
    let values: string[] = [];
    if (kind === 'select') values = Array.from({ length: 3 + Math.floor(rnd() * 3) }, (_, k) => `Option ${i}.${k}`);
    else if (kind === 'text') values = PHRASES;
    else if (kind === 'date') {
      const start = 19_000 + Math.floor(rnd() * 1_000); // 2022-2024
      values = Array.from({ length: 6 }, () => isoDay(start + Math.floor(rnd() * 400))).sort();
    }
    return { ...p, data_type, kind, values };
  });
}

const pick = <T>(items: readonly T[], rnd: () => number): T => items[Math.floor(rnd() * items.length)];

function mixedCondition(p: MixedParameter, rnd: () => number): Condition {
  const logic: Condition['logic'] = rnd() < 0.2 ? 'OR' : 'AND';
  const base = { type: 'parameter' as const, parameter: p.id, logic };
  switch (p.kind) {
    case 'numeric':
      return { ...base, operator: pickOperator(rnd), value: pick(p.cutPoints, rnd) };
    case 'boolean':
      return { ...base, operator: rnd() < 0.8 ? 'equals' : 'not_equals', value: rnd() < 0.7 };
    case 'select':
      return { ...base, operator: rnd() < 0.8 ? 'equals' : 'not_equals', value: pick(p.values, rnd) };
    case 'text': {
      const r = rnd();
      if (r < 0.2) return { ...base, operator: 'equals', value: pick(p.values, rnd) };
      return { ...base, operator: r < 0.7 ? 'contains' : r < 0.85 ? 'starts_with' : 'ends_with', value: pick(SEARCH_WORDS, rnd) };
    }
    case 'date':
      return { ...base, operator: pick(['before', 'after', 'before', 'after', 'equals', 'not_equals'], rnd), value: pick(p.values, rnd) };
  }
}

/** Rules as generateRules() shapes them, each condition on a parameter of any kind. */
export function generateMixedRules(count: number, parameters: MixedParameter[], rnd: () => number): EngineRule[] {
  return Array.from({ length: count }, (_, i) => {
    const r = rnd();
    const size = r < 0.2 ? 1 : r < 0.6 ? 2 : r < 0.9 ? 3 : 4;
    return {
      id: uuid(rnd),
      name: `Rule ${i}`,
      priority: Math.floor(rnd() * 101),
      conditions: Array.from({ length: size }, () => mixedCondition(pick(parameters, rnd), rnd)),
      actions: [{ type: 'recommendation', severity: 'medium', message: `Advice ${i}` }],
    };
  });
}

function mixedAnswer(p: MixedParameter, rnd: () => number): AnswerValue {
  switch (p.kind) {
    case 'boolean':
      return rnd() < 0.5;
    case 'select':
      return pick(p.values, rnd);
    case 'text': {
      const phrase = pick(p.values, rnd);
      return rnd() < 0.3 ? phrase.toUpperCase() : phrase;
    }
    case 'date': {
      // Often exactly a rule's date, otherwise a day around them.
      if (rnd() < 0.3) return pick(p.values, rnd);
      const first = Date.parse(p.values[0]) / DAY_MS;
      const last = Date.parse(p.values[p.values.length - 1]) / DAY_MS;
      return isoDay(first - 30 + Math.floor(rnd() * (last - first + 60)));
    }
    case 'numeric': {
      const r = rnd();
      if (r < 0.06) {
        const a = p.low + rnd() * (p.high - p.low);
        const b = p.low + rnd() * (p.high - p.low);
        return { type: 'range', min: Math.min(a, b), max: Math.max(a, b) };
      }
      if (r < 0.25) return pick(p.cutPoints, rnd);
      return Math.round((p.low + rnd() * (p.high - p.low)) * 10) / 10;
    }
  }
}

/**
 * Answer maps as the API receives them: JSON bodies, parsed. A question not answered has no key
 * at all (30 %), so nearly every patient's object has a shape of its own; 4 % are "unknown".
 */
export function generateMixedPatients(count: number, parameters: MixedParameter[], rnd: () => number): Answers[] {
  return Array.from({ length: count }, () => {
    const body: Record<string, AnswerValue> = {};
    for (const p of parameters) {
      const r = rnd();
      if (r < 0.3) continue;
      body[p.id] = r < 0.34 ? 'unknown' : mixedAnswer(p, rnd);
    }
    return JSON.parse(JSON.stringify(body)) as Answers;
  });
}

/**
 * Rules as a population rule set shapes them (issue 21, deliverable 8): about three conditions a
 * rule (2, 3 or 4, one in four, two in four, one in four) on parameters of every kind, and a
 * third of the rules joining two groups with OR (`a AND b OR c`); the others are all AND.
 */
export function generatePopulationRules(count: number, parameters: MixedParameter[], rnd: () => number): EngineRule[] {
  return Array.from({ length: count }, (_, i) => {
    const r = rnd();
    const size = r < 0.25 ? 2 : r < 0.75 ? 3 : 4;
    const orAt = rnd() < 1 / 3 ? Math.floor(rnd() * (size - 1)) : -1;
    return {
      id: uuid(rnd),
      name: `Rule ${i}`,
      priority: Math.floor(rnd() * 101),
      conditions: Array.from({ length: size }, (_, k) => ({
        ...mixedCondition(pick(parameters, rnd), rnd),
        logic: k === orAt ? ('OR' as const) : ('AND' as const),
      })),
      actions: [{ type: 'recommendation', severity: 'medium', message: `Advice ${i}` }],
    };
  });
}

/**
 * Sparse answer maps of a population: each patient has answers for a share of the parameters of
 * their own (10 % to 60 %), an unanswered question has no key, so nearly every patient's object
 * has a shape no other has; answers of every kind, 4 % of them 'unknown'; parsed from JSON.
 */
export function generatePopulationPatients(count: number, parameters: MixedParameter[], rnd: () => number): Answers[] {
  return Array.from({ length: count }, () => {
    const density = 0.1 + rnd() * 0.5;
    const body: Record<string, AnswerValue> = {};
    for (const p of parameters) {
      if (rnd() >= density) continue;
      body[p.id] = rnd() < 0.04 ? 'unknown' : mixedAnswer(p, rnd);
    }
    return JSON.parse(JSON.stringify(body)) as Answers;
  });
}
