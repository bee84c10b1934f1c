import { evaluatePreparedRule, prepareRule } from './evaluate';
import { toParameterIndex, type ParameterIndex } from './parameters';
import type { Answers, EngineParameter, EngineRule, EvaluationOptions, RuleEvaluation, Tri } from './types';
import {
  BOOL_UNKNOWN,
  isBlank,
  isUnknownSentinel,
  nextDown,
  nextUp,
  readInterval,
  referenceDay,
  toBooleanCode,
  toDay,
  toText,
} from './values';
import { Generator, generateChunks, generateLoad, type EvaluationMode } from './compile-codegen';
import { instantiate, isoDay, registers, type Registers } from './compile-runtime';

export type { EvaluationMode } from './compile-codegen';
export { isoDay } from './compile-runtime';

/** Result codes written by evaluateInto. */
export const RESULT_FALSE = 0;
export const RESULT_UNKNOWN = 1;
export const RESULT_TRUE = 2;
const CODE_TO_TRI: readonly Tri[] = [false, 'unknown', true];

export interface CompiledRuleSet {
  /** Results are given in this order. */
  readonly rules: readonly EngineRule[];
  /** One result per rule, identical to evaluateRule's. */
  evaluate(answers: Answers, options?: EvaluationOptions): Tri[];
  /** Allocation-free variant: writes RESULT_FALSE / RESULT_UNKNOWN / RESULT_TRUE per rule into `out`. */
  evaluateInto(answers: Answers, out: Uint8Array, options?: EvaluationOptions): Uint8Array;
  /**
   * Many patients in one call (population runs, impact preview): patient p's result for rule i is
   * written at out[p * rules.length + i], the codes and results of evaluateInto, one options for all.
   * Runs the rule code in loops over the patients, so it is optimised early in a run (OSR).
   */
  evaluateMany(patients: readonly Answers[], out: Uint8Array, options?: EvaluationOptions): Uint8Array;
  /** The full trace of one rule, from the interpreter (for the explanation shown to clinicians). */
  explain(ruleIndex: number, answers: Answers, options?: EvaluationOptions): RuleEvaluation;
  /** The generated JavaScript, for audit. */
  generatedSource(mode?: EvaluationMode): string;
}

export interface CompileOptions {
  /** Conditions per generated function; small functions stay within V8's optimising limits. */
  conditionsPerFunction?: number;
}

type ChunkFn = (out: Uint8Array, referenceDay: number) => void;

const DEFAULT_CONDITIONS_PER_FUNCTION = 1000;

type LoadFn = (answers: Answers, offset?: number) => void;
type BatchChunkFn = (out: Uint8Array, referenceDay: number, count: number, start: number) => void;

/** Patients loaded together by evaluateMany before the rule code runs over them. */
const BATCH = 256;
/**
 * Below this many conditions evaluateMany runs the one-patient code patient by patient: in a fresh
 * process the first 1,000 patients of 100 rules (~300 conditions) took ~70 µs each in the loops and
 * ~35-50 µs one by one, while at 1,000 and 10,000 rules the loops took 0.6-0.7× the one-by-one time
 * (docs/benchmarks.md, "Engine at population speed").
 */
const BATCH_MIN_CONDITIONS = 1000;

/**
 * Compiles a rule set once (per published version) into a fast evaluator whose results are
 * those of evaluateRule for every rule, in both evaluation modes.
 */
