import type { AnswerDetailJson } from '@cds/contracts';
import {
  isAnyOf,
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
 * codes, newest first; Conditions, Procedures, Encounters and requests by type, every one of the
 * patient's (the criterion's codes or value sets, expanded here, filter them). A criterion over the
 * Patient (age) is read with the demographics, and one over Observations without codes is not read
 * from the EHR: its parameter stays unknown.
 */
export interface HistoryInput {
  parameter: EngineParameter;
  criterion: Criterion;
  /** The search that reads it: inputs with the same key share one search (one prefetch key). */
  search: HistorySearch;
}

export interface HistorySearch {
  key: string;
  resourceType: string;
  /** `Observation?code=…&status=…&_sort=-date&_count=100` without the patient. */
  params: string;
}

/** Results asked per search of a history: the newest first where the type can be sorted, bounded (a criterion's window is applied here too). */
export const HISTORY_BOUND = 100;
const STATUS_FILTER = 'final,amended,corrected';
/** Types searched whole (every one of the patient's, bounded), the criterion filtering them by code or value set. */
const SEARCHED_BY_TYPE = new Set(['Condition', 'Procedure', 'Encounter', 'MedicationRequest', 'ServiceRequest', 'DeviceRequest']);

export function historyInputOf(parameter: EngineParameter): HistoryInput | null | 'unsupported' {
  const spec = (parameter.validation_rules as { criterion?: CriterionSpec } | undefined)?.criterion;
  if (!spec) return null;
  if (isAnyOf(spec)) return 'unsupported';
  if (spec.resource_type === 'Observation') {
    if (spec.value_sets?.length || !spec.codes?.length) return 'unsupported';
    const codes = [...new Set(spec.codes)].sort();
    const shown = codes.map((t) => (t.startsWith(`${LOINC}|`) ? t.slice(LOINC.length + 1) : t));
    return {
      parameter,
      criterion: spec,
      search: {
        key: `hist-${shown.join('_')}`.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 200),
        resourceType: 'Observation',
        params: `code=${codes.join(',')}&status=${STATUS_FILTER}&_sort=-date&_count=${HISTORY_BOUND}`,
      },
    };
  }
  if (!SEARCHED_BY_TYPE.has(spec.resource_type)) return 'unsupported';
  return {
    parameter,
    criterion: spec,
    search: { key: `hist-${spec.resource_type}`, resourceType: spec.resource_type, params: `_count=${HISTORY_BOUND}` },
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
    const problem = `more than ${HISTORY_BOUND} ${input.search.resourceType} resources; only the first ${HISTORY_BOUND} were read`;
    if (r.value === false) {
      r.value = 'unknown';
      r.set_aside.push({ resource_type: input.search.resourceType, id: null, problem });
    } else if (typeof r.value === 'number' && LOWER_BOUND_TAKES.has(input.criterion.take))
      r.value = { type: 'range', min: r.value, max: null, min_inclusive: true, max_inclusive: false };
  }
  const setAside = r.set_aside.map((s) => `${name}: ${s.resource_type}${s.id ? `/${s.id}` : ''} set aside: ${s.problem}`);
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
