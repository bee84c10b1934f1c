import { Grid, decimalsFor } from './analysis-precision';
import { compileRuleSet, RESULT_TRUE } from './compile';
import { prepareRule } from './evaluate';
import { buildParameterIndex } from './parameters';
import type { Answers, AnswerValue, EngineParameter, EngineRule } from './types';
import { rankFindings } from './vignettes';

/**
 * Impact preview: what publishing a new version of the rules would do to a population of
 * patients. Both versions are compiled and run on every patient (unanswered conditions are
 * unknown, never satisfied, as in an assessment); a patient is reclassified when the primary
 * recommendation, the top finding, differs, and every finding a patient gains or loses is
 * counted too, whatever its rank.
 */

/** One patient of a population: answers keyed by parameter id, and the day within_days counts from. */
export interface ImpactPatient {
  answers: Answers;
  now?: Date | number | string;
}

/** Why a transition happened, told through the one rule responsible for it. */
export type ImpactCauseKind = 'added' | 'removed' | 'edited' | 'parameters';

export interface ImpactTransition {
  /** Primary recommendation before (rule id) or null for none. */
  from: string | null;
  to: string | null;
  /** The rule responsible: the new top finding when it changed, else the old one. */
  cause: string;
  cause_kind: ImpactCauseKind;
  count: number;
  /** Indexes into the population of the first patients who made this transition. */
  examples: number[];
}

/**
 * One finding that publishing takes from or gives to patients, whichever finding is their primary
 * recommendation (issue 20: comparing only the top finding hid "Diabetes" disappearing from
 * patients whose top finding was a hypertensive crisis).
 */
export interface ImpactFindingChange {
  /** The rule whose finding changes (the side it exists on: before for lost, after for gained). */
  rule: string;
  change: 'lost' | 'gained';
  /** How that rule changed; 'parameters' when its text did not (a parameter definition did). */
  cause_kind: ImpactCauseKind;
  count: number;
  /** Of `count`, patients whose primary recommendation stays the same: a change the transitions do not show. */
  same_primary: number;
  /** Indexes into the population of the first patients with this change. */
  examples: number[];
}

export interface ImpactComparison {
  patients: number;
  changed: number;
  /** Most patients first, at most `options.transitions`. */
  transitions: ImpactTransition[];
  /** Transitions left out by the cap (the smallest ones). */
  more_transitions: number;
  /** Patients who gain or lose any finding (primary or not). */
  findings_changed: number;
  /** Per rule and direction, most patients first, at most `options.transitions`. */
  finding_changes: ImpactFindingChange[];
  /** Finding changes left out by the cap (the smallest ones). */
  more_finding_changes: number;
}

export interface ImpactOptions {
  /** Example patients kept per transition (default 5). */
  examples?: number;
  /** Transitions listed (default all): a sweeping edit of a large set can make thousands of small ones. */
  transitions?: number;
  /** Finding changes listed (default: as many as `transitions`). */
  findingChanges?: number;
  /** Example patients kept per finding change (default: as many as `examples`). */
  findingExamples?: number;
}

const DEFAULT_EXAMPLES = 5;

/** Finding changes by rule position: `lost` indexed on the before side, `gained` on the after side. */
interface FindingTally {
  lost: (ImpactFindingChange | undefined)[];
  gained: (ImpactFindingChange | undefined)[];
}

/** What decides a rule's result and rank: a rule whose text is the same behaves the same on the same parameters. */
function ruleSignature(rule: EngineRule): string {
  return JSON.stringify([rule.name, rule.priority ?? 0, rule.conditions ?? [], rule.actions ?? []]);
}

/**
 * Compiled evaluation of one rule set in ranking order: the primary recommendation of a patient
 * is the first rule in that order whose result is true.
 */
class Ranked {
  private readonly compiled;
  private readonly order: Int32Array;
  private readonly out: Uint8Array;
  constructor(rules: readonly EngineRule[], parameters: readonly EngineParameter[]) {
    this.compiled = compileRuleSet(rules, parameters);
    const position = new Map(rules.map((r, i) => [r, i]));
    this.order = Int32Array.from(rankFindings(rules).map((r) => position.get(r)!));
    this.out = new Uint8Array(rules.length);
  }
  /** Index of the primary rule, or -1; leaves every rule's result in `results`. */
  primary(patient: ImpactPatient): number {
    const out = this.compiled.evaluateInto(patient.answers, this.out, { now: patient.now, unanswered: 'unknown' });
    for (let i = 0; i < this.order.length; i++) if (out[this.order[i]] === RESULT_TRUE) return this.order[i];
    return -1;
  }
  get results(): Uint8Array {
    return this.out;
  }
}

