import { inParameterUnit, isUnreadable, quantityOf, type ParameterScale, type RecordResult } from '../record';
import { dayOf, lowestOnLatestDay } from '../record/takes';
import type { RangeAnswer } from '../types';
import { readInterval } from '../values';
import { codedElement, isObject, matchingElement, notToBePerformed, spanOf, statusCounts, tokensOf, type Span } from './resources';
import type { Criterion, CriterionContext, CriterionResult, Evidence, SetAside, ValueFilter, WindowRelation } from './types';

type Json = Record<string, unknown>;
type Tri = true | false | 'unknown';

const DAY_MS = 86_400_000;
/** The takes that read an Observation's value (the others read only that a result exists, when, and its code). */
const VALUE_TAKES: ReadonlySet<string> = new Set(['latest', 'lowest_on_latest_day', 'days_persisting']);
/** Clocks drift: a resource dated up to five minutes ahead of ours is still "now", not future-dated. */
const CLOCK_SKEW_MS = 5 * 60_000;

export interface PrepareOptions {
  /** Value sets by canonical URL: the `system|code` tokens of each one's expansion. */
  valueSets?: ReadonlyMap<string, readonly string[]>;
  /** The input's unit, limits and conversions: how an Observation's value is read (numeric takes). */
  scale?: ParameterScale;
}

/** A criterion made ready once (its codes resolved) and evaluated against many records. */
export interface PreparedCriterion {
  readonly criterion: Criterion;
  /** Evaluates against one patient's resources (plain FHIR R4 JSON, all of this patient). */
  evaluate(resources: readonly unknown[], context: CriterionContext): CriterionResult;
}

/** One matching resource, with its time and (for Observations read with a scale) its value. */
interface Match {
  evidence: Evidence;
  span: Span;
  /** Null: the resource carries no value this criterion reads; undefined value with a problem: unreadable. */
  value: number | RangeAnswer | null;
  problem: string | null;
  /** Whether it carries the code `has_code` names (true when the criterion names none). */
  coded: boolean;
  /** A result recorded without any number (no valueQuantity, or one without a value). */
  noValue: boolean;
}

const unknownResult = (set_aside: SetAside[] = [], future: Evidence[] = []): CriterionResult => ({
  value: 'unknown',
  evidence: [],
  set_aside,
  future,
});

