import { Injectable } from '@nestjs/common';
import { CDS_PREFILL_PARAM, type CdsPrefillValue, type PanelPrefillJson } from '@cds/contracts';
import { notFound } from '../../common/errors';
import { nameOfPatient, RecordsRepository } from '../records';
import type { ParameterHistorySnapshot } from '../assessments';
import { ageOn, sexAnswer } from './demographics';
import { HookSnapshots } from './hook-snapshot';
import { historyOf, readParameter, type NoValue, type ObservedValue } from './observations';
import { cutPointsOf, historySnapshot } from './record-context';
import { implausiblePressures, prefillOf } from './answer-details';
import { needsOf } from './record-needs';
import { PrefillTickets, RECORD_STORE_ISSUER } from './prefill-tickets';

/**
 * "Start assessment" from the Panel (issue 21): the stored record's latest values for the published
 * rules' LOINC-coded parameters, read exactly as a patient-view hook call reads an EHR's (the latest
 * usable, non-future result within the parameter's lookback; age and sex from the Patient), behind
 * the same one-time prefill ticket a CDS card link carries. The form offers each value; the
 * clinician confirms it. The ticket also keeps who the patient is and each parameter's results, for
 * the assessment started with them (its case detail plots them).
 */
@Injectable()
export class RecordPrefill {
  constructor(
    private readonly snapshots: HookSnapshots,
    private readonly records: RecordsRepository,
    private readonly tickets: PrefillTickets,
  ) {}

  async forPatient(patientId: string, userId: string): Promise<PanelPrefillJson> {
    const patient = await this.records.find('Patient', patientId);
    if (!patient) throw notFound(`Patient/${patientId}`);
    const { knowledge: k, loincCodes } = await this.snapshots.current();
    const { measured, demographics } = needsOf(k, loincCodes);
    const record = (await this.records.recordsOf([patientId])).get(patientId) ?? [];
    const observations = record.filter((r) => r.resourceType === 'Observation');
    const now = new Date();
    const observed = new Map<string, ObservedValue>();
    const missing = new Map<string, NoValue>();
    const histories = new Map<string, ParameterHistorySnapshot | null>();
    for (const m of measured) {
      const { outcome } = readParameter(observations, m.parameter, m.loinc, now);
      if ('value' in outcome) observed.set(m.parameter.id, outcome);
      histories.set(m.parameter.id, historyOf(observations, m.parameter, m.loinc, now, cutPointsOf(k, m.parameter)));
    }
    // A diastolic at or above the systolic is an error of the record: neither is offered.
    implausiblePressures(measured, observed, missing);
    const values: CdsPrefillValue[] = [];
    for (const p of k.parameters) {
      const v = observed.get(p.id);
      // A result with a comparator ("< 15") has no single number to prefill; the form asks for it.
      if (v && typeof v.value === 'number') values.push(prefillOf(p, v.entered_value, v.unit, v.at.toISOString(), 'observation'));
      const d = demographics.find((x) => x.parameter.id === p.id);
      if (!d || v) continue;
      const given = d.kind === 'age' ? ageOn(patient.resource, now) : sexAnswer(patient.resource, p, k.rules, k.parameters);
      if (given !== null) values.push(prefillOf(p, given, typeof given === 'number' ? (p.units ?? null) : null, null, 'patient'));
    }
    const ticket = await this.tickets.issue(`${RECORD_STORE_ISSUER}${userId}`, values, {
      patient: { source: 'record', reference: `Patient/${patientId}`, name: nameOfPatient(patient.resource) },
      history: historySnapshot(k, histories, now),
    });
    return { url: `/clinical-form?${CDS_PREFILL_PARAM}=${ticket}`, values: values.length };
  }
}