/**
 * Compares the primary recommendation of every patient under `before` and `after`. Each pair
 * (before, after) is compiled once; `parametersBefore`/`parametersAfter` are the parameter
 * definitions each side is read with (a published version carries its own snapshot).
 */
export class ImpactComparer {
  private readonly before: Ranked;
  private readonly after: Ranked;
  private readonly beforeIndex: Map<string, number>;
  private readonly afterIndex: Map<string, number>;
  /** Rules added, removed or edited between the two sides; a rule absent here is the same on both. */
  private readonly changes = new Map<string, Exclude<ImpactCauseKind, 'parameters'>>();
  /** Position of each rule on the other side (-1: absent), for the per-finding comparison of every patient. */
  private readonly beforeToAfter: Int32Array;
  private readonly afterToBefore: Int32Array;
  /**
   * Rule positions whose finding can differ between the sides: a rule whose text is the same, read
   * through the same parameter definitions, fires for the same patients, so only added, removed and
   * edited rules are looked at, unless a parameter definition changed (then every rule is).
   */
  private readonly suspectsBefore: Int32Array;
  private readonly suspectsAfter: Int32Array;

  constructor(
    private readonly rulesBefore: readonly EngineRule[],
    private readonly rulesAfter: readonly EngineRule[],
    parametersBefore: readonly EngineParameter[],
    parametersAfter: readonly EngineParameter[] = parametersBefore,
  ) {
    this.before = new Ranked(rulesBefore, parametersBefore);
    this.after = new Ranked(rulesAfter, parametersAfter);
    this.beforeIndex = new Map(rulesBefore.map((r, i) => [r.id, i]));
    this.afterIndex = new Map(rulesAfter.map((r, i) => [r.id, i]));
    for (const r of rulesBefore) {
      const a = this.afterIndex.get(r.id);
      if (a === undefined) this.changes.set(r.id, 'removed');
      else if (ruleSignature(r) !== ruleSignature(rulesAfter[a])) this.changes.set(r.id, 'edited');
    }
    for (const r of rulesAfter) if (!this.beforeIndex.has(r.id)) this.changes.set(r.id, 'added');
    this.beforeToAfter = Int32Array.from(rulesBefore.map((r) => this.afterIndex.get(r.id) ?? -1));
    this.afterToBefore = Int32Array.from(rulesAfter.map((r) => this.beforeIndex.get(r.id) ?? -1));
    const all = !sameDefinitions(parametersBefore, parametersAfter);
    const positions = (rules: readonly EngineRule[]) =>
      Int32Array.from(rules.flatMap((r, i) => (all || this.changes.has(r.id) ? [i] : [])));
    this.suspectsBefore = positions(rulesBefore);
    this.suspectsAfter = positions(rulesAfter);
  }

  compare(patients: readonly ImpactPatient[], options: ImpactOptions = {}): ImpactComparison {
    const keep = options.examples ?? DEFAULT_EXAMPLES;
    const transitions = new Map<string, ImpactTransition>();
    const findingChanges: FindingTally = { lost: [], gained: [] };
    let changed = 0;
    let findingsChanged = 0;
    for (let p = 0; p < patients.length; p++) {
      const b = this.before.primary(patients[p]);
      const a = this.after.primary(patients[p]);
      const from = b < 0 ? null : this.rulesBefore[b].id;
      const to = a < 0 ? null : this.rulesAfter[a].id;
      if (this.findingChanges(p, from === to, findingChanges, options.findingExamples ?? keep)) findingsChanged++;
      if (from === to) continue;
      changed++;
      const [cause, cause_kind] = this.cause(from, to);
      const key = `${from}\u0000${to}\u0000${cause}`;
      let t = transitions.get(key);
      if (!t) {
        t = { from, to, cause, cause_kind, count: 0, examples: [] };
        transitions.set(key, t);
      }
      t.count++;
      if (t.examples.length < keep) t.examples.push(p);
    }
    const sorted = [...transitions.values()].sort(
      (x, y) => y.count - x.count || String(x.from).localeCompare(String(y.from)) || String(x.to).localeCompare(String(y.to)),
    );
    const findings = [...findingChanges.lost, ...findingChanges.gained]
      .filter((c) => c !== undefined)
      .sort((x, y) => y.count - x.count || x.change.localeCompare(y.change) || x.rule.localeCompare(y.rule));
    const cap = options.transitions ?? sorted.length;
    const findingCap = options.findingChanges ?? options.transitions ?? findings.length;
    return {
      patients: patients.length,
      changed,
      transitions: sorted.slice(0, cap),
      more_transitions: Math.max(0, sorted.length - cap),
      findings_changed: findingsChanged,
      finding_changes: findings.slice(0, findingCap),
      more_finding_changes: Math.max(0, findings.length - findingCap),
    };
  }

