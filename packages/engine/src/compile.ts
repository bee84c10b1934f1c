import type { PreparedCondition } from './condition';
import { evaluatePreparedRule, prepareRule, type PreparedRule } from './evaluate';
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

/** Result codes written by evaluateInto. */
export const RESULT_FALSE = 0;
export const RESULT_UNKNOWN = 1;
export const RESULT_TRUE = 2;
const CODE_TO_TRI: readonly Tri[] = [false, 'unknown', true];

export type EvaluationMode = 'unknown' | 'skip';

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

const DEFAULT_CONDITIONS_PER_FUNCTION = 1000;

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

/**
 * Each condition becomes two 0/1 expressions: T (certainly true) and F (certainly false);
 * unknown is neither. Kleene logic is then branch-free bit arithmetic:
 * AND: T = T1 & T2, F = F1 | F2; OR: T = T1 | T2, F = F1 & F2; result code = 1 + T - F.
 * NaN (no usable answer) fails every comparison, so it yields T = F = 0 without a test.
 */
function conditionBits(c: PreparedCondition, gen: Generator, uses: Set<string>): [string, string] {
  const j = gen.slotFor(c);
  if (c.failure !== null) return ['0', '1'];
  switch (c.domain) {
    case 'numeric': {
      // An answer is [l, h], the smallest and largest double in it (readInterval): a plain number is
      // [v, v], a band's open end is already the next double inside. Same tests as compareInterval().
      const t = lit(c.num);
      const l = `l${j}`;
      const h = `h${j}`;
      uses.add(`${l}=L[${j}]`).add(`${h}=H[${j}]`);
      const point = `(${l}===${t}&${h}===${t})`;
      const outside = `(${l}>${t}|${h}<${t})`;
      switch (c.op) {
        case 'greater_than':
          return [`(${l}>${t})`, `(${h}<=${t})`];
        case 'greater_equal':
          return [`(${l}>=${t})`, `(${h}<${t})`];
        case 'less_than':
          return [`(${h}<${t})`, `(${l}>=${t})`];
        case 'less_equal':
          return [`(${h}<=${t})`, `(${l}>${t})`];
        case 'equals':
          return [point, outside];
        default:
          return [outside, point];
      }
    }
    case 'boolean': {
      const b = `b${j}`;
      uses.add(`${b}=B[${j}]`);
      const same = `(${b}===${lit(c.bool)})`;
      const other = `(${b}===${lit(1 - c.bool)})`;
      return c.op === 'equals' ? [same, other] : [other, same];
    }
    case 'date': {
      const t = lit(c.num);
      const d = `d${j}`;
      uses.add(`${d}=D[${j}]`);
      const on = `(${d}===${t})`;
      const notOn = `(${d}!==${t}&${d}===${d})`;
      switch (c.op) {
        case 'before':
          return [`(${d}<${t})`, `(${d}>=${t})`];
        case 'after':
          return [`(${d}>${t})`, `(${d}<=${t})`];
        case 'equals':
          return [on, notOn];
        default:
          return [notOn, on];
      }
    }
    case 'within_days': {
      const n = lit(c.num);
      const d = `d${j}`;
      uses.add(`${d}=D[${j}]`);
      return [`(nd-${d}<=${n}&${d}-nd<=${n})`, `(nd-${d}>${n}|${d}-nd>${n})`];
    }
    case 'text_exact': {
      const s = `s${j}`;
      const k = gen.constant(c.text);
      uses.add(`${s}=S[${j}]`).add(`k${k}=K[${k}]`);
      const same = `(${s}===k${k})`;
      const other = `(${s}!==null&${s}!==k${k})`;
      return c.op === 'equals' ? [same, other] : [other, same];
    }
    case 'text_search': {
      const w = `w${j}`;
      const k = gen.constant(c.text);
      uses.add(`${w}=W[${j}]`).add(`k${k}=K[${k}]`);
      const found =
        c.op === 'contains' ? `${w}.indexOf(k${k})!==-1` : c.op === 'starts_with' ? `${w}.startsWith(k${k})` : `${w}.endsWith(k${k})`;
      return [`(${w}!==null&&${found})`, `(${w}!==null&&!(${found}))`];
    }
  }
}

/**
 * The statement storing one rule's result code. In skip mode an unanswered condition is
 * neutral (T = 1, F = 0 inside its group), a group with no answered condition drops out of the
 * OR (C = 0), and with nothing answered at all the rule is false.
 */