export function compileRuleSet(
  rules: readonly EngineRule[],
  parameters: readonly EngineParameter[] | ParameterIndex,
  options: CompileOptions = {},
): CompiledRuleSet {
  const index = toParameterIndex(parameters);
  const prepared = rules.map((rule) => prepareRule(rule, index));
  const perFunction = Math.max(1, options.conditionsPerFunction ?? DEFAULT_CONDITIONS_PER_FUNCTION);
  const gen = new Generator();

  // Generating one mode registers every slot and constant; the other mode reuses them.
  const unknownSource = generateChunks(prepared, gen, 'unknown', perFunction);
  const loadSource = generateLoad(gen, false);
  const slots = gen.slots;
  const n = slots.length;
  const K = Object.freeze([...gen.constants]);
  const slotOf = new Map(slots.map((slot, j) => [slot.key, j]));

  /** The code's environment over a set of registers, with the interpreter's conversions for every answer the inline code leaves. */
  const environmentFor = ({ L, H, B, D, S, W, P }: Registers): unknown[] => {
    const convert = (v: unknown, j: number, at: number): void => {
      const slot = slots[j];
      const blank = isBlank(v);
      P[at] = blank ? 0 : 1;
      if (slot.numeric) {
        const interval = blank ? null : readInterval(v);
        L[at] = interval === null ? NaN : interval.lo;
        H[at] = interval === null ? NaN : interval.hi;
      }
      if (slot.boolean) B[at] = blank ? BOOL_UNKNOWN : toBooleanCode(v);
      if (slot.day) D[at] = blank ? NaN : toDay(v);
      if (slot.text || slot.lower) {
        const text = blank || (slot.sentinelIsUnknown && isUnknownSentinel(v)) ? null : toText(v);
        S[at] = text;
        W[at] = slot.lower && text !== null ? text.toLowerCase() : null;
      }
    };
    return [
      ...[L, H, B, D, S, W, P, K, slotOf],
      Object.getOwnPropertyNames,
      'number',
      'string',
      convert,
      'object',
      'range',
      nextUp,
      nextDown,
      isoDay,
    ];
  };
  const environment = environmentFor(registers(n));
  const load = instantiate<LoadFn>(loadSource, environment);

  /** evaluateMany's code and registers, made on its first call. */
  let batch: { environment: unknown[]; load: LoadFn; chunks: Map<EvaluationMode, BatchChunkFn[]> } | null = null;
  const batchFor = (mode: EvaluationMode): { load: LoadFn; chunks: BatchChunkFn[] } => {
    if (!batch) {
      const env = environmentFor(registers(n * BATCH));
      batch = { environment: env, load: instantiate<LoadFn>(generateLoad(gen, true), env), chunks: new Map() };
    }
    let chunks = batch.chunks.get(mode);
    if (!chunks) {
      chunks = instantiate<BatchChunkFn[]>(generateChunks(prepared, gen, mode, perFunction, n), batch.environment);
      batch.chunks.set(mode, chunks);
    }
    return { load: batch.load, chunks };
  };
  const sources = new Map<EvaluationMode, string>([['unknown', unknownSource]]);
  const programs = new Map<EvaluationMode, ChunkFn[]>([['unknown', instantiate<ChunkFn[]>(unknownSource, environment)]]);

  const chunksFor = (mode: EvaluationMode): ChunkFn[] => {
    let chunks = programs.get(mode);
    if (!chunks) {
      const source = generateChunks(prepared, gen, mode, perFunction);
      chunks = instantiate<ChunkFn[]>(source, environment);
      sources.set(mode, source);
      programs.set(mode, chunks);
    }
    return chunks;
  };

  const unknownChunks = chunksFor('unknown');
  const usesReferenceDay = prepared.some((r) => r.conditions.some((c) => c.domain === 'within_days' && c.failure === null));

  const evaluateInto = (answers: Answers, out: Uint8Array, opts?: EvaluationOptions): Uint8Array => {
    if (out.length < prepared.length) throw new RangeError(`out must hold ${prepared.length} results`);
    const chunks = opts?.unanswered === 'skip' ? chunksFor('skip') : unknownChunks;
    const day = usesReferenceDay ? referenceDay(opts?.now) : NaN;
    load(answers);
    for (let c = 0; c < chunks.length; c++) chunks[c](out, day);
    return out;
  };

  const conditionCount = prepared.reduce((sum, rule) => sum + rule.conditions.length, 0);
  const evaluateMany = (patients: readonly Answers[], out: Uint8Array, opts?: EvaluationOptions): Uint8Array => {
    const size = prepared.length;
    if (out.length < patients.length * size) throw new RangeError(`out must hold ${patients.length * size} results`);
    if (conditionCount < BATCH_MIN_CONDITIONS) {
      const row = new Uint8Array(size);
      for (let p = 0; p < patients.length; p++) out.set(evaluateInto(patients[p], row, opts), p * size);
      return out;
    }
    const { load: loadAt, chunks } = batchFor(opts?.unanswered === 'skip' ? 'skip' : 'unknown');
    const day = usesReferenceDay ? referenceDay(opts?.now) : NaN;
    for (let start = 0; start < patients.length; start += BATCH) {
      const count = Math.min(BATCH, patients.length - start);
      for (let p = 0; p < count; p++) loadAt(patients[start + p], p * n);
      for (let c = 0; c < chunks.length; c++) chunks[c](out, day, count, start * size);
    }
    return out;
  };

  return {
    rules,
    evaluateInto,
    evaluateMany,
    evaluate(answers, opts) {
      const out = evaluateInto(answers, new Uint8Array(prepared.length), opts);
      const results = new Array<Tri>(prepared.length);
      for (let i = 0; i < prepared.length; i++) results[i] = CODE_TO_TRI[out[i]];
      return results;
    },
    explain(ruleIndex, answers, opts) {
      const rule = prepared[ruleIndex];
      if (!rule) throw new RangeError(`No rule at index ${ruleIndex}`);
      return evaluatePreparedRule(rule, answers, opts);
    },
    generatedSource(mode = 'unknown') {
      chunksFor(mode);
      return `${loadSource}\n${sources.get(mode)}`;
    },
  };
}