export function prepareCriterion(criterion: Criterion, options: PrepareOptions = {}): PreparedCriterion {
  const missing: string[] = [];
  const resolve = (codes: readonly string[] | undefined, valueSets: readonly string[] | undefined): Set<string> => {
    const out = new Set(codes ?? []);
    for (const url of valueSets ?? []) {
      const expansion = options.valueSets?.get(url);
      if (expansion) for (const t of expansion) out.add(t);
      else missing.push(url);
    }
    return out;
  };
  const tokens = resolve(criterion.codes, criterion.value_sets);
  const hasCode = criterion.has_code
    ? { element: criterion.has_code.element, tokens: resolve(criterion.has_code.codes, criterion.has_code.value_sets) }
    : null;
  const categories = criterion.categories?.length ? new Set(criterion.categories) : null;
  const intents = criterion.intents?.length ? criterion.intents : null;
  const statuses = criterion.statuses?.length ? criterion.statuses : null;
  const relation = criterion.window?.relation ?? 'during';
  const excludedClasses = criterion.exclude_encounter_classes?.length ? new Set(criterion.exclude_encounter_classes) : null;
  // Values are read in the criterion's own unit when it names one (a count of days with an A1C ≥ 6.5 %), else the input's;
  // a take that does not read them (any A1C in 3 years, for a yes/no input) must not set a result aside for its unit.
  const readsValues = VALUE_TAKES.has(criterion.take) || criterion.where !== undefined;
  const scale = !readsValues
    ? null
    : criterion.unit !== undefined
      ? { unit: criterion.unit, min: null, max: null, conversions: criterion.units_accepted ?? [] }
      : (options.scale ?? null);

  // The window depends only on the period and the clock: worked out once per pair, not once per patient (a
  // population pass asks 100,000 times with the same pair, and Date.parse of the period was most of a criterion).
  let memo: { start: string | undefined; end: string | undefined; now: number; window: Span | null } | null = null;
  const windowFor = (context: CriterionContext): Span | null => {
    const { period, now } = context;
    if (!memo || memo.now !== now || memo.start !== period?.start || memo.end !== period?.end)
      memo = { start: period?.start, end: period?.end, now, window: windowOf(criterion, context) };
    return memo.window;
  };

  return {
    criterion,
    evaluate(resources, context) {
      // A value set that is not loaded leaves the answer unknown, never "no such resource".
      if (missing.length)
        return unknownResult(missing.map((url) => ({ resource_type: 'ValueSet', id: url, problem: 'the value set is not loaded' })));
      if (criterion.take === 'age') return ageResult(resources, criterion, context);
      const window = windowFor(context);
      if (!window) return unknownResult([{ resource_type: criterion.resource_type, id: null, problem: 'no measurement period was given' }]);
      const matches: Match[] = [];
      const setAside: SetAside[] = [];
      const future: Evidence[] = [];
      for (const r of resources) {
        if (!isObject(r) || r.resourceType !== criterion.resource_type) continue;
        if (!statusCounts(r, criterion.resource_type, statuses)) continue;
        if (intents && !intents.includes(r.intent as string)) continue;
        if (criterion.exclude_do_not_perform && notToBePerformed(r)) continue;
        if (categories && !tokensOf(r.category).some((t) => categories.has(t))) continue;
        if (excludedClasses && excludedClasses.has(encounterClassOf(r, context.record ?? resources) ?? '')) continue;
        const element = matchingElement(r, criterion.resource_type, tokens);
        if (!element) continue;
        if (criterion.has_value && !hasValue(element)) continue;
        const coded = hasCode ? tokensOf(codedElement(r, hasCode.element)).some((t) => hasCode.tokens.has(t)) : true;
        // latest_is tests the latest resource for the code; every other take counts only resources that carry it.
        if (!coded && criterion.take !== 'latest_is') continue;
        const id = typeof r.id === 'string' ? r.id : null;
        const span = cachedSpan(r, criterion.resource_type);
        const evidence: Evidence = { resource_type: criterion.resource_type, id, at: span.start };
        if (Number.isNaN(span.start)) {
          setAside.push({ resource_type: criterion.resource_type, id, problem: 'it has no readable date' });
          continue;
        }
        if (span.start > context.now + CLOCK_SKEW_MS) {
          future.push(evidence);
          continue;
        }
        if (!inWindow(span, window, relation)) continue;
        const m: Match = { evidence, span, value: null, problem: null, coded, noValue: false };
        if (criterion.resource_type === 'Observation') m.noValue = quantityOf(element).value === null;
        if (scale && criterion.resource_type === 'Observation') {
          const read = inParameterUnit({ id, code: '', at: span.start, ...quantityOf(element) } as RecordResult, scale);
          if (isUnreadable(read)) {
            m.problem = read.problem;
            setAside.push({ resource_type: criterion.resource_type, id, problem: read.problem });
          } else m.value = evidence.value = read.value;
        }
        matches.push(m);
      }
      // Newest first (by when each ended: CQL's `effective.latest()`); equal times keep the record's order.
      matches.sort(newestFirst);
      return { ...take(criterion, matches), set_aside: setAside, future };
    },
  };
}

/** [start, end] of the window in ms, or null when it is anchored on a period that was not given. */
function windowOf(c: Criterion, ctx: CriterionContext): Span | null {
  const w = c.window;
  if (!w) return { start: -Infinity, end: ctx.now + CLOCK_SKEW_MS };
  if (w.anchor === 'now') return { start: w.days !== undefined ? ctx.now - w.days * DAY_MS : -Infinity, end: ctx.now + CLOCK_SKEW_MS };
  if (!ctx.period) return null;
  const start = Date.parse(`${ctx.period.start}T00:00:00.000Z`);
  const end = Date.parse(`${ctx.period.end}T23:59:59.999Z`);
  if (w.days !== undefined) return { start: end - w.days * DAY_MS, end };
  if (w.first_months !== undefined) {
    const until = new Date(start);
    until.setUTCMonth(until.getUTCMonth() + w.first_months);
    return { start, end: until.getTime() - 1 };
  }
  const from = new Date(start);
  if (w.years_before) from.setUTCFullYear(from.getUTCFullYear() - w.years_before);
  return { start: from.getTime(), end };
}

/** A resource's span, read once however many criteria look at it (Date.parse is most of a criterion's cost). */
const SPANS = new WeakMap<object, Span>();
function cachedSpan(r: Json, type: Criterion['resource_type']): Span {
  let span = SPANS.get(r);
  if (!span) SPANS.set(r, (span = spanOf(r, type)));
  return span;
}

/** Whether an element carries any value[x]. */
const hasValue = (element: Json) =>
  Object.keys(element).some((k) => k.startsWith('value') && element[k] !== null && element[k] !== undefined);