function ruleCode(prepared: PreparedRule, i: number, gen: Generator, uses: Set<string>, mode: EvaluationMode, at: string): string {
  const { groups, conditions } = prepared;
  if (groups.length === 0) return `o[${at}${i}]=0;`;
  const ts: string[] = [];
  const fs: string[] = [];
  for (const group of groups) {
    const gt: string[] = [];
    const gf: string[] = [];
    const present: string[] = [];
    for (const index of group) {
      const c = conditions[index];
      const [t, f] = conditionBits(c, gen, uses);
      if (mode === 'skip') {
        const p = `p${gen.slotFor(c)}`;
        uses.add(`${p}=P[${gen.slotFor(c)}]`);
        present.push(p);
        gt.push(`(${t}|${p}===0)`);
        gf.push(`(${f}&${p})`);
      } else {
        gt.push(t);
        gf.push(f);
      }
    }
    if (mode === 'skip') {
      const checked = `(${present.join('|')})`;
      ts.push(`(${checked}&${gt.join('&')})`);
      fs.push(`(${gf.join('|')}|${checked}^1)`);
    } else {
      ts.push(`(${gt.join('&')})`);
      fs.push(`(${gf.join('|')})`);
    }
  }
  return `o[${at}${i}]=1+(${ts.join('|')})-(${fs.join('&')});`;
}

/**
 * The rule code in functions of about `perFunction` conditions. One patient per call (`o[i]`), or,
 * for a batch (`slots` given), a loop over `c` patients whose registers lie `slots` apart and whose
 * results start at `s`, row after row: the loop lives in the generated function, so V8 optimises
 * it on the stack (OSR) after a few patients instead of after thousands of calls.
 */
function generateChunks(prepared: PreparedRule[], gen: Generator, mode: EvaluationMode, perFunction: number, slots?: number): string {
  const functions: string[] = [];
  let body = '';
  let uses = new Set<string>();
  let size = 0;
  const flush = (): void => {
    if (body === '') return;
    if (slots === undefined) functions.push(`function(o,nd){${uses.size > 0 ? `var ${[...uses].join(',')};` : ''}\n${body}}`);
    else {
      const all = [...uses];
      // Constants (k: K[n]) once; registers (L[j]...) per patient, at the patient's offset q.
      const constants = all.filter((u) => u.startsWith('k'));
      const registers = all.filter((u) => !u.startsWith('k')).map((u) => u.replace('[', '[q+'));
      functions.push(
        `function(o,nd,c,s){var p,q,b${all.length > 0 ? `,${all.map((u) => u.slice(0, u.indexOf('='))).join(',')}` : ''};` +
          `${constants.map((u) => `${u};`).join('')}\nfor(p=0,q=0,b=s;p<c;p++,q+=${slots},b+=${prepared.length}){` +
          `${registers.map((u) => `${u};`).join('')}\n${body}}}`,
      );
    }
    body = '';
    uses = new Set<string>();
    size = 0;
  };
  prepared.forEach((rule, i) => {
    body += `${ruleCode(rule, i, gen, uses, mode, slots === undefined ? '' : 'b+')}\n`;
    size += Math.max(1, rule.conditions.length);
    if (size >= perFunction) flush();
  });
  flush();
  return `return [\n${functions.join(',\n')}\n];`;
}

/**
 * The conversion of one slot's answer `v` (an own property's value) into its registers, inline for
 * the common shapes and through sl() (the interpreter's conversions) for everything else:
 * - numeric: finite numbers, and bands with two finite ends min < max, read as readInterval()
 *   reads them (only an explicit false opens an end, which moves it to the next double inside;
 *   nothing left inside is unreadable);
 * - boolean: true and false;
 * - text: strings whose trimmed length is neither 0 (blank) nor 7 (could be 'unknown');
 * - date: 'YYYY-MM-DD' of a real day (dy; anything else, blank included, goes to sl()).
 */
