import type { AnswerDetailJson } from '@cds/contracts';
import {
  isAnyOf,
  panelsWith,
  prepareCriterion,
  scaleOf,
  unitDisplay,
  type Criterion,
  type CriterionSpec,
  type EngineParameter,
  type RangeAnswer,
} from '@cds/engine';
import { formatNumber } from '../assessments';
import { LOINC } from './observations';

/**
 * Parameters bound to the record by a criterion (validation_rules.criterion): in a hook call their
 * answer is what the criterion takes from the patient's history ("days with an A1C ≥ 6.5 % in a
 * year", "diabetes on the problem list"), not the latest value. Observations are searched by their
 * codes, newest first (a value set's codes are its expansion, resolved before the searches are
 * built: searching all of a patient's Observations is unbounded); Conditions, Procedures, Encounters
 * and requests by type, every one of the patient's (the criterion's codes or value sets, expanded
 * here, filter them). A criterion over the Patient (age) is read with the demographics.
 */
export interface HistoryInput {
  parameter: EngineParameter;
  criterion: Criterion;
  /**
   * The searches that read it (inputs with the same searches share them, one prefetch key each). Empty
   * when they cannot be built: a value set not loaded (the criterion then says which), or `unsearchable`.
   */
  searches: HistorySearch[];
  /** Why the record is not searched for it (a value set too large for the searches of one call). */
  unsearchable?: string;
}

export interface HistorySearch {
  key: string;
  resourceType: string;
  /** `Observation?code=…&status=…&_sort=-date&_count=100` without the patient. */
  params: string;
  /** An Observation search's `code=` tokens (`system|code`, unescaped): what a bundle holding more is filtered by. */
  codes?: readonly string[];
}

/** Results asked per search of a history: the newest first where the type can be sorted, bounded (a criterion's window is applied here too). */
export const HISTORY_BOUND = 100;
/**
 * The `code=` list of one search is kept under this many characters, so that a search URL stays well
 * under the 2,000 characters some servers and proxies accept; a longer list is split into several searches.
 */
export const CODE_PARAM_MAX_CHARS = 1500;
/** At most this many searches read one input (about 50 LOINC codes each): a value set larger than that is not searched in a hook call. */
export const MAX_SEARCHES_PER_INPUT = 4;
const STATUS_FILTER = 'final,amended,corrected';
/** An Observation search's parameters after `code=`: valid statuses, newest first, `count` results. */
export const observationParams = (count: number) => `status=${STATUS_FILTER}&_sort=-date&_count=${count}`;
/** Types searched whole (every one of the patient's, bounded), the criterion filtering them by code or value set. */
const SEARCHED_BY_TYPE = new Set(['Condition', 'Procedure', 'Encounter', 'MedicationRequest', 'ServiceRequest', 'DeviceRequest']);

/** A FHIR token search value: `,` `|` `$` `\\` escaped in the code (FHIR search escaping), anything unsafe in a URL percent-encoded. */
function tokenParam(token: string): string {
  const bar = token.indexOf('|');
  const system = token.slice(0, bar);
  const code = token.slice(bar + 1).replace(/[\\,|$]/g, (c) => `\\${c}`);
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._~:/,|$-]/g, (c) => encodeURIComponent(c));
  return `${safe(system)}|${safe(code)}`;
}

/** `code=…`: the tokens as one FHIR token search parameter. */
export const codeParam = (tokens: readonly string[]) => `code=${tokens.map(tokenParam).join(',')}`;

const keyPart = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, '-');
/** A value set in a prefetch key: its whole canonical URL without the scheme, so two sets named alike on two hosts never share a search. */
const valueSetKey = (url: string) => `vs-${url.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '')}`;
/** FNV-1a: a short, stable tag for a key that had to be cut. */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/**
 * The searches that read Observations of these codes (`system|code` tokens, sorted), newest first and
 * bounded, the `code=` list split so that no search URL is too long; null when more than
 * MAX_SEARCHES_PER_INPUT searches would be needed. `name` is the prefetch key's stem.
 */