/** The class code of the Encounter an Observation was made in, looked up by id among the patient's resources. */
function encounterClassOf(r: Json, resources: readonly unknown[]): string | null {
  const ref = isObject(r.encounter) ? r.encounter.reference : undefined;
  const id = typeof ref === 'string' ? ref.split('/').pop() : undefined;
  if (!id) return null;
  const e = resources.find((x): x is Json => isObject(x) && x.resourceType === 'Encounter' && x.id === id);
  return e && isObject(e.class) && typeof e.class.code === 'string' ? e.class.code : null;
}

/** An open-ended span (a condition still going on) is latest at its start. */
const latestTime = (s: Span) => (s.end === Infinity ? s.start : s.end);

/**
 * Newest first. Results of the same time are put in one order whatever order the record lists
 * them in (unreadable last, then by value, then id), so no answer depends on how the EHR sorted.
 */
function newestFirst(a: Match, b: Match): number {
  const t = latestTime(b.span) - latestTime(a.span);
  if (t !== 0) return t;
  const ia = a.problem || a.value === null ? null : readInterval(a.value);
  const ib = b.problem || b.value === null ? null : readInterval(b.value);
  if (!ia || !ib) return ia ? -1 : ib ? 1 : byId(a, b);
  return ia.lo - ib.lo || ia.hi - ib.hi || byId(a, b);
}
const byId = (a: Match, b: Match) => (a.evidence.id ?? '').localeCompare(b.evidence.id ?? '');

function inWindow(span: Span, window: Span, relation: WindowRelation): boolean {
  switch (relation) {
    case 'overlaps':
      return span.start <= window.end && span.end >= window.start;
    case 'starts_during':
      return span.start >= window.start && span.start <= window.end;
    case 'ends_during':
      return span.end >= window.start && span.end <= window.end;
    case 'ends_by_end':
      return span.end <= window.end;
    case 'starts_by_end':
      return span.start <= window.end;
    default:
      return span.start >= window.start && span.end <= window.end;
  }
}

/** Whether a value satisfies the filter: for an interval, true when all of it does, false when none of it does. */
function satisfies(value: number | RangeAnswer | null, f: ValueFilter): Tri {
  if (value === null) return 'unknown';
  const i = readInterval(value);
  if (!i) return 'unknown';
  const test = (x: number) =>
    f.operator === '>=' ? x >= f.value : f.operator === '>' ? x > f.value : f.operator === '<=' ? x <= f.value : x < f.value;
  const lo = test(i.lo);
  const hi = test(i.hi);
  return lo && hi ? true : !lo && !hi ? false : 'unknown';
}

/** A count some unknowns leave open: the interval [known, known + open], or the number itself. */
const openCount = (known: number, open: number): number | RangeAnswer =>
  open === 0 ? known : { type: 'range', min: known, max: known + open, min_inclusive: true, max_inclusive: true };

function take(c: Criterion, matches: Match[]): Pick<CriterionResult, 'value' | 'evidence'> {
  const tri = (m: Match): Tri => (c.where ? satisfies(m.problem ? null : m.value, c.where) : true);
  switch (c.take) {
    case 'latest_without_value': {
      if (!matches.length) return { value: false, evidence: [] };
      const day = dayOf(latestTime(matches[0].span));
      const empty = matches.filter((m) => dayOf(latestTime(m.span)) === day && m.noValue);
      return { value: empty.length > 0, evidence: empty.map((m) => m.evidence) };
    }
    case 'latest_is': {
      // "The last one is X" is false when there is no last one (CQL's `Last(...) ~ X is not null`).
      const m = matches[0];
      return m ? { value: m.coded, evidence: [m.evidence] } : { value: false, evidence: [] };
    }
    case 'latest': {
      if (!matches.length) return { value: 'unknown', evidence: [] };
      // Two results recorded at the same moment: the latest is one of them, so the answer spans both.
      const tied = matches.filter((m) => latestTime(m.span) === latestTime(matches[0].span));
      if (tied.some((m) => m.problem || m.value === null)) return { value: 'unknown', evidence: tied.map((m) => m.evidence) };
      const bounds = tied.map((m) => readInterval(m.value)!);
      const lo = Math.min(...bounds.map((b) => b.lo));
      const hi = Math.max(...bounds.map((b) => b.hi));
      const value: number | RangeAnswer =
        tied.length === 1 ? tied[0].value! : lo === hi ? lo : { type: 'range', min: lo, max: hi, min_inclusive: true, max_inclusive: true };
      return { value, evidence: tied.map((m) => m.evidence) };
    }
    case 'lowest_on_latest_day': {
      if (!matches.length) return { value: 'unknown', evidence: [] };
      const day = dayOf(latestTime(matches[0].span));
      const sameDay = matches.filter((m) => dayOf(latestTime(m.span)) === day);
      // One unreadable value that day could be the lowest: the lowest is then not known.
      if (sameDay.some((m) => m.problem || m.value === null)) return { value: 'unknown', evidence: sameDay.map((m) => m.evidence) };
      const best = lowestOnLatestDay(sameDay.map((m) => ({ at: latestTime(m.span), value: m.value!, m })))!.m;
      return { value: best.value!, evidence: [best.evidence] };
    }
    case 'count': {
      const t = matches.map(tri);
      const yes = matches.filter((_, i) => t[i] === true);
      return { value: openCount(yes.length, t.filter((x) => x === 'unknown').length), evidence: yes.map((m) => m.evidence) };
    }
    case 'distinct_days': {
      const yes = new Set<number>();
      const open = new Set<number>();
      const evidence: Evidence[] = [];
      matches.forEach((m) => {
        const r = tri(m);
        const d = dayOf(m.span.start);
        if (r === true) {
          if (!yes.has(d)) evidence.push(m.evidence);
          yes.add(d);
        } else if (r === 'unknown') open.add(d);
      });
      for (const d of yes) open.delete(d);
      return { value: openCount(yes.size, open.size), evidence };
    }
    case 'exists': {
      const t = matches.map(tri);
      const yes = matches.filter((_, i) => t[i] === true);
      return { value: yes.length ? true : t.includes('unknown') ? 'unknown' : false, evidence: yes.map((m) => m.evidence) };
    }
    case 'days_persisting':
      return persisting(matches, tri);
    default:
      return { value: 'unknown', evidence: [] };
  }
}

