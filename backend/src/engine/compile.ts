import type { PreparedCondition } from './condition';
import { evaluatePreparedRule, prepareRule, type PreparedRule } from './evaluate';
import { toParameterIndex, type ParameterIndex } from './parameters';
import type { Answers, EngineParameter, EngineRule, EvaluationOptions, RuleEvaluation, Tri } from './types';
import {
  BOOL_UNKNOWN,
  isBlank,
  isRangeAnswer,
  isUnknownSentinel,
  referenceDay,
  toBooleanCode,
  toDay,
  toNumber,
  toText,
} from './values';

/** Result codes written by evaluateInto. */
export const RESULT_FALSE = 0;
export const RESULT_UNKNOWN = 1;
export const RESULT_TRUE = 2;
const SKIPPED = 3;
const CODE_TO_TRI: readonly Tri[] = [false, 'unknown', true];

export type EvaluationMode = 'unknown' | 'skip';

export interface CompiledRuleSet {
  /** Results are given in this order. */
  readonly rules: readonly EngineRule[];
  /** One result per rule, identical to evaluateRule's. */
  evaluate(answers: Answers, options?: EvaluationOptions): Tri[];
  /** Allocation-free variant: writes RESULT_FALSE / RESULT_UNKNOWN / RESULT_TRUE per rule into `out`. */
  evaluateInto(answers: Answers, out: Uint8Array, options?: EvaluationOptions): Uint8Array;
  /** The full trace of one rule, from the interpreter (for the explanation shown to clinicians). */
  explain(ruleIndex: number, answers: Answers, options?: EvaluationOptions): RuleEvaluation;
  /** The generated JavaScript, for audit. */
  generatedSource(mode?: EvaluationMode): string;
}

export interface CompileOptions {
  /** Conditions per generated function; small functions stay within V8's optimising limits. */
  conditionsPerFunction?: number;
}

/** Per parameter, the answer is read and converted once per evaluation, not once per condition. */
interface Slot {
  key: string;
  numeric: boolean;
  boolean: boolean;
  day: boolean;
  text: boolean;
  lower: boolean;
  sentinelIsUnknown: boolean;
}

type ChunkFn = (out: Uint8Array, referenceDay: number) => void;

/**
 * Writes a number as a JavaScript literal. Only finite numbers reach this point; String() of a
 * finite number contains nothing but digits, '.', 'e', '+' and '-', so no rule text can ever
 * become code: names, keys and text thresholds are passed as data (the K array), never inlined.
 */
function lit(n: number): string {
  if (!Number.isFinite(n)) throw new Error('internal: non-finite literal');
  return n < 0 ? `(${String(n)})` : String(n);
}

class Generator {
  readonly slots: Slot[] = [];
  readonly constants: string[] = [];
  private readonly slotByKey = new Map<string, number>();
  private readonly constantIndex = new Map<string, number>();

  slotFor(c: PreparedCondition): number {
    let j = this.slotByKey.get(c.key);
    if (j === undefined) {
      j = this.slots.length;
      this.slotByKey.set(c.key, j);
      this.slots.push({
        key: c.key,
        numeric: false,
        boolean: false,
        day: false,
        text: false,
        lower: false,
        sentinelIsUnknown: c.sentinelIsUnknown,
      });
    }
    const slot = this.slots[j];
    if (c.failure === null) {
      if (c.domain === 'numeric') slot.numeric = true;
      else if (c.domain === 'boolean') slot.boolean = true;
      else if (c.domain === 'date' || c.domain === 'within_days') slot.day = true;
      else if (c.domain === 'text_exact') slot.text = true;
      else slot.lower = true;
    }
    return j;
  }

  constant(text: string): number {
    let k = this.constantIndex.get(text);
    if (k === undefined) {
      k = this.constants.length;
      this.constants.push(text);
      this.constantIndex.set(text, k);
    }
    return k;
  }
}

