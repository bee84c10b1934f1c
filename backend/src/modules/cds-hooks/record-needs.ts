import { searchKey, type EngineParameter } from '@cds/engine';
import { DomainError } from '../../common/errors';
import type { Knowledge } from '../assessments';
import { demographicOf, type Demographic } from './demographics';
import { LOINC, searchCodes } from './observations';
import { historyInputOf, observationParams, type HistoryInput } from './record-history';

/** What a hook call reads from the record for the published rules, and the searches that read it. */

export const PATIENT_KEY = 'patient';
/**
 * Results asked per code: the latest valid result may sit behind future-dated, unreadable or
 * (from a server that ignores the status filter) invalid ones; ten keeps that likely while bounding
 * the cost of a call. The longest history the published rules need today is the latest value.
 */
export const HISTORY_COUNT = 10;

/** One prefetch key per search: parameters whose codes are one measure (NGSP and IFCC HbA1c) share it. */
export const observationKey = (loinc: string) => `obs-${searchKey(loinc)}`;

type Json = Record<string, unknown>;

/** A measured parameter the hook can fill from an Observation. */
export interface Measured {
  parameter: EngineParameter;
  loinc: string;
}

/** What the published rules need from the record: Observations by LOINC code, and age or sex from the Patient. */
export interface Needs {
  measured: Measured[];
  /** Parameters bound to the record by a criterion: read from the patient's history, one search per list of codes. */
  histories: HistoryInput[];
  demographics: { parameter: EngineParameter; kind: Demographic }[];
}

/** Nulls last, as PostgreSQL orders them. */
const byText = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

/**
 * The published rules' parameters the record can answer: Observations by LOINC code (the code is kept on
 * the parameter, not the snapshot, and read with the version ids), age and sex, and histories read by a
 * criterion (an Observation criterion by value set is searched by the codes `valueSets` gives it).
 */
export function needsOf(
  k: Knowledge,
  loincCodes: ReadonlyMap<string, string>,
  valueSets: ReadonlyMap<string, readonly string[]> = new Map(),
): Needs {
  const coded = k.parameters
    .map((parameter) => ({ parameter, loinc: loincCodes.get(parameter.id) ?? null }))
    .sort((a, b) => byText(a.loinc, b.loinc) || byText(a.parameter.id, b.parameter.id));
  const out: Needs = { measured: [], histories: [], demographics: [] };
  for (const { parameter, loinc } of coded) {
    // A criterion says how the parameter is read from the record; it is not the latest value of its code.
    const history = historyInputOf(parameter, valueSets);
    if (history === 'unsupported') continue;
    if (history) {
      out.histories.push(history);
      continue;
    }
    const kind = demographicOf(parameter, loinc);
    // Two parameters with one LOINC code share one prefetch; both are filled from it.
    if (kind) out.demographics.push({ parameter, kind });
    else if (loinc) out.measured.push({ parameter, loinc });
  }
  return out;
}

/** The prefetched Patient: null when the EHR found none; anything else but this patient is refused. */
export function patientOf(value: unknown, patientId: string): Json | null {
  if (value === null) return null;
  const r = value as Json;
  if (typeof value !== 'object' || Array.isArray(value) || r.resourceType !== 'Patient' || r.id !== patientId) {
    const message = `must be the Patient resource with id ${patientId}`;
    throw new DomainError('invalid_prefetch', `prefetch.${PATIENT_KEY}: ${message}`, [{ field: `prefetch.${PATIENT_KEY}`, message }]);
  }
  return r;
}

/** The `system|code` tokens a parameter's latest value is searched by (its codes and the panels that carry them). */
export const observationTokens = (loinc: string) => searchCodes(searchKey(loinc)).map((c) => `${LOINC}|${c}`);

/** The statuses that count are asked of the server too (and checked again here, whatever it sends). */
export function observationQuery(patientId: string, loinc: string): string {
  return `Observation?patient=${patientId}&code=${observationTokens(loinc).join(',')}&${observationParams(HISTORY_COUNT)}`;
}
