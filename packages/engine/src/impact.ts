import { compileRuleSet, RESULT_TRUE } from './compile';
import type { Answers, EngineParameter, EngineRule } from './types';
import { rankFindings } from './vignettes';

export { generatePopulation, populationCandidates, seededRandom, type PopulationOptions } from './impact-population';

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

/** A comparison fed slice by slice (ImpactComparer.tally). */
export interface ImpactTally {
  add(patients: readonly ImpactPatient[], start: number, end: number): void;
  result(): ImpactComparison;
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
    const tally = this.tally(options);
    tally.add(patients, 0, patients.length);
    return tally.result();
  }

  /**
   * The same comparison fed in slices, so a caller can report its progress between them (the API
   * streams "N of M patients compared"): `add` takes patients `start` to `end` of the population,
   * slice after slice in order, and `result` gives what `compare` on the whole population gives.
   */
  tally(options: ImpactOptions = {}): ImpactTally {
    const keep = options.examples ?? DEFAULT_EXAMPLES;
    const transitions = new Map<string, ImpactTransition>();
    const findingChanges: FindingTally = { lost: [], gained: [] };
    let changed = 0;
    let findingsChanged = 0;
    let seen = 0;
    const add = (patients: readonly ImpactPatient[], start: number, end: number) => {
      // Examples are the first patients of a kind: an out-of-order slice would name other ones.
      if (start !== seen || end < start || end > patients.length) throw new RangeError(`Slice ${start}–${end} after ${seen} patients`);
      for (let p = start; p < end; p++) {
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
      seen = end;
    };
    const result = (): ImpactComparison => {
      const sorted = [...transitions.values()].sort(
        (x, y) => y.count - x.count || String(x.from).localeCompare(String(y.from)) || String(x.to).localeCompare(String(y.to)),
      );
      const findings = [...findingChanges.lost, ...findingChanges.gained]
        .filter((c) => c !== undefined)
        .sort((x, y) => y.count - x.count || x.change.localeCompare(y.change) || x.rule.localeCompare(y.rule));
      const cap = options.transitions ?? sorted.length;
      const findingCap = options.findingChanges ?? options.transitions ?? findings.length;
      return {
        patients: seen,
        changed,
        transitions: sorted.slice(0, cap),
        more_transitions: Math.max(0, sorted.length - cap),
        findings_changed: findingsChanged,
        finding_changes: findings.slice(0, findingCap),
        more_finding_changes: Math.max(0, findings.length - findingCap),
      };
    };
    return { add, result };
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