/** Expression with value RESULT_FALSE / RESULT_UNKNOWN / RESULT_TRUE (plus SKIPPED in skip mode). */
function conditionExpr(c: PreparedCondition, gen: Generator, uses: Set<string>, mode: EvaluationMode): string {
  const j = gen.slotFor(c);
  let expr: string;
  if (c.failure !== null) {
    expr = '0';
  } else {
    const t = c.domain === 'text_exact' || c.domain === 'text_search' ? '' : lit(c.domain === 'boolean' ? c.bool : c.num);
    switch (c.domain) {
      case 'numeric': {
        const l = `l${j}`;
        const h = `h${j}`;
        uses.add(`${l}=L[${j}]`).add(`${h}=H[${j}]`);
        switch (c.op) {
          case 'greater_than':
            expr = `(${l}>${t}?2:${l}===${l}?0:1)`;
            break;
          case 'greater_equal':
            expr = `(${l}>=${t}?2:${l}===${l}?0:1)`;
            break;
          case 'less_than':
            expr = `(${h}<${t}?2:${h}===${h}?0:1)`;
            break;
          case 'less_equal':
            expr = `(${h}<=${t}?2:${h}===${h}?0:1)`;
            break;
          case 'equals':
            expr = `(${l}<=${t}&&${h}>=${t}?2:${l}===${l}?0:1)`;
            break;
          default:
            expr = `(${l}<=${t}&&${h}>=${t}?0:${l}===${l}?2:1)`;
        }
        break;
      }
      case 'boolean': {
        const b = `b${j}`;
        uses.add(`${b}=B[${j}]`);
        const eq = c.op === 'equals';
        expr = `(${b}===${BOOL_UNKNOWN}?1:${b}===${t}?${eq ? 2 : 0}:${eq ? 0 : 2})`;
        break;
      }
      case 'date': {
        const d = `d${j}`;
        uses.add(`${d}=D[${j}]`);
        const test =
          c.op === 'before' ? `${d}<${t}` : c.op === 'after' ? `${d}>${t}` : c.op === 'equals' ? `${d}===${t}` : `${d}!==${t}`;
        expr = `(${d}===${d}?${test}?2:0:1)`;
        break;
      }
      case 'within_days': {
        const d = `d${j}`;
        uses.add(`${d}=D[${j}]`);
        expr = `(${d}===${d}&&nd===nd?nd-${d}<=${t}&&${d}-nd<=${t}?2:0:1)`;
        break;
      }
      case 'text_exact': {
        const s = `s${j}`;
        const k = `k${gen.constant(c.text)}`;
        uses.add(`${s}=S[${j}]`).add(`${k}=K[${k.slice(1)}]`);
        const eq = c.op === 'equals';
        expr = `(${s}===null?1:${s}===${k}?${eq ? 2 : 0}:${eq ? 0 : 2})`;
        break;
      }
      case 'text_search': {
        const w = `w${j}`;
        const k = `k${gen.constant(c.text)}`;
        uses.add(`${w}=W[${j}]`).add(`${k}=K[${k.slice(1)}]`);
        const call =
          c.op === 'contains' ? `${w}.indexOf(${k})!==-1` : c.op === 'starts_with' ? `${w}.startsWith(${k})` : `${w}.endsWith(${k})`;
        expr = `(${w}===null?1:${call}?2:0)`;
        break;
      }
    }
  }
  if (mode === 'skip') {
    uses.add(`p${j}=P[${j}]`);
    return `(p${j}===0?${SKIPPED}:${expr})`;
  }
  return expr;
}

/** Statements that leave the Kleene AND of a group in x (F=0 < U=1 < T=2, so AND is min). */
function groupCode(prepared: PreparedRule, group: number[], gen: Generator, uses: Set<string>, mode: EvaluationMode): string {
  let code = `x=${conditionExpr(prepared.conditions[group[0]], gen, uses, mode)};`;
  for (let n = 1; n < group.length; n++) {
    const e = conditionExpr(prepared.conditions[group[n]], gen, uses, mode);
    code +=
      mode === 'skip'
        ? `if(x!==0){y=${e};if(x===${SKIPPED}||(y!==${SKIPPED}&&y<x))x=y;}`
        : `if(x!==0){y=${e};if(y<x)x=y;}`;
  }
  return code;
}

/** Statements that store the Kleene OR of the groups (max) in out[i]. */
function ruleCode(prepared: PreparedRule, i: number, gen: Generator, uses: Set<string>, mode: EvaluationMode): string {
  const { groups } = prepared;
  if (groups.length === 0) return `o[${i}]=0;`;
  let code = `${groupCode(prepared, groups[0], gen, uses, mode)}g=x;`;
  for (let n = 1; n < groups.length; n++) {
    code +=
      mode === 'skip'
        ? `if(g!==2){${groupCode(prepared, groups[n], gen, uses, mode)}if(g===${SKIPPED}||(x!==${SKIPPED}&&x>g))g=x;}`
        : `if(g!==2){${groupCode(prepared, groups[n], gen, uses, mode)}if(x>g)g=x;}`;
  }
  return `${code}o[${i}]=${mode === 'skip' ? `g===${SKIPPED}?0:g` : 'g'};`;
}

