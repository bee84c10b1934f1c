import { Inject, Injectable } from '@nestjs/common';
import type { FhirResourceJson, PanelGapJson, PanelHba1cBand, PanelJson, PanelPatientJson, PanelTrendJson } from '@cds/contracts';
import { prepareMeasure, type MeasureOutcome, type PreparedMeasure } from '@cds/engine';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { conflict, notFound } from '../../common/errors';
import { RecordsRepository } from '../records';
import { measureReport, measureResource } from './measure-report';
import { valueSetsOf, type ShippedMeasure } from './measure-content';
import { ageAt, gapRows, measureSummary, patientMeasure, patientName } from './panel';
import { patientHistories } from './patient-histories';
import { hba1cBand, hba1cDistribution } from './hba1c-distribution';
import { CMS122 } from './cms122';
import { shippedValueSets } from '../records';
import { PublishedMeasures } from '../measure-versions';
import { measureVersion } from './measure-version';
import { MeasureResultsRepository, type ResultRow } from './runs/measure-results.repository';
import { readParams, trendMonths, type EvaluateMeasureParams } from './measure-params';

// Their callers import them from here.
export { readPanelPeriod, trendMonths, type EvaluateMeasureParams } from './measure-params';

type Period = { start: string; end: string };

/** Measures ready to evaluate: prepared against the value sets loaded now, with the version that makes. */
export interface MeasureSet {
  measures: readonly ShippedMeasure[];
  prepared: PreparedMeasure[];
  /** measure id → its version (model and value-set codes hashed). */
  versions: Map<string, string>;
}

/** Each measure's outcome per patient (populations and answers), and CMS122's HbA1c band per patient. */
export interface PanelOutcomes {
  outcomes: Map<string, MeasureOutcome>[];
  bands: Map<string, PanelHba1cBand>;
  /** Patients without a current stored result: evaluated now, unless only stored results were read. */
  evaluated: number;
}

/**
 * The default PANEL_TREND_MAX_PATIENTS: the largest panel whose trend is computed on request where its stored results are missing or stale. Each
 * record is read once and evaluated for the 12 periods: measured (panel-bench, 2,000 generated patients, 2
 * cores shared with a CI run) 8.9 s, 5.7 × the one-period Panel (1.6 s). A larger panel's trend is read from
 * the results a measure run with `trend` stored.
 */
export const TREND_MAX_PATIENTS = 2_000;
/** Patients evaluated per database read: a panel is read in slices, never all at once. */
const SLICE = 500;
/** Patients whose stored results are read, or whose results are stored, per statement. */
const STORED_SLICE = 5_000;

/**
 * Quality measures over the stored records (issue 21): each shipped measure's criteria and
 * population rules, evaluated by the engine for one patient, a Group or the whole panel.
 */
@Injectable()
export class MeasuresService {
  private valueSetsStored: Promise<void> | null = null;

