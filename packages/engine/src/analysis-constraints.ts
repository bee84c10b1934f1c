import type { PreparedCondition } from './condition';

/**
 * Reasoning about what answers can satisfy a group of AND-ed conditions, used by static
 * analysis. Every conclusion is sound for all answers the engine accepts, including the chat
 * assistant's range answers; where that is not decidable cheaply, the analysis says nothing.
 */

export type Kind = 'numeric' | 'date' | 'boolean' | 'text' | 'opaque';

export function kindOf(c: PreparedCondition): Kind {
  switch (c.domain) {
    case 'numeric':
      return 'numeric';
    case 'date':
      return 'date';
    case 'boolean':
      return 'boolean';
    case 'text_exact':
      return 'text';
    default:
      return 'opaque';
  }
}

export interface Bound {
  value: number;
  strict: boolean;
  atom: PreparedCondition;
}

export interface Ordered {
  lower: Bound | null;
  upper: Bound | null;
  eqs: PreparedCondition[];
  nes: PreparedCondition[];
}

/** Tightest bounds of numeric or date conditions on one parameter (all of one kind). */
export function orderedOf(atoms: readonly PreparedCondition[]): Ordered {
  const o: Ordered = { lower: null, upper: null, eqs: [], nes: [] };
  for (const c of atoms) {
    const v = c.num;
    switch (c.op) {
      case 'greater_than':
      case 'after':
        o.lower = tighterLower(o.lower, { value: v, strict: true, atom: c });
        break;
      case 'greater_equal':
        o.lower = tighterLower(o.lower, { value: v, strict: false, atom: c });
        break;
      case 'less_than':
      case 'before':
        o.upper = tighterUpper(o.upper, { value: v, strict: true, atom: c });
        break;
      case 'less_equal':
        o.upper = tighterUpper(o.upper, { value: v, strict: false, atom: c });
        break;
      case 'equals':
        o.eqs.push(c);
        break;
      default:
        o.nes.push(c);
    }
  }
  return o;
}

function tighterLower(a: Bound | null, b: Bound): Bound {
  if (!a) return b;
  return b.value > a.value || (b.value === a.value && b.strict && !a.strict) ? b : a;
}

function tighterUpper(a: Bound | null, b: Bound): Bound {
  if (!a) return b;
  return b.value < a.value || (b.value === a.value && b.strict && !a.strict) ? b : a;
}

export function aboveLower(x: number, lower: Bound | null): boolean {
  return !lower || x > lower.value || (x === lower.value && !lower.strict);
}

export function belowUpper(x: number, upper: Bound | null): boolean {
  return !upper || x < upper.value || (x === upper.value && !upper.strict);
}

/** Inclusive integer bounds for calendar days (before 10 → at most day 9). */
function dayBounds(o: Ordered): [number, number] {
  const lo = o.lower ? (o.lower.strict ? o.lower.value + 1 : o.lower.value) : -Infinity;
  const hi = o.upper ? (o.upper.strict ? o.upper.value - 1 : o.upper.value) : Infinity;
  return [lo, hi];
}

/** The conditions that together admit no single value, or null if some value satisfies them. */
export function orderedConflict(o: Ordered, integer: boolean): PreparedCondition[] | null {
  if (o.eqs.length > 0) {
    const first = o.eqs[0];
    const other = o.eqs.find((e) => e.num !== first.num);
    if (other) return [first, other];
    const v = first.num;
    if (!aboveLower(v, o.lower)) return [o.lower!.atom, first];
    if (!belowUpper(v, o.upper)) return [first, o.upper!.atom];
    const ne = o.nes.find((n) => n.num === v);
    return ne ? [first, ne] : null;
  }
  if (integer) {
    const [lo, hi] = dayBounds(o);
    if (lo > hi) return [o.lower!.atom, o.upper!.atom];
    if (hi - lo + 1 <= o.nes.length) {
      const excluded = new Set(o.nes.map((n) => n.num));
      let allExcluded = true;
      for (let d = lo; d <= hi; d++) if (!excluded.has(d)) allExcluded = false;
      if (allExcluded) {
        const bounds = [o.lower, o.upper].filter((b): b is Bound => b !== null).map((b) => b.atom);
        return [...bounds, ...o.nes.filter((n) => n.num >= lo && n.num <= hi)];
      }
    }
    return null;
  }
  if (o.lower && o.upper) {
    const { lower, upper } = o;
    if (lower.value > upper.value || (lower.value === upper.value && (lower.strict || upper.strict))) {
      return [lower.atom, upper.atom];
    }
    if (lower.value === upper.value) {
      const ne = o.nes.find((n) => n.num === lower.value);
      if (ne) return [lower.atom, upper.atom, ne];
    }
  }
  return null;
}

/**
 * Whether range answers ({min, max}) can satisfy numeric conditions no single number satisfies.
 * Equality holds when the range contains the threshold, so "= 5 AND = 7" holds for [5, 7];
 * the tightest such range is [smallest equal value, largest equal value].
 */
export function rangeCanSatisfy(o: Ordered): boolean {
  if (o.eqs.length === 0) return orderedConflict(o, false) === null;
  const values = o.eqs.map((e) => e.num);
  const min = Math.min(...values);
  const max = Math.max(...values);
  if (!aboveLower(min, o.lower) || !belowUpper(max, o.upper)) return false;
  return !o.nes.some((n) => n.num >= min && n.num <= max);
}

