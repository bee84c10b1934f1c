// The JavaScript compileRuleSet generates: each rule's conditions as branch-free Kleene bit arithmetic over
// registers, in chunks of functions, and the code that loads a patient's answers into the registers.
import type { PreparedCondition } from './condition';
import type { PreparedRule } from './evaluate';
import { BOOL_UNKNOWN } from './values';

export type EvaluationMode = 'unknown' | 'skip';

/** Per parameter, the answer is read and converted once per evaluation, not once per condition. */
export interface Slot {
  key: string;
  numeric: boolean;
  boolean: boolean;
  day: boolean;
  text: boolean;
  lower: boolean;
  sentinelIsUnknown: boolean;
}

/**
 * Writes a number as a JavaScript literal. Only finite numbers reach this point; String() of a
 * finite number contains nothing but digits, '.', 'e', '+' and '-', so no rule text can ever
 * become code: names, keys and text thresholds are passed as data (the K array), never inlined.
 */
function lit(n: number): string {
  if (!Number.isFinite(n)) throw new Error('internal: non-finite literal');
  return n < 0 ? `(${String(n)})` : String(n);
}

export class Generator {
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
export function generateChunks(
  prepared: PreparedRule[],
  gen: Generator,
  mode: EvaluationMode,
  perFunction: number,
  slots?: number,
): string {
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
export function generateLoad(gen: Generator, batch: boolean): string {
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