function convertCode(slot: Slot, slotIndex: number, at: string): string {
  const kinds = [slot.numeric, slot.boolean, slot.day, slot.text || slot.lower].filter(Boolean).length;
  const j = `${at}${slotIndex}`;
  const slow = `sl(v,${slotIndex},${j});`;
  if (kinds !== 1) return slow;
  if (slot.numeric)
    return (
      `if(typeof v===tn&&v-v===0){P[${j}]=1;L[${j}]=v;H[${j}]=v;}` +
      `else if(typeof v===to&&v!==null&&v.type===tr&&typeof(x=v.min)===tn&&typeof(y=v.max)===tn&&x-x===0&&y-y===0&&x<y)` +
      `{P[${j}]=1;x=v.min_inclusive===false?nu(x):x;y=v.max_inclusive===false?nd(y):y;if(x<=y){L[${j}]=x;H[${j}]=y;}else{L[${j}]=NaN;H[${j}]=NaN;}}` +
      `else ${slow}`
    );
  if (slot.boolean) return `if(v===true){P[${j}]=1;B[${j}]=1;}else if(v===false){P[${j}]=1;B[${j}]=0;}else ${slow}`;
  if (slot.day) return `if(typeof v===ts&&(x=dy(v))===x){P[${j}]=1;D[${j}]=x;}else ${slow}`;
  return (
    `if(typeof v===ts&&(y=v.trim().length)!==0&&y!==7){P[${j}]=1;S[${j}]=v;` +
    `${slot.lower ? `W[${j}]=v.toLowerCase();` : ''}}else ${slow}`
  );
}

/**
 * Reads the answers a patient has: their own keys (Object.getOwnPropertyNames: own properties
 * only, so an answer keyed "constructor" never reads Object.prototype), each looked up in the
 * map of keys the rules use and converted at its slot's case. Registers of keys not given keep
 * the "no answer" values set first (what sl() makes of undefined). On sparse answer maps of many
 * object shapes this reads only what is there and never reads a missing key: a read per rule key
 * at its own site cost ~150 ns on such maps (megamorphic), a key walked here ~30 ns.
 */
function generateLoad(gen: Generator, batch: boolean): string {
  const slots = gen.slots;
  // One patient's registers: all of them, or in a batch the `slots.length` from q on.
  const range = batch ? `,q,q+${slots.length}` : '';
  const resets = [
    `P.fill(0${range});`,
    slots.some((s) => s.numeric) ? `L.fill(NaN${range});H.fill(NaN${range});` : '',
    slots.some((s) => s.boolean) ? `B.fill(${BOOL_UNKNOWN}${range});` : '',
    slots.some((s) => s.day) ? `D.fill(NaN${range});` : '',
    slots.some((s) => s.text || s.lower) ? `S.fill(null${range});W.fill(null${range});` : '',
  ].join('');
  const cases = slots.map((slot, j) => `case ${j}:${convertCode(slot, j, batch ? 'q+' : '')}break;`);
  return (
    `return function(a,q){var ks=gn(a),n=ks.length,i,k,j,v,x,y;${resets}\n` +
    `for(i=0;i<n;i++){k=ks[i];j=M.get(k);if(j===undefined)continue;v=a[k];switch(j){\n${cases.join('\n')}\n}}\n};`
  );
}

/**
 * The calendar day of 'YYYY-MM-DD' (years 100 to 9999), as toDay() reads it; NaN for anything
 * else, which then goes to toDay() itself. Days from the civil date (proleptic Gregorian, as Date).
 */
export function isoDay(s: string): number {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return NaN;
  let year = 0;
  for (let i = 0; i < 4; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return NaN;
    year = year * 10 + c;
  }
  const m1 = s.charCodeAt(5) - 48;
  const m2 = s.charCodeAt(6) - 48;
  const d1 = s.charCodeAt(8) - 48;
  const d2 = s.charCodeAt(9) - 48;
  if (m1 < 0 || m1 > 9 || m2 < 0 || m2 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return NaN;
  const month = m1 * 10 + m2;
  const day = d1 * 10 + d2;
  if (year < 100 || month < 1 || month > 12 || day < 1) return NaN;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const length = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  if (day > length) return NaN;
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

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

interface Registers {
  L: Float64Array;
  H: Float64Array;
  B: Uint8Array;
  D: Float64Array;
  S: (string | null)[];
  W: (string | null)[];
  P: Uint8Array;
}

function registers(size: number): Registers {
  return {
    L: new Float64Array(size),
    H: new Float64Array(size),
    B: new Uint8Array(size),
    D: new Float64Array(size),
    S: new Array<string | null>(size).fill(null),
    W: new Array<string | null>(size).fill(null),
    P: new Uint8Array(size),
  };
}

const PARAMETER_NAMES = ['L', 'H', 'B', 'D', 'S', 'W', 'P', 'K', 'M', 'gn', 'tn', 'ts', 'sl', 'to', 'tr', 'nu', 'nd', 'dy'];

function instantiate<T>(source: string, environment: unknown[]): T {
  // The source is built only from fixed templates, indexes and validated numbers (see lit()).
  const factory = new Function(...PARAMETER_NAMES, source) as (...a: unknown[]) => T;
  return factory(...environment);
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