export function observationSearches(tokens: readonly string[], name: string): HistorySearch[] | null {
  const chunks: string[][] = [];
  let length = 0;
  for (const token of tokens) {
    const t = tokenParam(token);
    const last = chunks[chunks.length - 1];
    if (last && length + 1 + t.length <= CODE_PARAM_MAX_CHARS) {
      last.push(token);
      length += 1 + t.length;
    } else {
      chunks.push([token]);
      length = t.length;
    }
  }
  if (chunks.length > MAX_SEARCHES_PER_INPUT) return null;
  const full = `hist-${keyPart(name)}`;
  // Keys name their search: one cut short keeps a tag of the whole, so two long ones do not collide.
  const stem = full.length <= 190 ? full : `${full.slice(0, 180)}-${fnv(name)}`;
  return chunks.map((codes, i) => ({
    key: chunks.length === 1 ? stem : `${stem}-part${i + 1}`,
    resourceType: 'Observation',
    params: `${codeParam(codes)}&${observationParams(HISTORY_BOUND)}`,
    codes,
  }));
}

/**
 * The tokens, each once and sorted, with the panels that carry a LOINC code of them as a component: the criterion reads
 * a blood pressure from a panel 85354-9's components, and a search by code=8480-6 alone never returns the panel (FHIR's
 * `code` is the Observation's own code), so a record that keeps its pressures as panels would read as none.
 */
function withPanels(tokens: readonly string[]): string[] {
  const loinc = `${LOINC}|`;
  const panels = tokens.flatMap((t) => (t.startsWith(loinc) ? panelsWith(t.slice(loinc.length)).map((c) => loinc + c) : []));
  return [...new Set([...tokens, ...panels])].sort();
}

/**
 * The history input of a parameter bound to the record by a criterion; null when it has none, and
 * `unsupported` when a hook call does not read it (`any_of`, the Patient). An Observation criterion
 * naming value sets is searched by their codes, from `valueSets` (the expansions by URL): without
 * them its searches are empty.
 */
export function historyInputOf(
  parameter: EngineParameter,
  valueSets: ReadonlyMap<string, readonly string[]> = new Map(),
): HistoryInput | null | 'unsupported' {
  const spec = (parameter.validation_rules as { criterion?: CriterionSpec } | undefined)?.criterion;
  if (!spec) return null;
  if (isAnyOf(spec)) return 'unsupported';
  if (spec.resource_type === 'Observation') {
    const own = [...new Set(spec.codes ?? [])].sort();
    const sets = [...new Set(spec.value_sets ?? [])].sort();
    if (!own.length && !sets.length) return 'unsupported';
    const input: HistoryInput = { parameter, criterion: spec, searches: [] };
    // A value set not loaded: nothing to search by; the criterion, read on nothing, names it and stays unknown.
    if (sets.some((url) => !valueSets.get(url)?.length)) return input;
    const tokens = withPanels([...own, ...sets.flatMap((url) => valueSets.get(url)!)]);
    const shown = own.map((t) => (t.startsWith(`${LOINC}|`) ? t.slice(LOINC.length + 1) : t));
    const searches = observationSearches(tokens, [...shown, ...sets.map(valueSetKey)].join('_'));
    if (searches) input.searches = searches;
    else
      input.unsearchable =
        `its codes (${tokens.length}) need more than ${MAX_SEARCHES_PER_INPUT} searches of the EHR's record; ` +
        'a hook call reads at most that many for one input';
    return input;
  }
  if (!SEARCHED_BY_TYPE.has(spec.resource_type)) return 'unsupported';
  return {
    parameter,
    criterion: spec,
    searches: [{ key: `hist-${spec.resource_type}`, resourceType: spec.resource_type, params: `_count=${HISTORY_BOUND}` }],
  };
}

export function historyQuery(patientId: string, search: HistorySearch): string {
  return `${search.resourceType}?patient=${patientId}&${search.params}`;
}

/** The value sets the inputs name: expanded once per call. */
export function valueSetsOf(inputs: readonly HistoryInput[]): string[] {
  return [...new Set(inputs.flatMap((h) => [...(h.criterion.value_sets ?? []), ...(h.criterion.has_code?.value_sets ?? [])]))].sort();
}

/** What a history gives one parameter: its answer, the detail shown with the card, and notes for the info card. */
export interface HistoryReading {
  answer: number | RangeAnswer | boolean | 'unknown';
  detail: AnswerDetailJson | null;
  setAside: string[];
  future: { id: string | null; text: string }[];
}

