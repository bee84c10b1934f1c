import { Grid, decimalsFor } from './analysis-precision';
import { prepareRule } from './evaluate';
import type { ImpactPatient } from './impact';
import { buildParameterIndex } from './parameters';
import type { Answers, AnswerValue, EngineParameter, EngineRule } from './types';

/**
 * The impact preview's generated population: patients drawn around the cut-points the rules use,
 * the same ones for the same seed.
 */

/** Small, fast, seedable PRNG (mulberry32): the same seed always draws the same population. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface PopulationOptions {
  size: number;
  seed: number;
  /** Share of answers left unanswered (default 0.15). */
  unanswered?: number;
  /** Grid steps either side of a cut-point values are drawn from (default 3). */
  spread?: number;
  /** Reference day for within_days conditions (answers are dated relative to it). */
  now?: Date | number | string;
}

const DAY_MS = 86_400_000;

function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function limits(p: EngineParameter | null): { min: number; max: number } {
  const r = (p?.validation_rules ?? {}) as { min?: unknown; max?: unknown };
  return {
    min: typeof r.min === 'number' && Number.isFinite(r.min) ? r.min : -Infinity,
    max: typeof r.max === 'number' && Number.isFinite(r.max) ? r.max : Infinity,
  };
}

interface Candidates {
  numbers: number[];
  decimals: number;
  min: number;
  max: number;
  /** Values drawn as they are (booleans, texts, dates). */
  values: AnswerValue[];
}

/**
 * Per parameter key, what to draw from: the numeric cut-points of every condition on it (drawn
 * within `spread` recorded steps either side), the booleans, the texts the rules name and one
 * they do not, and the dates one day either side of a date threshold or a within_days limit.
 */
export function populationCandidates(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  referenceDay: number,
): Map<string, Candidates> {
  const index = buildParameterIndex(parameters);
  const byKey = new Map<string, Candidates & { parameter: EngineParameter | null }>();
  for (const rule of rules) {
    for (const c of prepareRule(rule, index).conditions) {
      if (c.failure !== null) continue;
      let entry = byKey.get(c.key);
      if (!entry) {
        entry = { parameter: c.parameter, numbers: [], decimals: 0, ...limits(c.parameter), values: [] };
        byKey.set(c.key, entry);
      }
      switch (c.domain) {
        case 'numeric':
          entry.numbers.push(c.num);
          break;
        case 'boolean':
          entry.values.push(true, false);
          break;
        case 'date':
          entry.values.push(isoDay(c.num - 1), isoDay(c.num), isoDay(c.num + 1));
          break;
        case 'within_days':
          if (Number.isFinite(referenceDay)) entry.values.push(isoDay(referenceDay - c.num), isoDay(referenceDay - c.num - 1));
          break;
        default:
          entry.values.push(c.text, `not ${c.text}`);
      }
    }
  }
  const out = new Map<string, Candidates>();
  for (const [key, { parameter, ...entry }] of byKey) {
    const numbers = [...new Set(entry.numbers)].sort((x, y) => x - y);
    out.set(key, { ...entry, numbers, decimals: decimalsFor(parameter, numbers), values: [...new Set(entry.values)] });
  }
  return out;
}

/**
 * A deterministic population drawn around the cut-points the rules use: for each patient and
 * each parameter a rule reads, the answer is left out (unanswered) with probability
 * `unanswered`, else drawn near a random one of its cut-points, below, on or above it, at the
 * precision the parameter is recorded at (within its plausible min/max).
 */
export function generatePopulation(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[],
  options: PopulationOptions,
): ImpactPatient[] {
  const random = seededRandom(options.seed);
  const day = options.now === undefined ? NaN : Math.floor(new Date(options.now).getTime() / DAY_MS);
  const candidates = [...populationCandidates(rules, parameters, day)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const unanswered = options.unanswered ?? 0.15;
  const spread = options.spread ?? 3;
  const grids = candidates.map(([, c]) => new Grid(c.decimals));
  const patients: ImpactPatient[] = [];
  for (let p = 0; p < options.size; p++) {
    const answers: Answers = {};
    candidates.forEach(([key, c], i) => {
      if (random() < unanswered) return;
      const pool = c.numbers.length + c.values.length;
      if (!pool) return;
      const pick = Math.floor(random() * pool);
      if (pick >= c.numbers.length) {
        answers[key] = c.values[pick - c.numbers.length];
        return;
      }
      const grid = grids[i];
      const steps = Math.floor(random() * (2 * spread + 1)) - spread;
      const value = grid.value(grid.floor(c.numbers[pick]) + steps);
      answers[key] = Math.min(c.max, Math.max(c.min, value));
    });
    patients.push(options.now === undefined ? { answers } : { answers, now: options.now });
  }
  return patients;
}
