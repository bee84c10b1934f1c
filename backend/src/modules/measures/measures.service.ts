import { Inject, Injectable } from '@nestjs/common';
import type { FhirResourceJson, PanelGapJson, PanelHba1cBand, PanelJson, PanelPatientJson, PanelTrendJson } from '@cds/contracts';
import { prepareMeasure, toDay, type MeasureOutcome } from '@cds/engine';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { conflict, notFound, validationFailed, type FieldError } from '../../common/errors';
import { PLAUSIBLE_YEARS } from '../../common/dates';
import { RecordsRepository } from '../records';
import { measureReport, measureResource } from './measure-report';
import { valueSetsOf, type ShippedMeasure } from './measure-content';
import { SHIPPED_MEASURES } from './shipped-measures';
import { ageAt, gapRows, measureSummary, patientMeasure, patientName } from './panel';
import { patientHistories } from './patient-histories';
import { hba1cBand, hba1cDistribution } from './hba1c-distribution';
import { CMS122 } from './cms122';
import { shippedValueSets } from '../records';

/** `$evaluate-measure`'s parameters, as the query (or a Parameters body) gives them. */
export interface EvaluateMeasureParams {
  periodStart?: unknown;
  periodEnd?: unknown;
  reportType?: unknown;
  subject?: unknown;
}

const REPORT_TYPES = ['subject', 'subject-list', 'population'];
/**
 * The largest panel whose trend is computed on request. Each record is read once and evaluated for the
 * 12 periods: measured (panel-bench, 2,000 generated patients, 2 cores shared with a CI run) 8.9 s,
 * 5.7 × the one-period Panel (1.6 s). Larger panels need the monthly points stored (not built yet).
 */
export const TREND_MAX_PATIENTS = 2_000;
/** Patients evaluated per database read: a panel is read in slices, never all at once. */
const SLICE = 500;

/**
 * Quality measures over the stored records (issue 21): each shipped measure's criteria and
 * population rules, evaluated by the engine for one patient, a Group or the whole panel.
 */
@Injectable()
export class MeasuresService {
  private valueSetsStored: Promise<void> | null = null;

