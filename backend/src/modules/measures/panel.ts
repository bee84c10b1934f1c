import type {
  PanelEvidenceJson,
  PanelGapJson,
  PanelInputJson,
  PanelMeasureJson,
  PanelPatientMeasureJson,
  PanelPopulationJson,
  PanelStatus,
} from '@cds/contracts';
import { evaluateRule, unitDisplay, type AnswerValue, type MeasureOutcome, type PopulationCode, type Tri } from '@cds/engine';
import { nameOfPatient } from '../records';
import { shown, type ShippedMeasure } from './measure-content';

/**
 * The Panel's reading of measure outcomes (issue 21): where each patient stands on each measure, why,
 * and which resources decided it. Pure: the service reads the records and evaluates; this words it.
 */

type Json = Record<string, unknown>;
type Populations = MeasureOutcome['populations'];

const SHOWN: readonly PanelPopulationJson['code'][] = ['initial-population', 'denominator', 'denominator-exclusion', 'numerator'];
const LABEL: Record<PanelPopulationJson['code'], string> = {
  'initial-population': 'Initial population',
  denominator: 'Denominator',
  'denominator-exclusion': 'Denominator exclusion',
  numerator: 'Numerator',
};

/**
 * Where a patient stands: null when not in the measure; excluded; the goal met or a gap; undetermined
 * when the record leaves any step open. An inverse measure (improvement `decrease`, CMS122) counts the
 * patients who miss the goal in its numerator: there the gap is being in the numerator.
 */
export function standing(p: Populations, m: ShippedMeasure): PanelStatus | null {
  const ip = p['initial-population'];
  const den = p.denominator;
  if (ip === false || den === false) return null;
  if (ip === 'unknown' || den === 'unknown') return 'undetermined';
  if (p['denominator-exclusion'] === true || p['denominator-exception'] === true) return 'excluded';
  if (p['denominator-exclusion'] === 'unknown' || p.numerator === 'unknown') return 'undetermined';
  const inverse = m.improvement_notation === 'decrease';
  return p.numerator === inverse ? 'gap' : 'met';
}

/** The first open population, in the measure's order, and the inputs its rules read that the record left open. */
function openInputs(m: ShippedMeasure, p: Populations, answers: Record<string, AnswerValue>): string[] {
  const code = (['initial-population', 'denominator', 'denominator-exclusion', 'numerator'] as const).find((c) => p[c] === 'unknown');
  const ids = new Set(parametersOf(m, code ?? 'numerator'));
  return m.model.parameters.filter((x) => ids.has(x.id) && answers[x.id] === 'unknown').map((x) => x.display_name || x.name);
}

/** Why a patient stands where they do, in words. */
export function reasonOf(m: ShippedMeasure, status: PanelStatus | null, o: MeasureOutcome): string {
  switch (status) {
    case null:
      return 'Not in this measure (outside its initial population)';
    case 'gap':
      return m.gapReason(o.answers);
    case 'met':
      return `Goal met: ${m.goal.charAt(0).toLowerCase()}${m.goal.slice(1)}`;
    case 'excluded': {
      const rules = holding(m, 'denominator-exclusion', o);
      return `Excluded: ${rules.join('; ') || 'a denominator exclusion applies'}`;
    }
    case 'undetermined': {
      const open = openInputs(m, o.populations, o.answers);
      return `Not determined from the record${open.length ? `: ${open.join('; ')} could not be read` : ''}`;
    }
  }
}

/** The ids of the parameters a population's rules read. */
function parametersOf(m: ShippedMeasure, code: PopulationCode): string[] {
  const rules = new Set(m.model.populations[code] ?? []);
  const ids = new Set<string>();
  for (const r of m.model.rules)
    if (rules.has(r.id))
      for (const c of r.conditions as { parameter?: unknown }[]) if (typeof c.parameter === 'string') ids.add(c.parameter);
  return [...ids];
}

/** The names of a population's rules that hold for these answers. */
function holding(m: ShippedMeasure, code: PopulationCode, o: MeasureOutcome): string[] {
  const rules = new Set(m.model.populations[code] ?? []);
  return m.model.rules.filter((r) => rules.has(r.id) && evaluateRule(r, o.answers, m.model.parameters).result === true).map((r) => r.name);
}

/**
 * One measure's card on the Panel: counts of patients definitely in each population (as a
 * MeasureReport gives them), and the score over the patients the record places with certainty. A
 * patient whose numerator or exclusion the record leaves open is left out of the score: a
 * MeasureReport keeps them in its denominator, which would count an unreadable HbA1c as controlled.
 */
export function measureSummary(m: ShippedMeasure, outcomes: ReadonlyMap<string, MeasureOutcome>): PanelMeasureJson {
  const count = (code: PopulationCode) => [...outcomes.values()].filter((o) => o.populations[code] === true).length;
  const statuses = [...outcomes.values()].map((o) => standing(o.populations, m));
  const counting = (s: PanelStatus) => statuses.filter((x) => x === s).length;
  const counts = {
    initial_population: count('initial-population'),
    denominator: count('denominator'),
    denominator_exclusion: count('denominator-exclusion'),
    numerator: count('numerator'),
    undetermined: counting('undetermined'),
  };
  // The numerator is decided only for patients placed with certainty: met + gap are the patients the score is about.
  const eligible = counting('met') + counting('gap');
  return {
    id: m.id,
    identifier: m.identifier,
    title: m.title,
    goal: m.goal,
    score_meaning: m.score_meaning,
    improvement_notation: m.improvement_notation,
    counts,
    eligible,
    score: eligible > 0 ? Number((counts.numerator / eligible).toFixed(6)) : null,
    gaps: counting('gap'),
    local_version: m.local ?? null,
  };
}

