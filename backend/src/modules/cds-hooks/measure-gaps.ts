import { randomUUID } from 'node:crypto';
import type { CdsCardJson, PanelPatientMeasureJson } from '@cds/contracts';
import { isAnyOf, type CriterionSpec, type MeasureOutcome, type RecordCoverage } from '@cds/engine';
import { patientMeasure, reasonOf, standing, type ShippedMeasure } from '../measures/content';
import { historyInputOf, type HistorySearch } from './record-history';

/**
 * Gaps in care at the point of care (issue 21): the shipped measures, evaluated by the engine over the
 * record a patient-view call reads, as the Panel evaluates them over the stored record. Pure: the
 * service reads the record; this says what each measure needs from it and words the gap.
 */

type Json = Record<string, unknown>;

/** One measure input as a hook call reads it: the searches of the EHR's record, the Patient, or why it is not read. */
export interface MeasureInput {
  parameter_id: string;
  searches: HistorySearch[];
  /** Read from the Patient (age). */
  patient: boolean;
  /** Why the record is not searched for it: the input is then undetermined. */
  unsearchable?: string;
}

export interface MeasureNeeds {
  measure: ShippedMeasure;
  inputs: MeasureInput[];
}

/**
 * What each measure's criteria read: each branch of an `any_of` by the searches the hook uses for a
 * criterion of its own (Observations by the codes of their value sets, other types whole); an
 * Observation criterion that skips readings of some encounter classes reads the Encounters too.
 */
export function measureNeedsOf(measures: readonly ShippedMeasure[], valueSets: ReadonlyMap<string, readonly string[]>): MeasureNeeds[] {
  return measures.map((measure) => ({
    measure,
    inputs: measure.model.parameters.flatMap((parameter): MeasureInput[] => {
      const spec = (parameter.validation_rules as { criterion?: CriterionSpec } | undefined)?.criterion;
      if (!spec) return [];
      const input: MeasureInput = { parameter_id: parameter.id, searches: [], patient: false };
      for (const c of isAnyOf(spec) ? spec.any_of : [spec]) {
        if (c.resource_type === 'Patient') {
          input.patient = true;
          continue;
        }
        const h = historyInputOf({ ...parameter, validation_rules: { criterion: c } }, valueSets);
        if (h === null || h === 'unsupported') input.unsearchable ??= `a hook call does not read ${c.resource_type} for it`;
        else if (h.unsearchable) input.unsearchable ??= h.unsearchable;
        else input.searches.push(...h.searches);
        if (c.exclude_encounter_classes?.length) {
          const encounters = historyInputOf({ ...parameter, validation_rules: { criterion: { ...c, resource_type: 'Encounter' } } });
          if (encounters && encounters !== 'unsupported') input.searches.push(...encounters.searches);
        }
      }
      input.searches = [...new Map(input.searches.map((s) => [s.key, s])).values()];
      return [input];
    }),
  }));
}

/** How one search of a call went: read whole, read in part (a next page), or not read. */
export type SearchRead = 'whole' | 'partial' | 'failed';

/** Each input's coverage of the record, from how its searches (and the Patient) were read. */
export function coverageOf(
  needs: MeasureNeeds,
  searches: ReadonlyMap<string, SearchRead>,
  patientRead: boolean,
): Map<string, RecordCoverage> {
  const out = new Map<string, RecordCoverage>();
  for (const i of needs.inputs) {
    const reads = i.searches.map((s) => searches.get(s.key) ?? 'failed');
    if (i.unsearchable || (i.patient && !patientRead) || reads.includes('failed')) out.set(i.parameter_id, 'unread');
    else if (reads.includes('partial')) out.set(i.parameter_id, 'partial');
  }
  return out;
}

const SUMMARY_MAX = 140;
const md = (s: string) => s.replace(/([\\`*_[\]<>])/g, '\\$1');
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : 'undated');

function summaryOf(text: string): string {
  return text.length <= SUMMARY_MAX ? text : `${text.slice(0, SUMMARY_MAX - 1).trimEnd()}…`;
}

function evidenceText(e: PanelPatientMeasureJson['populations'][number]['inputs'][number]['evidence'][number]): string {
  if (e.resource_type === 'Patient') return `Patient birth date ${day(e.at)}`;
  const about = [e.what, e.value].filter(Boolean).join(', ');
  return `${e.resource_type}${e.id ? `/${e.id}` : ''}${about ? ` ${about}` : ''} (${day(e.at)})`;
}

/** What a measure says of this patient at the point of care: a gap card, a line for the info card, or nothing. */
export type MeasureAtCare = { card: CdsCardJson } | { undetermined: string } | null;

/**
 * A patient in the denominator, not excluded, who misses the goal: one warning card naming the gap
 * with the year, its basis (the resources that made each population true, with dates), the action and
 * the measure. Undetermined: a line for the info card. Outside the measure, excluded or goal met: nothing.
 */
export function measureAtCare(
  m: ShippedMeasure,
  o: MeasureOutcome,
  record: readonly Json[],
  period: { start: string; end: string },
): MeasureAtCare {
  const status = standing(o.populations, m);
  if (status === 'undetermined') {
    const reason = reasonOf(m, status, o).replace(/^Not determined from the record/, 'not determined from the record read');
    return { undetermined: `Gap in care for ${m.identifier} (${m.title}) ${reason}` };
  }
  if (status !== 'gap') return null;
  const year = period.start.slice(0, 4);
  const { gap, action } = m.gapAtCare(o.answers);
  const standingOf = patientMeasure(m, o, record);
  const lines = [`**${md(m.title)}** (${md(m.identifier)}): ${md(m.goal.charAt(0).toLowerCase() + m.goal.slice(1))}.`, '', '**Basis**', ''];
  for (const p of standingOf.populations) {
    const gapHere = p.code === 'numerator';
    // The denominator with no rules of its own is the initial population: not said twice.
    if ((p.state !== true && !gapHere) || (!p.rules.length && !p.inputs.length && !gapHere)) continue;
    const title = gapHere
      ? `${p.label}${m.improvement_notation === 'decrease' ? ' (inverse measure: in it is the gap)' : ' (not met)'}`
      : p.label;
    lines.push(`- ${md(title)}${p.rules.length ? `: ${md(p.rules.join('; '))}` : ''}`);
    for (const i of p.inputs) {
      const evidence = i.evidence.map(evidenceText);
      lines.push(`  - ${md(i.display_name)}: ${md(i.answer)}${evidence.length ? ` — ${md(evidence.join('; '))}` : ''}`);
    }
  }
  lines.push('', '**Action**', '', `- ${md(action)}`, '');
  lines.push(`Measurement period ${period.start} to ${period.end}. Source: ${md(m.source)}, measure ${md(m.id)}.`);
  // A published local edit is not the CMS measure as specified: the card says which version it is, and why.
  if (m.local) lines.push('', `Local version ${md(m.local.label)}, published ${m.local.published_at.slice(0, 10)}: ${md(m.local.note)}`);
  return {
    card: {
      uuid: randomUUID(),
      summary: summaryOf(`Gap in care: ${gap} in ${year}`),
      indicator: 'warning',
      source: { label: m.local ? `${m.identifier} local version ${m.local.version} (changed from the CMS measure)` : m.source },
      detail: lines.join('\n'),
      links: [],
    },
  };
}

/** The measurement period at the point of care: the current calendar year (UTC). */
export function currentYear(now: Date): { start: string; end: string } {
  const y = now.getUTCFullYear();
  return { start: `${y}-01-01`, end: `${y}-12-31` };
}
