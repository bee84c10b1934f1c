import { Inject, Injectable } from '@nestjs/common';
import type { FhirResourceJson } from '@cds/contracts';
import { isAnyOf, prepareMeasure, toDay, type CriterionSpec, type MeasureOutcome } from '@cds/engine';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { conflict, notFound, validationFailed, type FieldError } from '../../common/errors';
import { RecordsRepository } from '../records';
import { measureReport, measureResource } from './measure-report';
import type { ShippedMeasure } from './measure-content';
import { SHIPPED_MEASURES } from './shipped-measures';
import { shippedValueSets } from '../records';

/** `$evaluate-measure`'s parameters, as the query (or a Parameters body) gives them. */
export interface EvaluateMeasureParams {
  periodStart?: unknown;
  periodEnd?: unknown;
  reportType?: unknown;
  subject?: unknown;
}

const REPORT_TYPES = ['subject', 'subject-list', 'population'];
/** Patients evaluated per database read: a panel is read in slices, never all at once. */
const SLICE = 500;

/** The value set URLs a measure's criteria name. */
export function valueSetsOf(m: ShippedMeasure): string[] {
  const urls = new Set<string>();
  for (const p of m.model.parameters) {
    const spec = (p.validation_rules as { criterion?: CriterionSpec } | undefined)?.criterion;
    if (!spec) continue;
    for (const c of isAnyOf(spec) ? spec.any_of : [spec])
      for (const url of [...(c.value_sets ?? []), ...(c.has_code?.value_sets ?? [])]) urls.add(url);
  }
  return [...urls].sort();
}

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
    const [outcomes] = await this.outcomes([measure], period, patients, patients.length === 1);
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
    const all = await this.outcomes(measures, period, await this.records.patientIds(), false);
    return measures.map((measure, i) =>
      measureReport({ base: this.config.publicUrl, measure, period, type: 'summary', outcomes: all[i], now: new Date() }),
    );
  }

  /** Each measure's outcome per patient: value sets resolved once, records read in slices. */
  private async outcomes(
    measures: readonly ShippedMeasure[],
    period: { start: string; end: string },
    patients: readonly string[],
    keepEvidence: boolean,
  ): Promise<Map<string, MeasureOutcome>[]> {
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
    const out = measures.map(() => new Map<string, MeasureOutcome>());
    // The next slice is read while this one is evaluated: PostgreSQL works on one core while the engine uses the other.
    const read = (i: number) => {
      if (i >= patients.length) return null;
      const pending = this.records.recordsOf(patients.slice(i, i + SLICE));
      pending.catch(() => undefined); // awaited below; never an unhandled rejection while a slice is evaluated
      return pending;
    };
    let next = read(0);
    for (let i = 0; i < patients.length; i += SLICE) {
      const records = (await next)!;
      next = read(i + SLICE);
      for (const [patient, resources] of records)
        prepared.forEach((p, k) => {
          const o = p.evaluate(resources, period, now);
          out[k].set(patient, keepEvidence ? o : { populations: o.populations, answers: {}, inputs: {} });
        });
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

function readParams(p: EvaluateMeasureParams): { period: { start: string; end: string }; reportType?: string; subject?: string } {
  const problems: FieldError[] = [];
  const date = (field: 'periodStart' | 'periodEnd') => {
    const v = p[field];
    if (typeof v !== 'string' || !DATE.test(v) || Number.isNaN(toDay(v)))
      problems.push({ field, message: `${field} must be a date (YYYY-MM-DD)` });
    return String(v);
  };
  const start = date('periodStart');
  const end = date('periodEnd');
  if (!problems.length && start > end) problems.push({ field: 'periodEnd', message: 'periodEnd must not be before periodStart' });
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