/** The gap list's rows of one measure: gaps and undetermined patients (names and ages filled in by the caller). */
export function gapRows(
  m: ShippedMeasure,
  outcomes: ReadonlyMap<string, MeasureOutcome>,
): Omit<PanelGapJson, 'name' | 'birth_date' | 'age'>[] {
  const rows: Omit<PanelGapJson, 'name' | 'birth_date' | 'age'>[] = [];
  for (const [patient_id, o] of outcomes) {
    const status = standing(o.populations, m);
    if (status !== 'gap' && status !== 'undetermined') continue;
    rows.push({ measure_id: m.id, identifier: m.identifier, patient_id, status, reason: reasonOf(m, status, o) });
  }
  return rows;
}

/** "Given Family" from a Patient's first usable name; the id when it has none. */
export function patientName(patient: Json | undefined, id: string): string {
  return nameOfPatient(patient) ?? `Patient ${id}`;
}

/** Whole years from an ISO birth date to an ISO day; null when the birth date is absent or unreadable. */
export function ageAt(birthDate: unknown, day: string): number | null {
  if (typeof birthDate !== 'string' || !/^\d{4}(-\d{2}(-\d{2})?)?$/.test(birthDate)) return null;
  const [by, bm = 1, bd = 1] = birthDate.split('-').map(Number);
  const [y, m, d] = day.split('-').map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

const CODE_ELEMENT: Record<string, string> = {
  Encounter: 'type',
  MedicationRequest: 'medicationCodeableConcept',
  DeviceRequest: 'codeCodeableConcept',
};

/** A resource's concept in words: its code's display or text (an Encounter's type, a request's medication or device). */
function whatOf(r: Json | undefined): string | null {
  if (!r) return null;
  const el = r[CODE_ELEMENT[String(r.resourceType)] ?? 'code'];
  const concept = (Array.isArray(el) ? el[0] : el) as Json | undefined;
  if (!concept || typeof concept !== 'object') return null;
  const codings = Array.isArray(concept.coding) ? (concept.coding as Json[]) : [];
  const display = codings.map((c) => c.display).find((d): d is string => typeof d === 'string' && d.trim() !== '');
  if (display) return display;
  if (typeof concept.text === 'string' && concept.text.trim()) return concept.text;
  const code = codings.find((c) => typeof c.code === 'string');
  return code ? `code ${String(code.code)}` : null;
}

/** An Observation's own quantity as recorded ("48 mL/min/1.73 m²"), for inputs that only ask whether it exists. */
function recordedValue(r: Json | undefined): string | null {
  const q = r?.valueQuantity as Json | undefined;
  if (!q || typeof q.value !== 'number') return null;
  const unit = typeof q.code === 'string' ? q.code : typeof q.unit === 'string' ? q.unit : '';
  return `${typeof q.comparator === 'string' ? `${q.comparator} ` : ''}${q.value}${unit ? ` ${unitDisplay(unit)}` : ''}`;
}

function answerText(value: AnswerValue | Tri | undefined, unit: string | null): string {
  if (value === true) return 'Yes';
  if (value === false) return 'No';
  if (value === 'unknown' || value === undefined) return 'Not determined';
  if (value === null) return 'None';
  return shown(value, unit ? unitDisplay(unit) : '').trim();
}

/** One patient's standing on one measure, with each population's rules and the resources its inputs read. */
export function patientMeasure(m: ShippedMeasure, o: MeasureOutcome, record: readonly Json[]): PanelPatientMeasureJson {
  const byKey = new Map(record.map((r) => [`${String(r.resourceType)}/${String(r.id)}`, r]));
  const input = (id: string): PanelInputJson | null => {
    const p = m.model.parameters.find((x) => x.id === id);
    if (!p) return null;
    const result = o.inputs[id];
    const evidence: PanelEvidenceJson[] = (result?.evidence ?? []).map((e) => {
      const r = e.id ? byKey.get(`${e.resource_type}/${e.id}`) : undefined;
      const fromEngine = e.value === undefined || e.resource_type === 'Patient' ? null : answerText(e.value, p.units ?? null);
      return {
        resource_type: e.resource_type,
        id: e.id,
        at: Number.isFinite(e.at) ? new Date(e.at).toISOString() : null,
        what: e.resource_type === 'Patient' ? 'Birth date' : whatOf(r),
        value: fromEngine ?? recordedValue(r),
      };
    });
    return {
      parameter_id: p.id,
      display_name: p.display_name || p.name,
      answer: answerText(o.answers[id], p.units ?? null),
      evidence,
      set_aside: (result?.set_aside ?? []).map((s) => `${s.resource_type}${s.id ? `/${s.id}` : ''}: ${s.problem}`),
    };
  };
  const status = standing(o.populations, m);
  return {
    id: m.id,
    identifier: m.identifier,
    title: m.title,
    goal: m.goal,
    status,
    reason: reasonOf(m, status, o),
    populations: SHOWN.map((code) => {
      const state = o.populations[code];
      return {
        code,
        label: LABEL[code],
        state: state === 'unknown' ? 'undetermined' : state,
        rules: holding(m, code, o),
        // The denominator is the initial population here: its inputs are the initial population's.
        inputs: parametersOf(m, code)
          .map(input)
          .filter((x): x is PanelInputJson => !!x),
      };
    }),
    local_version: m.local ?? null,
  };
}