  constructor(
    private readonly records: RecordsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  list(): FhirResourceJson {
    return {
      resourceType: 'Bundle',
      type: 'searchset',
      total: SHIPPED_MEASURES.length,
      entry: SHIPPED_MEASURES.map((m) => ({
        fullUrl: `${this.config.publicUrl}/api/fhir/Measure/${m.id}`,
        resource: measureResource(this.config.publicUrl, m),
      })),
    };
  }

  get(id: string): FhirResourceJson {
    return measureResource(this.config.publicUrl, this.measure(id));
  }

  async evaluate(id: string, params: EvaluateMeasureParams): Promise<FhirResourceJson> {
    const measure = this.measure(id);
    const { period, reportType, subject } = readParams(params);
    const patients = await this.subjects(subject);
    // An individual report names the resources that decided it; a panel's keeps only each patient's populations.
    const [outcomes] = await this.outcomes([measure], period, patients, patients.length === 1 ? 'evidence' : 'populations');
    const individual = subject?.startsWith('Patient/') && reportType !== 'subject-list' && reportType !== 'population';
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

  /** Summary reports of several measures over the whole panel, each patient's record read once for all of them. */
  async panelSummaries(ids: readonly string[], period: { start: string; end: string }): Promise<FhirResourceJson[]> {
    const measures = ids.map((id) => this.measure(id));
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
  async panel(query: Record<string, unknown>): Promise<PanelJson> {
    const period = readPanelPeriod(query);
    const ids = await this.records.patientIds();
    const now = Date.now();
    const bands = new Map<string, PanelHba1cBand>();
    const all = await this.outcomes(SHIPPED_MEASURES, period, ids, 'answers', undefined, (id, record) =>
      bands.set(id, hba1cBand(record, period, now)),
    );
    const cms122 = SHIPPED_MEASURES.indexOf(CMS122);
    const denominator = [...all[cms122]].filter(([, o]) => o.populations.denominator === true).map(([id]) => bands.get(id) ?? 'no_result');
    const rows = SHIPPED_MEASURES.flatMap((m, i) => gapRows(m, all[i]));
    const patients = await this.records.patients([...new Set(rows.map((r) => r.patient_id))]);
    const gaps: PanelGapJson[] = rows.map((r) => {
      const p = patients.get(r.patient_id);
      const birth = typeof p?.birthDate === 'string' ? p.birthDate : null;
      return { ...r, name: patientName(p, r.patient_id), birth_date: birth, age: ageAt(birth, period.end) };
    });
    return {
      period,
      patients: ids.length,
      measures: SHIPPED_MEASURES.map((m, i) => measureSummary(m, all[i])),
      gaps,
      hba1c_distribution: hba1cDistribution(CMS122, denominator),
    };
  }

  /**
   * Each shipped measure's score at the end of each of the last 12 months (through `today`'s month),
   * each over the 12 months ending that month. Computed per request, each record read once for the 12
   * periods; refused above TREND_MAX_PATIENTS, where it would hold a request for minutes.
   */
  async panelTrend(query: Record<string, unknown>, today = new Date()): Promise<PanelTrendJson> {
    const problems: FieldError[] = Object.keys(query).map((key) => ({ field: key, message: `${key} is not a parameter of the trend` }));
    if (problems.length) throw validationFailed(problems);
    const ids = await this.records.patientIds();
    if (ids.length > TREND_MAX_PATIENTS)
      throw conflict(`The trend is computed on request for panels of up to ${TREND_MAX_PATIENTS} patients; this panel has ${ids.length}`);
    const months = trendMonths(today);
    const all = await this.outcomesOver(
      SHIPPED_MEASURES,
      months.map((m) => m.period),
      ids,
      'populations',
    );
    return {
      basis: 'rolling_12_months',
      through: months[months.length - 1].month,
      patients: ids.length,
      measures: SHIPPED_MEASURES.map((m, i) => ({
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
  async panelPatient(id: string, query: Record<string, unknown>): Promise<PanelPatientJson> {
    const period = readPanelPeriod(query);
    const patient = await this.records.find('Patient', id);
    if (!patient) throw notFound(`Patient/${id}`);
    const record = (await this.records.recordsOf([id])).get(id) ?? [];
    const all = await this.outcomes(SHIPPED_MEASURES, period, [id], 'evidence', new Map([[id, record]]));
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
      measures: SHIPPED_MEASURES.map((m, i) => patientMeasure(m, all[i].get(id)!, record)),
      histories: patientHistories(record, Date.now()),
    };
  }

  /**
   * Each measure's outcome per patient: value sets resolved once, records read in slices (or the
   * records already read). `keep`: only the populations (a panel's counts), the answers too (the gap
   * list's reasons), or everything with the resources that decided it (one patient).
   */
  private async outcomes(
    measures: readonly ShippedMeasure[],
    period: { start: string; end: string },
    patients: readonly string[],
    keep: 'populations' | 'answers' | 'evidence',
    given?: ReadonlyMap<string, Record<string, unknown>[]>,
    each?: (patient: string, record: Record<string, unknown>[]) => void,
  ): Promise<Map<string, MeasureOutcome>[]> {
    return (await this.outcomesOver(measures, [period], patients, keep, given, each))[0];
  }

  /** As `outcomes`, for several periods: each patient's record read once, evaluated for every period. Indexed [period][measure]. */
  private async outcomesOver(
    measures: readonly ShippedMeasure[],
    periods: readonly { start: string; end: string }[],
    patients: readonly string[],
    keep: 'populations' | 'answers' | 'evidence',
    given?: ReadonlyMap<string, Record<string, unknown>[]>,
    each?: (patient: string, record: Record<string, unknown>[]) => void,
  ): Promise<Map<string, MeasureOutcome>[][]> {
    await this.storeShippedValueSets();
    const urls = [...new Set(measures.flatMap(valueSetsOf))];
    const codes = await this.records.valueSetCodes(urls);
    const missing = urls.filter((u) => !codes.has(u));
    if (missing.length)
      throw conflict(
        `The measure's value sets are not loaded: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? '…' : ''}; load them with POST /api/fhir`,
      );
    const prepared = measures.map((m) => prepareMeasure(m.model, codes));
    const now = Date.now();
    const out = periods.map(() => measures.map(() => new Map<string, MeasureOutcome>()));
    // The next slice is read while this one is evaluated: PostgreSQL works on one core while the engine uses the other.
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
      for (const [patient, resources] of records) {
        each?.(patient, resources);
        periods.forEach((period, j) =>
          prepared.forEach((p, k) => {
            const o = p.evaluate(resources, period, now);
            out[j][k].set(
              patient,
              keep === 'evidence' ? o : { populations: o.populations, answers: keep === 'answers' ? o.answers : {}, inputs: {} },
            );
          }),
        );
      }
    }
    return out;
  }

  private measure(id: string): ShippedMeasure {
    const m = SHIPPED_MEASURES.find((x) => x.id === id);
    if (!m) throw notFound('Measure');
    return m;
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

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const REFERENCE = /^(Patient|Group)\/[A-Za-z0-9.-]{1,255}$/;

/** periodStart and periodEnd, both strict dates (a real calendar day) with the start not after the end. */
function readPeriod(p: { periodStart?: unknown; periodEnd?: unknown }, problems: FieldError[]): { start: string; end: string } {
  const date = (field: 'periodStart' | 'periodEnd') => {
    const v = p[field];
    if (typeof v !== 'string' || !DATE.test(v) || Number.isNaN(toDay(v)) || !PLAUSIBLE(v))
      problems.push({ field, message: `${field} must be a date (YYYY-MM-DD)` });
    return String(v);
  };
  const start = date('periodStart');
  const end = date('periodEnd');
  if (!problems.length && start > end) problems.push({ field: 'periodEnd', message: 'periodEnd must not be before periodStart' });
  return { start, end };
}

const PLAUSIBLE = (day: string) => {
  const y = Number(day.slice(0, 4));
  return y >= PLAUSIBLE_YEARS.min && y <= PLAUSIBLE_YEARS.max;
};

/** The last 12 months through `today`'s month, oldest first, each with the 12-month period ending on its last day. */
export function trendMonths(today: Date): { month: string; period: { start: string; end: string } }[] {
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  return Array.from({ length: 12 }, (_, k) => {
    const y = today.getUTCFullYear();
    const m = today.getUTCMonth() - 11 + k;
    const end = new Date(Date.UTC(y, m + 1, 0)); // the month's last day
    const start = new Date(Date.UTC(y, m - 11, 1));
    return { month: iso(end).slice(0, 7), period: { start: iso(start), end: iso(end) } };
  });
}

/** The Panel's period: periodStart and periodEnd, or the current calendar year when neither is given; nothing else. */
export function readPanelPeriod(query: Record<string, unknown>, today = new Date()): { start: string; end: string } {
  const problems: FieldError[] = [];
  for (const key of Object.keys(query))
    if (key !== 'periodStart' && key !== 'periodEnd') problems.push({ field: key, message: `${key} is not a parameter of the panel` });
  const year = today.getUTCFullYear();
  const given = query.periodStart !== undefined || query.periodEnd !== undefined;
  const period = given ? readPeriod(query, problems) : { start: `${year}-01-01`, end: `${year}-12-31` };
  if (problems.length) throw validationFailed(problems);
  return period;
}

function readParams(p: EvaluateMeasureParams): { period: { start: string; end: string }; reportType?: string; subject?: string } {
  const problems: FieldError[] = [];
  const { start, end } = readPeriod(p, problems);
  const reportType = p.reportType;
  if (reportType !== undefined && (typeof reportType !== 'string' || !REPORT_TYPES.includes(reportType)))
    problems.push({ field: 'reportType', message: `reportType must be one of ${REPORT_TYPES.join(', ')}` });
  const subject = p.subject;
  if (subject !== undefined && (typeof subject !== 'string' || !REFERENCE.test(subject)))
    problems.push({ field: 'subject', message: 'subject must be Patient/<id> or Group/<id>' });
  if (reportType === 'subject' && !(typeof subject === 'string' && subject.startsWith('Patient/')))
    problems.push({ field: 'subject', message: 'reportType subject needs a Patient/<id> subject' });
  if (problems.length) throw validationFailed(problems);
  return { period: { start, end }, reportType: reportType as string | undefined, subject: subject as string | undefined };
}

/** The parameters of a POST: the query's, then any a FHIR Parameters body names (valueDate, valueString, valueCode, valueReference). */
export function paramsOf(query: Record<string, unknown>, body: unknown): EvaluateMeasureParams {
  const out: Record<string, unknown> = { ...query };
  const list =
    typeof body === 'object' && body !== null && (body as { resourceType?: unknown }).resourceType === 'Parameters'
      ? (body as { parameter?: unknown }).parameter
      : undefined;
  for (const item of Array.isArray(list) ? list : []) {
    if (typeof item !== 'object' || item === null) continue;
    const { name, valueDate, valueString, valueCode, valueReference } = item as Record<string, unknown>;
    if (typeof name !== 'string' || !['periodStart', 'periodEnd', 'reportType', 'subject'].includes(name)) continue;
    out[name] = valueDate ?? valueString ?? valueCode ?? (valueReference as { reference?: unknown } | undefined)?.reference;
  }
  return out;
}
