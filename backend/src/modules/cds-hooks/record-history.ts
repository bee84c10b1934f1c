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
 * year"), not the latest value. Read here: Observations coded with LOINC codes; a criterion over
 * other resources or value sets is not read from the EHR yet, and its parameter stays unknown.
 */
export interface HistoryInput {
  parameter: EngineParameter;
  criterion: Criterion;
  /** The LOINC codes searched, sorted: one search (one prefetch key) per distinct list. */
  codes: string[];
}

/** Results asked per search of a history: the newest first, bounded (a criterion's window is applied here too). */
export const HISTORY_BOUND = 100;
const STATUS_FILTER = 'final,amended,corrected';

export function historyInputOf(parameter: EngineParameter): HistoryInput | null | 'unsupported' {
  const spec = (parameter.validation_rules as { criterion?: CriterionSpec } | undefined)?.criterion;
  if (!spec) return null;
  if (isAnyOf(spec) || spec.resource_type !== 'Observation' || spec.value_sets?.length || !spec.codes?.length) return 'unsupported';
  if (!spec.codes.every((t) => t.startsWith(`${LOINC}|`))) return 'unsupported';
  return { parameter, criterion: spec, codes: [...new Set(spec.codes.map((t) => t.slice(LOINC.length + 1)))].sort() };
}

export const historyKey = (codes: readonly string[]) => `hist-${codes.join('_')}`;

export function historyQuery(patientId: string, codes: readonly string[]): string {
  return `Observation?patient=${patientId}&code=${codes.map((c) => `${LOINC}|${c}`).join(',')}&status=${STATUS_FILTER}&_sort=-date&_count=${HISTORY_BOUND}`;
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

export function readHistoryInput(resources: readonly unknown[], input: HistoryInput, now: Date): HistoryReading {
  const p = input.parameter;
  const name = p.display_name || p.name;
  const r = prepareCriterion(input.criterion, { scale: scaleOf(p) }).evaluate(resources, { now: now.getTime() });
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
