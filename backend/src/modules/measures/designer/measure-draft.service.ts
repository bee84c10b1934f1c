import { setImmediate } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import type { MeasureImpactJson, MeasureImpactPatientJson } from '@cds/contracts';
import { prepareMeasure, type MeasureModel, type MeasureOutcome, type PreparedMeasure } from '@cds/engine';
import { progressStream, type Progress } from '../../../common/progress-stream';
import { RecordsRepository } from '../../records';
import { valueSetsOf, type ShippedMeasure } from '../measure-content';
import { measureVersion } from '../measure-version';
import { MeasuresService } from '../measures.service';
import { patientName } from '../panel';
import { MeasureResultsRepository } from '../runs/measure-results.repository';
import { analysisOf, POPULATIONS } from './measure-design';
import { COMPARED, patientChange, readDraftRules, type DraftBody, type MeasureDraft } from './measure-draft';

/** Patients listed by name in a preview; the rest are counted. */
const LISTED = 200;
/** Patients whose stored results are read per statement. */
const STORED_SLICE = 5_000;

/** The initial population's rules as the engine reads them (their conditions), in a comparable form. */
const initialPopulation = (m: MeasureModel) =>
  JSON.stringify(
    (m.populations['initial-population'] ?? []).map((id) => JSON.stringify(m.rules.find((r) => r.id === id)?.conditions ?? null)).sort(),
  );

/** What a draft's preview reads before any patient is compared: a bad draft or missing value sets fail here, before a stream begins. */
export interface PreparedDraftImpact {
  measure: ShippedMeasure;
  draft: MeasureDraft;
  current: PreparedMeasure;
  next: PreparedMeasure;
  versions: { current: string; draft: string };
  patients: string[];
}

/**
 * The impact preview for a measure draft (issue 21): every stored patient under the measure as it is and under
 * the draft's population rules, and those whose populations differ. The measure as it is comes from the stored
 * results where they are current for its version and the period (a measure run's, or the Panel's), so then only
 * the draft is evaluated; the others are evaluated now. Nothing is stored or published.
 */
@Injectable()
export class MeasureDraftService {
  private readonly logger = new Logger('MeasureDraftImpact');

  constructor(
    private readonly measures: MeasuresService,
    private readonly records: RecordsRepository,
    private readonly results: MeasureResultsRepository,
  ) {}

  async impact(id: string, body: DraftBody): Promise<MeasureImpactJson> {
    return this.compute(await this.prepare(id, body));
  }

  /** `compute` as a stream of lines with its progress (common/progress-stream.ts); the last line is `{ preview }`. */
  streamed(run: PreparedDraftImpact): Readable {
    return progressStream((progress) => this.compute(run, progress), this.logger);
  }

  async prepare(id: string, body: DraftBody): Promise<PreparedDraftImpact> {
    const measure = await this.measures.measure(id);
    const draft = readDraftRules(measure, body);
    const set = await this.measures.prepare([measure]);
    const codes = await this.records.valueSetCodes(valueSetsOf(measure));
    return {
      measure,
      draft,
      current: set.prepared[0],
      next: prepareMeasure(draft.model, codes),
      versions: { current: set.versions.get(measure.id)!, draft: measureVersion({ ...measure, model: draft.model }, codes) },
      patients: await this.records.patientIds(),
    };
  }

  /** Compares every patient, a slice of records at a time, telling `progress` after each slice. */
  async compute(run: PreparedDraftImpact, progress?: Progress): Promise<MeasureImpactJson> {
    const { measure, draft, patients: ids } = run;
    progress?.(0, ids.length);
    const stored = await this.storedPopulations(run);
    // A draft that keeps the initial population's rules (the criteria are the measure's own) keeps a patient whom a
    // current stored result places outside it outside: every population false either way, nothing to read or count.
    const outside =
      initialPopulation(measure.model) === initialPopulation(draft.model)
        ? new Set([...stored].filter(([, p]) => p['initial-population'] === false).map(([id]) => id))
        : new Set<string>();
    const now = Date.now();
    const counts = new Map(COMPARED.map((p) => [p, { before: 0, after: 0 }]));
    const changed: Omit<MeasureImpactPatientJson, 'name'>[] = [];
    let total = 0;
    let done = outside.size;
    for await (const records of this.measures.recordSlices(outside.size ? ids.filter((id) => !outside.has(id)) : ids)) {
      for (const [patient, resources] of records) {
        const kept = stored.get(patient);
        const before: MeasureOutcome = kept
          ? { populations: kept, answers: {}, inputs: {} }
          : run.current.evaluate(resources, draft.period, now);
        const after = run.next.evaluate(resources, draft.period, now);
        for (const p of COMPARED) {
          const c = counts.get(p)!;
          if (before.populations[p] === true) c.before += 1;
          if (after.populations[p] === true) c.after += 1;
        }
        const change = patientChange(patient, '', before, after);
        if (change) {
          total += 1;
          if (changed.length < LISTED) changed.push(change);
        }
      }
      done += records.size;
      progress?.(done, ids.length);
      // Seconds of CPU at population size: other requests are served between slices, and the progress goes out.
      await setImmediate();
    }
    if (ids.length && outside.size === ids.length) progress?.(done, ids.length);
    const patients = await this.records.patients(changed.map((c) => c.patient_id));
    return {
      measure_id: measure.id,
      period: draft.period,
      versions: run.versions,
      analysis: analysisOf({ ...measure, model: draft.model }),
      patients: ids.length,
      current_from: { stored: stored.size, evaluated: ids.length - stored.size },
      changed: total,
      counts: COMPARED.map((p) => ({ population: p, label: POPULATIONS.find((x) => x.code === p)!.label, ...counts.get(p)! })),
      changed_patients: changed.map((c) => ({ ...c, name: patientName(patients.get(c.patient_id), c.patient_id) })),
    };
  }

  /** Each patient's populations under the measure as it is, where a stored result is current for its version and the period. */
  private async storedPopulations(run: PreparedDraftImpact): Promise<Map<string, MeasureOutcome['populations']>> {
    const out = new Map<string, MeasureOutcome['populations']>();
    const version = new Map([[run.measure.id, run.versions.current]]);
    for (let i = 0; i < run.patients.length; i += STORED_SLICE)
      for (const r of await this.results.current(version, run.draft.period, run.patients.slice(i, i + STORED_SLICE)))
        out.set(r.patient_id, r.populations);
    return out;
  }
}