/** Resources of several searches, each once (a result whose codings fall in two searches' code lists comes back from both). */
export function onceEach<T extends Record<string, unknown>>(resources: readonly T[]): T[] {
  const seen = new Set<string>();
  return resources.filter((r) => {
    if (typeof r.id !== 'string') return true;
    const key = `${String(r.resourceType)}/${r.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** An input whose record was not searched (`unsearchable`): unknown, and said why on the info card. */
export function unsearchedReading(input: HistoryInput): HistoryReading {
  const name = input.parameter.display_name || input.parameter.name;
  return { answer: 'unknown', detail: null, setAside: [`${name} not read: ${input.unsearchable ?? 'not searched'}`], future: [] };
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function valueText(v: number | RangeAnswer | boolean, units: string | null): string {
  const unit = unitDisplay(units ?? '');
  const n = (x: number) => (unit ? `${formatNumber(x)} ${unit}` : formatNumber(x));
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number') return n(v);
  return `${v.min === null ? '' : n(v.min)} to ${v.max === null ? '' : n(v.max)}`.trim();
}

const LOWER_BOUND_TAKES = new Set(['count', 'distinct_days', 'days_persisting']);

/**
 * `truncated`: the search had more results than it returned (a `next` link). A count read from
 * part of the record is then at least what was counted, and "none" is unknown, never a no.
 */
export function readHistoryInput(
  resources: readonly unknown[],
  input: HistoryInput,
  now: Date,
  valueSets: ReadonlyMap<string, readonly string[]> = new Map(),
  truncated = false,
): HistoryReading {
  const p = input.parameter;
  const name = p.display_name || p.name;
  const r = prepareCriterion(input.criterion, { scale: scaleOf(p), valueSets }).evaluate(resources, { now: now.getTime() });
  if (truncated) {
    const type = input.criterion.resource_type;
    const problem = `more than ${HISTORY_BOUND} ${type} resources in one search; only the first ${HISTORY_BOUND} were read`;
    if (r.value === false) {
      r.value = 'unknown';
      r.set_aside.push({ resource_type: type, id: null, problem });
    } else if (typeof r.value === 'number' && LOWER_BOUND_TAKES.has(input.criterion.take))
      r.value = { type: 'range', min: r.value, max: null, min_inclusive: true, max_inclusive: false };
  }
  const setAside = r.set_aside.map((s) =>
    s.resource_type === 'ValueSet'
      ? `${name} not read: value set ${s.id ?? ''} ${s.problem === 'the value set is not loaded' ? 'is neither stored nor shipped' : s.problem}`
      : `${name}: ${s.resource_type}${s.id ? `/${s.id}` : ''} set aside: ${s.problem}`,
  );
  const future = r.future.map((e) => ({
    id: e.id,
    text: `${name}: ${e.resource_type}${e.id ? `/${e.id}` : ''} dated ${day(e.at)}, in the future`,
  }));
  if (r.value === 'unknown') return { answer: 'unknown', detail: null, setAside, future };
  const dates = [...new Set(r.evidence.map((e) => day(e.at)))].sort();
  const basis = dates.length ? ` (from the record: ${dates.join(', ')})` : ' (from the record: no matching result)';
  const latest = r.evidence.length ? Math.max(...r.evidence.map((e) => e.at)) : null;
  const numeric = typeof r.value === 'number';
  return {
    answer: r.value,
    detail: {
      parameter_id: p.id,
      parameter_name: p.name,
      display_name: p.display_name,
      units: p.units ?? null,
      // A count some unreadable results leave open is an interval, closed at both ends.
      value:
        typeof r.value === 'object'
          ? { ...r.value, min_inclusive: r.value.min_inclusive ?? true, max_inclusive: r.value.max_inclusive ?? true }
          : r.value,
      unit: numeric ? (p.units ?? null) : null,
      entered_as: numeric ? 'typed' : 'option',
      label: `${valueText(r.value, p.units ?? null)}${basis}`,
      observed_at: latest === null ? null : new Date(latest).toISOString(),
      answered_at: now.toISOString(),
    },
    setAside,
    future,
  };
}