  constructor(
    private readonly records: RecordsRepository,
    private readonly results: MeasureResultsRepository,
    private readonly published: PublishedMeasures,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(): Promise<FhirResourceJson> {
    const measures = await this.published.all();
    return {
      resourceType: 'Bundle',
      type: 'searchset',
      total: measures.length,
      entry: measures.map((m) => ({
        fullUrl: `${this.config.publicUrl}/api/fhir/Measure/${m.id}`,
        resource: measureResource(this.config.publicUrl, m),
      })),
    };
  }

  async get(id: string): Promise<FhirResourceJson> {
    return measureResource(this.config.publicUrl, await this.measure(id));
  }

  async evaluate(id: string, params: EvaluateMeasureParams): Promise<FhirResourceJson> {
    const measure = await this.measure(id);
    const { period, reportType, subject } = readParams(params);
    const patients = await this.subjects(subject);
    const individual = subject?.startsWith('Patient/') && reportType !== 'subject-list' && reportType !== 'population';
    // An individual report names the resources that decided it; a panel's reads each patient's stored result when current.
    const [outcomes] = individual
      ? await this.outcomes([measure], period, patients, 'evidence')
      : (await this.currentOutcomes(await this.prepare([measure]), period, patients)).outcomes;
    return measureReport({
      base: this.config.publicUrl,
      measure,
      period,
      type: individual ? 'individual' : reportType === 'subject-list' ? 'subject-list' : 'summary',
      subject,
      outcomes,
      now: new Date(),
    });
  }

  /**
   * Summary reports of several measures over the whole panel, each patient's record read once for all of
   * them, computed on request with nothing read from or written to the stored results (the measures bench's
   * evaluation figure).
   */
  async panelSummaries(ids: readonly string[], period: { start: string; end: string }): Promise<FhirResourceJson[]> {
    const measures = await this.measuresOf(ids);
    const all = await this.outcomes(measures, period, await this.records.patientIds(), 'populations');
    return measures.map((measure, i) =>
      measureReport({ base: this.config.publicUrl, measure, period, type: 'summary', outcomes: all[i], now: new Date() }),
    );
  }

  /**
   * The PCP's Panel: every shipped measure over every patient with records in `period` (default: the
   * current calendar year), with each measure's counts and score, and the gap list: eligible patients
   * who miss the goal, and those the record leaves undetermined (counted in no population).
   */
  async panel(period: { start: string; end: string }): Promise<PanelJson> {
    const ids = await this.records.patientIds();
    const measures = await this.published.all();
    const { outcomes: all, bands } = await this.currentOutcomes(await this.prepare(measures), period, ids);
    const cms122 = measures.findIndex((m) => m.id === CMS122.id);
    const denominator = [...all[cms122]].filter(([, o]) => o.populations.denominator === true).map(([id]) => bands.get(id) ?? 'no_result');
    const rows = measures.flatMap((m, i) => gapRows(m, all[i]));
    const patients = await this.records.patients([...new Set(rows.map((r) => r.patient_id))]);
    const gaps: PanelGapJson[] = rows.map((r) => {
      const p = patients.get(r.patient_id);
      const birth = typeof p?.birthDate === 'string' ? p.birthDate : null;
      return { ...r, name: patientName(p, r.patient_id), birth_date: birth, age: ageAt(birth, period.end) };
    });
    return {
      period,
      patients: ids.length,
      measures: measures.map((m, i) => measureSummary(m, all[i])),
      gaps,
      hba1c_distribution: hba1cDistribution(measures[cms122], denominator),
    };
  }

  /**
   * Each shipped measure's score at the end of each of the last 12 months (through `today`'s month),
   * each over the 12 months ending that month, from the stored results where current. Up to
   * TREND_MAX_PATIENTS the rest is computed now (each record read once for the 12 periods) and stored; above,
   * only stored results are read (a run with `trend` stores them) and a panel missing some is refused (409).
   */
  async panelTrend(today = new Date()): Promise<PanelTrendJson> {
    const ids = await this.records.patientIds();
    const months = trendMonths(today);
    // Up to TREND_MAX_PATIENTS the months missing from the store are computed now; a larger panel reads them
    // only from the store, which a run with the trend fills (computing them would hold the request for minutes).
    const max = this.config.panelTrendMaxPatients;
    const large = ids.length > max;
    const measures = await this.published.all();
    const read = await this.currentOutcomesOver(
      await this.prepare(measures),
      months.map((m) => m.period),
      ids,
      large,
    );
    const missing = large ? read[0].evaluated : 0;
    if (missing)
      throw conflict(
        `The score by month of a panel over ${max.toLocaleString('en-US')} patients comes from a measure run, and ${missing.toLocaleString('en-US')} of ${ids.length.toLocaleString('en-US')} patients have no current result for these months: an administrator can run the measures with the trend (Settings, Measure runs)`,
      );
    const all = read.map((r) => r.outcomes);
    return {
      basis: 'rolling_12_months',
      through: months[months.length - 1].month,
      patients: ids.length,
      measures: measures.map((m, i) => ({
        id: m.id,
        identifier: m.identifier,
        title: m.title,
        improvement_notation: m.improvement_notation,
        points: months.map(({ month, period }, j) => {
          const s = measureSummary(m, all[j][i]);
          return { month, period, numerator: s.counts.numerator, eligible: s.eligible, score: s.score };
        }),
      })),
    };
  }

  /** One patient on every shipped measure: where they stand, and the resources that decided each population. */
  async panelPatient(id: string, period: { start: string; end: string }): Promise<PanelPatientJson> {
    const patient = await this.records.find('Patient', id);
    if (!patient) throw notFound(`Patient/${id}`);
    const record = (await this.records.recordsOf([id])).get(id) ?? [];
    const measures = await this.published.all();
    const all = await this.outcomes(measures, period, [id], 'evidence', new Map([[id, record]]));
    const p = patient.resource;
    const birth = typeof p.birthDate === 'string' ? p.birthDate : null;
    return {
      period,
      patient: {
        id,
        name: patientName(p, id),
        birth_date: birth,
        age: ageAt(birth, period.end),
        gender: typeof p.gender === 'string' ? p.gender : null,
      },
      measures: measures.map((m, i) => patientMeasure(m, all[i].get(id)!, record)),
      histories: patientHistories(record, Date.now()),
    };
  }

  /**
   * Each measure's outcome per patient, computed now (nothing stored): value sets resolved once, records read
   * in slices (or the records already read). `keep`: only the populations (a panel's counts), or everything
   * with the resources that decided it (one patient).
   */
  private async outcomes(
    measures: readonly ShippedMeasure[],
    period: { start: string; end: string },
    patients: readonly string[],
    keep: 'populations' | 'evidence',
    given?: ReadonlyMap<string, Record<string, unknown>[]>,
  ): Promise<Map<string, MeasureOutcome>[]> {
    const { prepared } = await this.prepare(measures);
    const now = Date.now();
    const out = measures.map(() => new Map<string, MeasureOutcome>());
    for await (const records of this.recordSlices(patients, given))
      for (const [patient, resources] of records)
        prepared.forEach((p, k) => {
          // Populations only: a patient outside the initial population is in none, so the rest of their record is not read.
          if (keep === 'populations')
            out[k].set(patient, {
              populations: p.evaluate(resources, period, now, undefined, { stopOutside: true }).populations,
              answers: {},
              inputs: {},
            });
          else out[k].set(patient, p.evaluate(resources, period, now));
        });
    return out;
  }

  /**
   * The measures prepared against the value sets loaded now, with each one's version. 409 when a value set
   * a measure names is not loaded.
   */
  async prepare(measures: readonly ShippedMeasure[]): Promise<MeasureSet> {
    await this.storeShippedValueSets();
    const urls = [...new Set(measures.flatMap(valueSetsOf))];
    const codes = await this.records.valueSetCodes(urls);
    const missing = urls.filter((u) => !codes.has(u));
    if (missing.length)
      throw conflict(
        `The measure's value sets are not loaded: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? '…' : ''}; load them with POST /api/fhir`,
      );
    return {
      measures,
      prepared: measures.map((m) => prepareMeasure(m.model, codes)),
      versions: new Map(measures.map((m) => [m.id, measureVersion(m, codes)])),
    };
  }

  /**
   * Each patient's outcome on each measure for the period: their stored result where it is current (same
   * measure version, same record stamp, nothing future-dated come due), else evaluated now and stored.
   */
  async currentOutcomes(set: MeasureSet, period: Period, patients: readonly string[]): Promise<PanelOutcomes> {
    return (await this.currentOutcomesOver(set, [period], patients))[0];
  }

  /**
   * As `currentOutcomes`, for several periods: the patients stale in any of them have their record read once
   * and evaluated for every period. `storedOnly`: evaluate nobody; the patients without a current result are
   * left out and counted in `evaluated` (the trend of a large panel, which a run must have stored).
   */
  async currentOutcomesOver(
    set: MeasureSet,
    periods: readonly Period[],
    patients: readonly string[],
    storedOnly = false,
  ): Promise<PanelOutcomes[]> {
    const out = periods.map(() => ({
      outcomes: set.measures.map(() => new Map<string, MeasureOutcome>()),
      bands: new Map<string, PanelHba1cBand>(),
    }));
    const index = new Map(set.measures.map((m, k) => [m.id, k]));
    for (const [j, period] of periods.entries())
      for (let i = 0; i < patients.length; i += STORED_SLICE)
        for (const r of await this.results.current(set.versions, period, patients.slice(i, i + STORED_SLICE))) {
          out[j].outcomes[index.get(r.measure_id)!].set(r.patient_id, { populations: r.populations, answers: r.answers, inputs: {} });
          if (r.hba1c_band) out[j].bands.set(r.patient_id, r.hba1c_band);
        }
    const stale = patients.filter((id) => out.some((p) => p.outcomes.some((o) => !o.has(id))));
    if (!storedOnly) {
      const fresh = await this.evaluateAndStore(set, periods, stale);
      fresh.forEach((f, j) => {
        f.outcomes.forEach((o, k) => o.forEach((v, id) => out[j].outcomes[k].set(id, v)));
        f.bands.forEach((b, id) => out[j].bands.set(id, b));
      });
    }
    // Keep the order the patients were asked in (a subject list lists them so).
    return out.map((p) => ({
      outcomes: p.outcomes.map((o) => new Map(patients.filter((id) => o.has(id)).map((id) => [id, o.get(id)!]))),
      bands: p.bands,
      evaluated: stale.length,
    }));
  }

  /** The patients among these whose stored result on any of the measures, in any of the periods, is missing or stale. */
  async staleAmong(set: MeasureSet, periods: readonly Period[], patients: readonly string[]): Promise<string[]> {
    const current = new Map<string, number>();
    for (const period of periods)
      for (const r of await this.results.current(set.versions, period, patients))
        current.set(r.patient_id, (current.get(r.patient_id) ?? 0) + 1);
    return patients.filter((id) => (current.get(id) ?? 0) < set.measures.length * periods.length);
  }

  /**
   * Evaluates these patients on the measures for each period and stores each result with the record stamp
   * read before their record (a write in between leaves the result stale, never wrongly current).
   */
  async evaluateAndStore(set: MeasureSet, periods: readonly Period[], patients: readonly string[]): Promise<PanelOutcomes[]> {
    const out = periods.map(() => ({
      outcomes: set.measures.map(() => new Map<string, MeasureOutcome>()),
      bands: new Map<string, PanelHba1cBand>(),
      evaluated: patients.length,
    }));
    const cms122 = set.measures.findIndex((m) => m.id === CMS122.id);
    for (let i = 0; i < patients.length; i += STORED_SLICE) {
      const ids = patients.slice(i, i + STORED_SLICE);
      const stamps = await this.results.stamps(ids);
      const rows: ResultRow[][] = periods.map(() => []);
      for await (const records of this.recordSlices(ids)) {
        const now = Date.now();
        for (const [patient, resources] of records)
          periods.forEach((period, j) => {
            const band = cms122 >= 0 ? hba1cBand(resources, period, now) : null;
            if (band) out[j].bands.set(patient, band);
            set.prepared.forEach((p, k) => {
              // Outside the initial population a patient is in no population whatever the rest of the record says,
              // and the inputs read (the initial population's) carry every future-dated entry that could change that.
              const o = p.evaluate(resources, period, now, undefined, { stopOutside: true });
              // The gap list words a reason from the answers: kept for the patients a measure can list.
              const answers = o.populations.denominator === false ? {} : o.answers;
              out[j].outcomes[k].set(patient, { populations: o.populations, answers, inputs: {} });
              const due = Object.values(o.inputs).flatMap((r) => r.future.map((f) => f.at).filter((at) => Number.isFinite(at)));
              rows[j].push({
                measure_id: set.measures[k].id,
                measure_version: set.versions.get(set.measures[k].id)!,
                patient_id: patient,
                record_stamp: stamps.get(patient) ?? '0',
                valid_until: due.length ? Math.min(...due) : null,
                populations: o.populations,
                answers,
                hba1c_band: k === cms122 ? band : null,
              });
            });
          });
      }
      for (const [j, period] of periods.entries()) await this.results.store(period, rows[j]);
    }
    return out;
  }

  /** Results of other versions of these measures for the period, dropped once a run stored the current ones. */
  async dropOtherVersions(set: MeasureSet, periods: readonly Period[]): Promise<void> {
    for (const period of periods) await this.results.dropOtherVersions(set.versions, period);
  }

  /**
   * The records of these patients, SLICE at a time: the next slice is read while this one is evaluated
   * (PostgreSQL works on one core while the engine uses the other). `given`: records already read.
   */
  async *recordSlices(
    patients: readonly string[],
    given?: ReadonlyMap<string, Record<string, unknown>[]>,
  ): AsyncGenerator<ReadonlyMap<string, Record<string, unknown>[]>> {
    const read = (i: number) => {
      if (i >= patients.length) return null;
      if (given) return Promise.resolve(given);
      const pending = this.records.recordsOf(patients.slice(i, i + SLICE));
      pending.catch(() => undefined); // awaited below; never an unhandled rejection while a slice is evaluated
      return pending;
    };
    let next = read(0);
    for (let i = 0; i < patients.length; i += SLICE) {
      const records = (await next)!;
      next = read(i + SLICE);
      yield records;
    }
  }

  /** One measure as published now (the shipped definition, or the local version an administrator published). */
  measure(id: string): Promise<ShippedMeasure> {
    return this.published.one(id);
  }

  /** These measures as published now, from one read of which versions are published. */
  measuresOf(ids: readonly string[]): Promise<ShippedMeasure[]> {
    return this.published.some(ids);
  }

  /** The patients a report is about: one Patient, a Group's members, or every patient with records. */
  private async subjects(subject: string | undefined): Promise<string[]> {
    if (!subject) return this.records.patientIds();
    const [type, id] = subject.split('/');
    if (type === 'Patient') {
      if (!(await this.records.find('Patient', id))) throw notFound(`Patient/${id}`);
      return [id];
    }
    const group = await this.records.find('Group', id);
    if (!group) throw notFound(`Group/${id}`);
    const members = Array.isArray(group.resource.member) ? (group.resource.member as { entity?: { reference?: unknown } }[]) : [];
    return [
      ...new Set(
        members
          .map((m) => String(m.entity?.reference ?? ''))
          .filter((r) => r.startsWith('Patient/'))
          .map((r) => r.slice(8)),
      ),
    ];
  }

  /** The shipped value sets, stored once per process where missing (never over an administrator's newer expansion). */
  private storeShippedValueSets(): Promise<void> {
    this.valueSetsStored ??= this.records
      .insertMissing(shippedValueSets().map((v) => ({ resource_type: 'ValueSet', id: String(v.id), patient_id: null, resource: v })))
      .then(() => undefined)
      .catch((e: unknown) => {
        this.valueSetsStored = null;
        throw e;
      });
    return this.valueSetsStored;
  }
}