/**
 * Days from the earliest to the latest value of the run that ends with the latest value, every value
 * of it satisfying the filter (none failing it in between). An unreadable value in the run leaves the
 * length open between the run before it and the run through it.
 */
function persisting(matches: Match[], tri: (m: Match) => Tri): Pick<CriterionResult, 'value' | 'evidence'> {
  if (!matches.length) return { value: 'unknown', evidence: [] };
  const last = matches[0].span.start;
  let sure: number | null = null;
  let possible: number | null = null;
  let brokenSure = false;
  const evidence: Evidence[] = [];
  for (const m of matches) {
    const r = tri(m);
    if (r === false) break;
    possible = m.span.start;
    if (r === 'unknown') brokenSure = true;
    else if (!brokenSure) {
      sure = m.span.start;
      evidence.push(m.evidence);
    }
  }
  if (possible === null) return { value: 0, evidence: [] };
  const days = (from: number | null) => (from === null ? 0 : Math.floor((last - from) / DAY_MS));
  return { value: sure === possible ? days(sure) : openCount(days(sure), days(possible) - days(sure)), evidence };
}

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/;

/**
 * Whole years at the anchor date (the period's end, else now's UTC day). A birth date given only as
 * a year or a month makes the age an interval when the birthday could fall either side of the anchor.
 */
function ageResult(resources: readonly unknown[], c: Criterion, ctx: CriterionContext): CriterionResult {
  const patient = resources.find((r): r is Json => isObject(r) && r.resourceType === 'Patient');
  const m = patient && typeof patient.birthDate === 'string' ? DATE.exec(patient.birthDate) : null;
  if (!patient || !m)
    return unknownResult(patient ? [{ resource_type: 'Patient', id: String(patient.id ?? ''), problem: 'it has no birth date' }] : []);
  const period = c.window?.anchor === 'period' ? ctx.period : undefined;
  if (c.window?.anchor === 'period' && !period)
    return unknownResult([{ resource_type: 'Patient', id: null, problem: 'no measurement period was given' }]);
  const anchor = period ? (c.window?.at === 'start' ? period.start : period.end) : new Date(ctx.now).toISOString().slice(0, 10);
  const [ay, am, ad] = anchor.split('-').map(Number);
  const by = Number(m[1]);
  const age = (bm: number, bd: number) => ay - by - (am < bm || (am === bm && ad < bd) ? 1 : 0);
  const lo = age(m[2] ? Number(m[2]) : 12, m[3] ? Number(m[3]) : m[2] ? 31 : 31);
  const hi = age(m[2] ? Number(m[2]) : 1, m[3] ? Number(m[3]) : 1);
  const evidence: Evidence[] = [
    { resource_type: 'Patient', id: typeof patient.id === 'string' ? patient.id : null, at: Date.parse(patient.birthDate as string) },
  ];
  return { value: openCount(lo, hi - lo), evidence, set_aside: [], future: [] };
}