/** Conflicting boolean or exact-text conditions on one parameter. */
export function valueConflict(atoms: readonly PreparedCondition[], kind: 'boolean' | 'text'): PreparedCondition[] | null {
  const valueOf = (c: PreparedCondition): string => (kind === 'boolean' ? String(c.bool) : c.text);
  const eqs = atoms.filter((c) => c.op === 'equals');
  const nes = atoms.filter((c) => c.op === 'not_equals');
  if (eqs.length > 0) {
    const other = eqs.find((e) => valueOf(e) !== valueOf(eqs[0]));
    if (other) return [eqs[0], other];
    const ne = nes.find((n) => valueOf(n) === valueOf(eqs[0]));
    return ne ? [eqs[0], ne] : null;
  }
  if (kind === 'boolean') {
    const t = nes.find((n) => n.bool === 1);
    const f = nes.find((n) => n.bool === 0);
    if (t && f) return [t, f];
  }
  return null;
}

export type GroupStatus =
  | { status: 'feasible' }
  /** No single value works, but a range answer can (chat assistant only). */
  | { status: 'range_only'; key: string; atoms: PreparedCondition[] }
  | { status: 'infeasible'; key: string; atoms: PreparedCondition[] }
  /** Contains a condition that always fails (unknown operator, unusable value). */
  | { status: 'broken'; atoms: PreparedCondition[] };

export function byKeyAndKind(atoms: readonly PreparedCondition[]): Map<string, PreparedCondition[]> {
  const map = new Map<string, PreparedCondition[]>();
  for (const c of atoms) {
    const key = `${kindOf(c)}\u0000${c.key}`;
    const list = map.get(key);
    if (list) list.push(c);
    else map.set(key, [c]);
  }
  return map;
}

export function groupStatus(atoms: readonly PreparedCondition[]): GroupStatus {
  const broken = atoms.filter((c) => c.failure !== null);
  if (broken.length > 0) return { status: 'broken', atoms: broken };
  let rangeOnly: GroupStatus | null = null;
  for (const [, list] of byKeyAndKind(atoms)) {
    const kind = kindOf(list[0]);
    let conflict: PreparedCondition[] | null = null;
    if (kind === 'numeric' || kind === 'date') conflict = orderedConflict(orderedOf(list), kind === 'date');
    else if (kind === 'boolean' || kind === 'text') conflict = valueConflict(list, kind);
    if (!conflict) continue;
    if (kind === 'numeric' && rangeCanSatisfy(orderedOf(list))) {
      rangeOnly ??= { status: 'range_only', key: list[0].key, atoms: conflict };
      continue;
    }
    return { status: 'infeasible', key: list[0].key, atoms: conflict };
  }
  return rangeOnly ?? { status: 'feasible' };
}

function sameAtom(a: PreparedCondition, b: PreparedCondition): boolean {
  return a.key === b.key && a.op === b.op && a.domain === b.domain && atomValue(a) === atomValue(b);
}

/** A comparable rendering of what a condition tests (for duplicates and identical conditions). */
export function atomValue(c: PreparedCondition): string {
  if (c.failure !== null) return `!${c.failure}:${c.operator}:${String(c.threshold)}`;
  switch (c.domain) {
    case 'boolean':
      return `b${c.bool}`;
    case 'text_exact':
    case 'text_search':
      return `s${c.text}`;
    default:
      return `n${c.num}`;
  }
}

export function atomSignature(c: PreparedCondition): string {
  return `${c.key}\u0000${c.op}\u0000${c.domain}\u0000${atomValue(c)}`;
}

/**
 * Whether every answer satisfying the group also satisfies `atom`. Sound, not complete:
 * "false" means "not shown", never "shown not to".
 */
export function groupImplies(group: readonly PreparedCondition[], atom: PreparedCondition): boolean {
  if (atom.failure !== null) return false;
  if (group.some((c) => c.failure === null && sameAtom(c, atom))) return true;
  const kind = kindOf(atom);
  const same = group.filter((c) => c.failure === null && c.key === atom.key && kindOf(c) === kind);
  if (same.length === 0) return false;
  const t = atom.num;
  if (kind === 'numeric') {
    // Sound for range answers too: a lower bound constrains min, an upper bound max.
    const o = orderedOf(same);
    const impliesAbove = (strict: boolean): boolean =>
      !!o.lower && (o.lower.value > t || (o.lower.value === t && (o.lower.strict || !strict)));
    const impliesBelow = (strict: boolean): boolean =>
      !!o.upper && (o.upper.value < t || (o.upper.value === t && (o.upper.strict || !strict)));
    switch (atom.op) {
      case 'greater_than':
        return impliesAbove(true);
      case 'greater_equal':
        return impliesAbove(false);
      case 'less_than':
        return impliesBelow(true);
      case 'less_equal':
        return impliesBelow(false);
      case 'equals':
        return o.eqs.some((e) => e.num <= t) && o.eqs.some((e) => e.num >= t);
      default:
        return impliesAbove(true) || impliesBelow(true);
    }
  }
  if (kind === 'date') {
    const o = orderedOf(same);
    const [lo, hi] = dayBounds(o);
    const point = o.eqs.length > 0 ? o.eqs[0].num : lo === hi ? lo : undefined;
    switch (atom.op) {
      case 'before':
        return (point !== undefined && point < t) || hi <= t - 1;
      case 'after':
        return (point !== undefined && point > t) || lo >= t + 1;
      case 'equals':
        return point === t;
      default:
        return (point !== undefined && point !== t) || lo > t || hi < t;
    }
  }
  if (kind === 'boolean') {
    const eq = atom.op === 'equals';
    const v = atom.bool;
    return same.some((c) => (c.op === 'equals' ? c.bool === v : c.bool !== v) === eq);
  }
  if (kind === 'text') {
    if (atom.op === 'equals') return same.some((c) => c.op === 'equals' && c.text === atom.text);
    return same.some((c) => (c.op === 'not_equals' ? c.text === atom.text : c.text !== atom.text));
  }
  return false;
}