interface Program {
  source: string;
  chunks: ChunkFn[];
}

function generate(prepared: PreparedRule[], gen: Generator, mode: EvaluationMode, perFunction: number): { source: string } {
  const functions: string[] = [];
  let body = '';
  let uses = new Set<string>();
  let size = 0;
  const flush = (): void => {
    if (body === '') return;
    const locals = [...uses, 'g=0', 'x=0', 'y=0'].join(',');
    functions.push(`function(o,nd){var ${locals};\n${body}}`);
    body = '';
    uses = new Set<string>();
    size = 0;
  };
  prepared.forEach((rule, i) => {
    body += `${ruleCode(rule, i, gen, uses, mode)}\n`;
    size += Math.max(1, rule.conditions.length);
    if (size >= perFunction) flush();
  });
  flush();
  return { source: `return [\n${functions.join(',\n')}\n];` };
}

function instantiate(source: string, arrays: unknown[]): ChunkFn[] {
  // The source is built only from fixed templates, indexes and validated numbers (see lit()).
  const factory = new Function('L', 'H', 'B', 'D', 'S', 'W', 'P', 'K', source) as (...a: unknown[]) => ChunkFn[];
  return factory(...arrays);
}

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
  const perFunction = Math.max(1, options.conditionsPerFunction ?? 400);
  const gen = new Generator();
  const programs = new Map<EvaluationMode, Program>();

  // Generating the 'unknown' program registers every slot and constant the 'skip' one needs too.
  const first = generate(prepared, gen, 'unknown', perFunction);
  const slots = gen.slots;
  const n = slots.length;
  const L = new Float64Array(n);
  const H = new Float64Array(n);
  const B = new Uint8Array(n);
  const D = new Float64Array(n);
  const S: (string | null)[] = new Array<string | null>(n).fill(null);
  const W: (string | null)[] = new Array<string | null>(n).fill(null);
  const P = new Uint8Array(n);
  const K = Object.freeze([...gen.constants]);
  const arrays = [L, H, B, D, S, W, P, K];
  programs.set('unknown', { source: first.source, chunks: instantiate(first.source, arrays) });

  const program = (mode: EvaluationMode): Program => {
    let p = programs.get(mode);
    if (!p) {
      const { source } = generate(prepared, gen, mode, perFunction);
      p = { source, chunks: instantiate(source, arrays) };
      programs.set(mode, p);
    }
    return p;
  };

  const hasOwn = Object.prototype.hasOwnProperty;
  const load = (answers: Answers): void => {
    for (let j = 0; j < n; j++) {
      const slot = slots[j];
      const v: unknown = hasOwn.call(answers, slot.key) ? answers[slot.key] : undefined;
      const blank = isBlank(v);
      P[j] = blank ? 0 : 1;
      if (slot.numeric) {
        if (blank) {
          L[j] = H[j] = NaN;
        } else if (typeof v === 'number') {
          L[j] = H[j] = Number.isFinite(v) ? v : NaN;
        } else if (isRangeAnswer(v)) {
          const min = toNumber(v.min);
          const max = toNumber(v.max);
          if (min <= max) {
            L[j] = min;
            H[j] = max;
          } else {
            L[j] = H[j] = NaN;
          }
        } else {
          L[j] = H[j] = toNumber(v);
        }
      }
      if (slot.boolean) B[j] = blank ? BOOL_UNKNOWN : toBooleanCode(v);
      if (slot.day) D[j] = blank ? NaN : toDay(v);
      if (slot.text || slot.lower) {
        const text = blank || (slot.sentinelIsUnknown && isUnknownSentinel(v)) ? null : toText(v);
        S[j] = text;
        W[j] = slot.lower && text !== null ? text.toLowerCase() : null;
      }
    }
  };

  const evaluateInto = (answers: Answers, out: Uint8Array, opts: EvaluationOptions = {}): Uint8Array => {
    if (out.length < prepared.length) throw new RangeError(`out must hold ${prepared.length} results`);
    const { chunks } = program(opts.unanswered === 'skip' ? 'skip' : 'unknown');
    load(answers);
    const day = referenceDay(opts.now);
    for (let c = 0; c < chunks.length; c++) chunks[c](out, day);
    return out;
  };

  return {
    rules,
    evaluateInto,
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
      return program(mode).source;
    },
  };
}