  /**
   * Every finding patient `p` loses or gains, whatever its rank, counted in `into` by rule position
   * (lost: position before, gained: position after). Call right after both sides evaluated the
   * patient; true when any finding changed.
   */
  private findingChanges(p: number, samePrimary: boolean, into: FindingTally, keep: number): boolean {
    let any = false;
    const record = (slots: (ImpactFindingChange | undefined)[], k: number, rule: string, change: 'lost' | 'gained') => {
      any = true;
      let c = slots[k];
      if (!c) {
        c = { rule, change, cause_kind: this.changes.get(rule) ?? 'parameters', count: 0, same_primary: 0, examples: [] };
        slots[k] = c;
      }
      c.count++;
      if (samePrimary) c.same_primary++;
      if (c.examples.length < keep) c.examples.push(p);
    };
    const before = this.before.results;
    const after = this.after.results;
    const suspectsBefore = this.suspectsBefore;
    for (let k = 0; k < suspectsBefore.length; k++) {
      const i = suspectsBefore[k];
      if (before[i] !== RESULT_TRUE) continue;
      const j = this.beforeToAfter[i];
      if (j < 0 || after[j] !== RESULT_TRUE) record(into.lost, i, this.rulesBefore[i].id, 'lost');
    }
    const suspectsAfter = this.suspectsAfter;
    for (let k = 0; k < suspectsAfter.length; k++) {
      const j = suspectsAfter[k];
      if (after[j] !== RESULT_TRUE) continue;
      const i = this.afterToBefore[j];
      if (i < 0 || before[i] !== RESULT_TRUE) record(into.gained, j, this.rulesAfter[j].id, 'gained');
    }
    return any;
  }

  /**
   * The old top finding is responsible when it was removed, or edited so that it no longer fires
   * for this patient (it let the patient go); else the new top finding when it was added or
   * edited (it took the patient); else the old one when it was edited (its rank moved). When
   * neither rule's text changed, a parameter definition did (units, type, options).
   * Call right after both sides evaluated the patient.
   */
  private cause(from: string | null, to: string | null): [string, ImpactCauseKind] {
    const kind = (id: string) => this.changes.get(id) ?? null;
    const fromKind = from === null ? null : kind(from);
    if (from !== null && fromKind !== null && (fromKind === 'removed' || this.after.results[this.afterIndex.get(from)!] !== RESULT_TRUE)) {
      return [from, fromKind];
    }
    const toKind = to === null ? null : kind(to);
    if (to !== null && toKind !== null) return [to, toKind];
    if (from !== null && fromKind !== null) return [from, fromKind];
    return [(to ?? from)!, 'parameters'];
  }
}

/**
 * What of a parameter decides a condition's result: the reference resolves by id, name or display
 * name, and the data type says how the answer is read. Units, limits and wording do not.
 */
function evaluationSignature(p: EngineParameter): string {
  return JSON.stringify([p.id, p.name, p.display_name ?? null, p.data_type ?? null]);
}

/** True when both lists give every rule the same reading (order aside). */
function sameDefinitions(a: readonly EngineParameter[], b: readonly EngineParameter[]): boolean {
  if (a === b) return true;
  const sa = new Set(a.map(evaluationSignature));
  const sb = new Set(b.map(evaluationSignature));
  return sa.size === sb.size && [...sb].every((x) => sa.has(x));
}

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
