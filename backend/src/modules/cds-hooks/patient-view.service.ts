import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  CDS_PREFILL_PARAM,
  type AnswerDetailJson,
  type BasisJson,
  type CdsCardJson,
  type CdsHookResponseJson,
  type CdsPrefillValue,
  type CdsServiceJson,
  type FindingJson,
  type UndeterminedRuleJson,
} from '@cds/contracts';
import {
  clinicalStep,
  OPERATOR_SYMBOL,
  readInterval,
  searchKey,
  unitDisplay,
  type Answers,
  type EngineParameter,
  type RangeAnswer,
} from '@cds/engine';
import { DomainError } from '../../common/errors';
import { formatNumber } from '../assessments';
import { enteredOf, toResult } from '../assessments';
import type { Knowledge } from '../assessments';
import { ClientJwtVerifier, ReplayedJwt, type VerifiedClientJwt } from './client-jwt';
import { parsePatientViewRequest, type PatientViewRequest } from './hook-request';
import { HookSnapshots, StaleSnapshot, type HookSnapshot } from './hook-snapshot';
import { ageOn, demographicOf, sexAnswer, type Demographic } from './demographics';
import {
  bundleResources,
  checkSubjects,
  hasNextPage,
  givenText,
  LOINC,
  readParameter,
  searchCodes,
  type NoValue,
  type ObservedValue,
} from './observations';
import { PrefillTickets } from './prefill.service';
import { ValueSets } from '../records';
import { historyInputOf, historyQuery, readHistoryInput, valueSetsOf, type HistoryInput, type HistoryReading } from './record-history';

export const PATIENT_VIEW = 'patient-view';
const PATIENT_KEY = 'patient';
/** A FHIR server's answer for one search is bounded in time and size; over either, that input is set aside, not the call. */
const FETCH_TIMEOUT_MS = 5000;
const FETCH_MAX_BYTES = 2 * 1024 * 1024;
/**
 * Results asked per code: the latest valid result may sit behind future-dated, unreadable or
 * (from a server that ignores the status filter) invalid ones; ten keeps that likely while bounding
 * the cost of a call. The longest history the published rules need today is the latest value.
 */
export const HISTORY_COUNT = 10;
/** The statuses that count, asked of the server too (and checked again here, whatever it sends). */
const STATUS_FILTER = 'final,amended,corrected';
/** The LOINC codes of the two blood pressures, checked against each other (a diastolic at or above the systolic is an error of the record). */
const SYSTOLIC = '8480-6';
const DIASTOLIC = '8462-4';
/** Evaluations of one call on successive copies, when publishes keep landing during it. */
const MAX_ATTEMPTS = 4;
/** Refusals a stale copy can cause (a client just registered or re-keyed, a FHIR server just allowed): checked again on a fresh one. */
const REFUSALS = new Set(['invalid_client_jwt', 'fhir_server_not_allowed']);
const SUMMARY_MAX = 140;

/** One prefetch key per search: parameters whose codes are one measure (NGSP and IFCC HbA1c) share it. */
export const observationKey = (loinc: string) => `obs-${searchKey(loinc)}`;

/** A fetch from the EHR's FHIR server that gave no data for one key: only the inputs it carries are set aside. */
class FetchFailed extends Error {}

/** What the EHR sent is its request (a wrong shape or patient is 400); what its server answered is one input, set aside. */
function fetchFailure(e: unknown, fromServer: boolean): FetchFailed | null {
  if (e instanceof FetchFailed) return e;
  if (fromServer && e instanceof DomainError && e.code === 'invalid_prefetch')
    return new FetchFailed(`the FHIR server's answer is unusable (${e.message.replace(/^prefetch\.[^:]*: /, '')})`);
  return null;
}

/** A service id this app does not offer (404): said only to a verified client. */
export const unknownService = (id: string) =>
  new DomainError('unknown_service', `No CDS service ${id.slice(0, 100)}; see GET /api/cds-services`);

/** Who called: the verified client, and what it may name as fhirServer. */
export interface HookCaller {
  issuer: string;
  allowed_fhir_servers: readonly string[];
}

/** A measured parameter the hook can fill from an Observation. */
export interface Measured {
  parameter: EngineParameter;
  loinc: string;
}

/** What the published rules need from the record: Observations by LOINC code, and age or sex from the Patient. */
interface Needs {
  measured: Measured[];
  /** Parameters bound to the record by a criterion: read from the patient's history, one search per list of codes. */
  histories: HistoryInput[];
  demographics: { parameter: EngineParameter; kind: Demographic }[];
}

type Json = Record<string, unknown>;

/**
 * The patient-view service: the latest Observation per LOINC code becomes an answer (in the
 * parameter's unit), then every active published rule set is evaluated as one assessment would be,
 * and each fired rule becomes a card.
 */
@Injectable()
export class PatientViewService {
  constructor(
    private readonly snapshots: HookSnapshots,
    private readonly jwt: ClientJwtVerifier,
    private readonly prefill: PrefillTickets,
    private readonly valueSets: ValueSets,
  ) {}

  /** The discovery entry: prefetch templates for every LOINC code the published rules use. */
  async describe(): Promise<CdsServiceJson> {
    const { knowledge: k, loincCodes } = await this.snapshots.fresh();
    const { measured, histories } = needsOf(k, loincCodes);
    const prefetch: Record<string, string> = { [PATIENT_KEY]: 'Patient/{{context.patientId}}' };
    for (const m of measured) prefetch[observationKey(m.loinc)] ??= observationQuery('{{context.patientId}}', m.loinc);
    for (const h of histories) prefetch[h.search.key] ??= historyQuery('{{context.patientId}}', h.search);
    return {
      hook: PATIENT_VIEW,
      id: PATIENT_VIEW,
      title: 'Diabetes decision support',
      description:
        'Evaluates the published diabetes rule sets against the latest HbA1c, glucose, blood pressure, BMI and albuminuria Observations, and returns one card per finding.',
      prefetch,
    };
  }

  /**
   * A call of service `serviceId` (checked after the client, so an unregistered caller learns nothing):
   * the client JWT is verified, the body read, and the cards returned. `audience` is the service URL at each of the server's own origins;
   * `appUrl` is this app's public base URL: card links open `${appUrl}/clinical-form` with a one-time
   * prefill ticket.
   *
   * The call runs on this process's copy of clients and published versions; the statement that records
   * it checks the copy is still current, else the call is evaluated again on a fresh copy. So no card
   * comes from a rule, version or client changed before the call was recorded, and a hook call costs
   * one statement.
   */
  async call(
    authorization: string | undefined,
    serviceId: string,
    audience: string | string[],
    body: unknown,
    appUrl: string,
  ): Promise<CdsHookResponseJson> {
    let snapshot = await this.snapshots.current();
    let fresh = false;
    for (let attempt = 1; ; attempt++) {
      let caller: VerifiedClientJwt | undefined;
      try {
        caller = await this.jwt.verify(authorization, serviceId, audience, (iss) => snapshot.clients.get(iss) ?? null);
        if (serviceId !== PATIENT_VIEW) throw unknownService(serviceId);
        return await this.evaluate(parsePatientViewRequest(body, PATIENT_VIEW), caller, appUrl, snapshot, fresh);
      } catch (e) {
        if (e instanceof ReplayedJwt) throw e;
        const again = e instanceof StaleSnapshot || (!fresh && e instanceof DomainError && REFUSALS.has(e.code));
        if (again && attempt < MAX_ATTEMPTS) {
          snapshot = await this.snapshots.refreshed(snapshot);
          fresh = true;
          continue;
        }
        // Nothing was decided: the token stays unspent, so the EHR may send the same call again.
        if (again) throw new DomainError('service_unavailable', 'The published rules kept changing during this call; call again');
        // A verified token is spent even when its call fails, and a replayed one is refused as such, whatever its body.
        if (caller) await this.jwt.record(caller);
        throw e;
      }
    }
  }

  /** The cards for one call, on `snapshot` (`fresh`: read during this call); recorded with the call. */
  private async evaluate(
    req: PatientViewRequest,
    caller: VerifiedClientJwt,
    appUrl: string,
    snapshot: HookSnapshot,
    fresh: boolean,
  ): Promise<CdsHookResponseJson> {
    // Checked before anything is fetched: we call only FHIR servers the administrator registered for this client.
    if (req.fhirServer && !caller.allowed_fhir_servers.includes(req.fhirServer)) {
      const message = `fhirServer ${req.fhirServer.slice(0, 200)} is not one of this CDS client's allowed FHIR servers`;
      throw new DomainError('fhir_server_not_allowed', message, [{ field: 'fhirServer', message }]);
    }
    const now = new Date();
    const { knowledge: k, loincCodes } = snapshot;
    const { measured, histories, demographics } = needsOf(k, loincCodes);
    const patientId = req.context.patientId;
    const observed = new Map<string, ObservedValue>();
    const missing = new Map<string, NoValue>();
    /** What the info card lists: values set aside, inputs not fetched, results dated in the future. */
    const setAside: string[] = [];
    const future: string[] = [];
    const fetches = { tried: 0, failed: [] as FetchFailed[] };
    // One fetch per search key, however many parameters read it.
    const searches = new Map<string, Measured[]>();
    for (const m of measured) searches.set(observationKey(m.loinc), [...(searches.get(observationKey(m.loinc)) ?? []), m]);
    // Each search's notes are kept in its own slot, so the info card lists them in one order whatever answers first.
    const notes = await Promise.all(
      [...searches].map(async ([key, group]) => {
        const out = { setAside: [] as string[], future: [] as { id: string | null; text: string }[] };
        const fromServer = !(key in req.prefetch);
        let resources: Json[];
        try {
          if (fromServer) fetches.tried++;
          resources = bundleResources(
            key,
            await this.prefetched(req, key, observationQuery(patientId, group[0].loinc), fresh),
            'Observation',
          );
          checkSubjects(key, resources, patientId);
        } catch (e) {
          const failed = fetchFailure(e, fromServer);
          if (!failed) throw e;
          fetches.failed.push(failed);
          const names = group.map((m) => m.parameter.display_name || m.parameter.name).join(', ');
          out.setAside.push(`${names} not read: ${failed.message}`);
          for (const m of group) missing.set(m.parameter.id, { reason: 'set_aside', text: failed.message });
          return out;
        }
        for (const m of group) {
          const { outcome, future: later } = readParameter(resources, m.parameter, m.loinc, now);
          out.future.push(...later);
          if ('value' in outcome) observed.set(m.parameter.id, outcome);
          else {
            missing.set(m.parameter.id, outcome);
            if (outcome.reason === 'set_aside') out.setAside.push(outcome.text!);
          }
        }
        return out;
      }),
    );
    // Parameters read from the patient's history by a criterion: one search per list of codes, fail-soft like the others.
    const historyAnswers = new Map<string, HistoryReading>();
    const searchesOfHistory = new Map<string, HistoryInput[]>();
    for (const h of histories) searchesOfHistory.set(h.search.key, [...(searchesOfHistory.get(h.search.key) ?? []), h]);
    const wantedValueSets = valueSetsOf(histories);
    const valueSets = wantedValueSets.length ? await this.valueSets.codes(wantedValueSets) : new Map<string, readonly string[]>();
    const historyNotes = await Promise.all(
      [...searchesOfHistory].map(async ([key, group]) => {
        const out = { setAside: [] as string[], future: [] as { id: string | null; text: string }[] };
        const fromServer = !(key in req.prefetch);
        let resources: Json[];
        let truncated: boolean;
        try {
          if (fromServer) fetches.tried++;
          const search = group[0].search;
          const bundle = await this.prefetched(req, key, historyQuery(patientId, search), fresh);
          resources = bundleResources(key, bundle, search.resourceType);
          truncated = hasNextPage(bundle);
          checkSubjects(key, resources, patientId);
        } catch (e) {
          const failed = fetchFailure(e, fromServer);
          if (!failed) throw e;
          fetches.failed.push(failed);
          out.setAside.push(`${group.map((h) => h.parameter.display_name || h.parameter.name).join(', ')} not read: ${failed.message}`);
          for (const h of group) missing.set(h.parameter.id, { reason: 'set_aside', text: failed.message });
          return out;
        }
        for (const h of group) {
          const reading = readHistoryInput(resources, h, now, valueSets, truncated);
          historyAnswers.set(h.parameter.id, reading);
          out.setAside.push(...reading.setAside);
          out.future.push(...reading.future);
          if (reading.answer === 'unknown')
            missing.set(
              h.parameter.id,
              reading.setAside.length ? { reason: 'set_aside', text: reading.setAside[0] } : { reason: 'no_observation' },
            );
        }
        return out;
      }),
    );
    const listed = new Set<string>();
    for (const n of [...notes, ...historyNotes]) {
      setAside.push(...n.setAside);
      for (const f of n.future) {
        if (f.id !== null && listed.has(f.id)) continue;
        if (f.id !== null) listed.add(f.id);
        future.push(f.text);
      }
    }
    setAside.push(...implausiblePressures(measured, observed, missing));
    const fromPatient = new Map<string, string | number | boolean>();
    const wanted = demographics.filter((d) => !observed.has(d.parameter.id));
    if (wanted.length || PATIENT_KEY in req.prefetch) {
      const fromServer = !(PATIENT_KEY in req.prefetch);
      let patient: Json | null = null;
      try {
        if (fromServer) fetches.tried++;
        patient = patientOf(await this.prefetched(req, PATIENT_KEY, `Patient/${patientId}`, fresh), patientId);
      } catch (e) {
        const failed = fetchFailure(e, fromServer);
        if (!failed) throw e;
        fetches.failed.push(failed);
        setAside.push(
          `Patient (${wanted.map((d) => d.parameter.display_name || d.parameter.name).join(', ') || 'demographics'}) not read: ${failed.message}`,
        );
      }
      for (const d of patient ? wanted : []) {
        const v = d.kind === 'age' ? ageOn(patient!, now) : sexAnswer(patient!, d.parameter, k.rules, k.parameters);
        if (v !== null) fromPatient.set(d.parameter.id, v);
      }
    }
    // Nothing could be read at all: the data is unavailable (CDS Hooks: 412), not a patient without findings.
    if (fetches.tried > 0 && fetches.failed.length === fetches.tried && Object.keys(req.prefetch).length === 0)
      throw new DomainError('fhir_data_unavailable', `No data could be read for this patient: ${fetches.failed[0].message}`);

    const answers: Answers = {};
    const details: AnswerDetailJson[] = [];
    const prefill: CdsPrefillValue[] = [];
    for (const p of k.parameters) {
      const v = observed.get(p.id);
      const given = fromPatient.get(p.id);
      const history = historyAnswers.get(p.id);
      answers[p.id] = history ? history.answer : v ? v.value : (given ?? 'unknown');
      if (history) {
        // A value taken from the history ("2 days") is the record's reading, not one result to prefill.
        if (history.detail) details.push(history.detail);
      } else if (v) {
        details.push(detailOf(p, v, now));
        // A result with a comparator ("< 15") has no single number to prefill; the form asks for it.
        if (typeof v.value === 'number') prefill.push(prefillOf(p, v.entered_value, v.unit, v.at.toISOString(), 'observation'));
      } else if (given !== undefined) {
        details.push(patientDetailOf(p, given, now));
        prefill.push(prefillOf(p, given, typeof given === 'number' ? (p.units ?? null) : null, null, 'patient'));
      }
    }
    // No one can be asked for an exact value in a hook call: an interval across a threshold (a comparator
    // result, a count some unreadable results leave open) leaves that rule undetermined.
    const step = clinicalStep(k.rules, k.parameters, answers, {
      now,
      prepared: k.prepared,
      exactValueRequested: k.parameters.map((p) => p.id),
    });
    // Every parameter is answered (a value or unknown), so nothing is left to ask.
    if (step.status !== 'completed') throw new Error(`The engine asked about ${step.parameter_id} with every parameter answered`);
    const result = toResult(step, k, enteredOf(details));
    const cards = result.findings.map((f) => findingCard(f, k, observed));
    if (result.undetermined_rules.length) cards.push(undeterminedCard(result.undetermined_rules, k, missing));
    if (setAside.length || future.length) cards.push(setAsideCard(setAside, future));
    // Each card's uuid maps feedback back to the rule and version it stands for.
    const issued = cards.map((c, i) => {
      const f = result.findings[i];
      return {
        uuid: c.uuid,
        rule_set_id: f?.rule_set_id ?? null,
        rule_id: f?.rule_id ?? null,
        rule_version: f?.rule_version ?? null,
        rule_set_version: f ? (versionOf(f, k) ?? null) : null,
      };
    });
    const tickets = await this.prefill.issueWithCards(
      { generation: snapshot.generation, issuer: caller.issuer, jti: caller.jti, jti_expires_at: caller.jti_expires_at },
      PATIENT_VIEW,
      prefill,
      issued,
    );
    cards.forEach((c, i) => {
      c.links = [
        {
          label: prefill.length ? 'Open the assessment with these values' : 'Open the clinical assessment',
          url: `${appUrl}/clinical-form?${CDS_PREFILL_PARAM}=${tickets[i]}`,
          type: 'absolute',
        },
      ];
    });
    return { cards };
  }

  /**
   * The prefetched value, else a fetch from the EHR's FHIR server with the token it gave (never kept),
   * only on a copy read during this call (the server must still be one the client is allowed).
   */
  private async prefetched(req: PatientViewRequest, key: string, query: string, fresh: boolean): Promise<unknown> {
    if (key in req.prefetch) return req.prefetch[key];
    if (!req.fhirServer) throw new FetchFailed('not prefetched, and no fhirServer was given to fetch it from');
    if (!fresh) throw new StaleSnapshot();
    const headers: Record<string, string> = { accept: 'application/fhir+json' };
    if (req.fhirAuthorization) headers.authorization = `Bearer ${req.fhirAuthorization.access_token}`;
    let res: Response;
    try {
      res = await fetch(`${req.fhirServer}/${query}`, { headers, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
    } catch (e) {
      throw new FetchFailed(
        timedOut(e) ? `the FHIR server did not answer within ${FETCH_TIMEOUT_MS / 1000} s` : 'the FHIR server could not be reached',
      );
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new FetchFailed(`the FHIR server answered ${res.status}`);
    }
    return boundedJson(res);
  }
}

/** An abort by AbortSignal.timeout (a DOMException, which may come from another realm than this code's Error). */
const timedOut = (e: unknown) => {
  const name = (x: unknown) => (typeof x === 'object' && x !== null ? (x as { name?: unknown }).name : undefined);
  return name(e) === 'TimeoutError' || name((e as { cause?: unknown } | null)?.cause) === 'TimeoutError';
};

/**
 * The response body as JSON, read at most FETCH_MAX_BYTES: the bytes are counted as they arrive, since
 * a Content-Length may be absent or wrong (chunked encoding), and the read stops at the bound.
 */
async function boundedJson(res: Response): Promise<unknown> {
  const tooLarge = () => new FetchFailed(`the FHIR server's answer is larger than ${FETCH_MAX_BYTES / (1024 * 1024)} MB`);
  if (Number(res.headers.get('content-length')) > FETCH_MAX_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    const reader = res.body?.getReader();
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
      if (chunk.done) break;
      total += chunk.value.byteLength;
      if (total > FETCH_MAX_BYTES) {
        await reader!.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(chunk.value);
    }
  } catch (e) {
    if (e instanceof FetchFailed) throw e;
    throw new FetchFailed(
      timedOut(e) ? `the FHIR server did not answer within ${FETCH_TIMEOUT_MS / 1000} s` : 'the FHIR server broke off its answer',
    );
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new FetchFailed('the FHIR server sent something other than JSON');
  }
}

/** Nulls last, as PostgreSQL orders them. */
const byText = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

/**
 * The published rules' parameters the record can answer: Observations by LOINC code (the code is kept on
 * the parameter, not the snapshot, and read with the version ids), age and sex.
 */
export function needsOf(k: Knowledge, loincCodes: ReadonlyMap<string, string>): Needs {
  const coded = k.parameters
    .map((parameter) => ({ parameter, loinc: loincCodes.get(parameter.id) ?? null }))
    .sort((a, b) => byText(a.loinc, b.loinc) || byText(a.parameter.id, b.parameter.id));
  const out: Needs = { measured: [], histories: [], demographics: [] };
  for (const { parameter, loinc } of coded) {
    // A criterion says how the parameter is read from the record; it is not the latest value of its code.
    const history = historyInputOf(parameter);
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
function patientOf(value: unknown, patientId: string): Json | null {
  if (value === null) return null;
  const r = value as Json;
  if (typeof value !== 'object' || Array.isArray(value) || r.resourceType !== 'Patient' || r.id !== patientId) {
    const message = `must be the Patient resource with id ${patientId}`;
    throw new DomainError('invalid_prefetch', `prefetch.${PATIENT_KEY}: ${message}`, [{ field: `prefetch.${PATIENT_KEY}`, message }]);
  }
  return r;
}

export function observationQuery(patientId: string, loinc: string): string {
  const codes = searchCodes(searchKey(loinc))
    .map((c) => `${LOINC}|${c}`)
    .join(',');
  return `Observation?patient=${patientId}&code=${codes}&status=${STATUS_FILTER}&_sort=-date&_count=${HISTORY_COUNT}`;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

function withUnit(n: number, ucum: string | null): string {
  const u = unitDisplay(ucum ?? '');
  return u ? `${formatNumber(n)} ${u}` : formatNumber(n);
}

/** Two places beyond the recorded precision: enough to see which side of a cut-point a converted value falls. */
function shown(n: number, p: EngineParameter): number {
  const d = p.validation_rules?.decimals;
  const places = (Number.isInteger(d) ? (d as number) : 2) + 2;
  return Number(n.toFixed(places));
}

function detailOf(p: EngineParameter, v: ObservedValue, now: Date): AnswerDetailJson {
  const converted = v.unit !== (p.units ?? '');
  const base = {
    parameter_id: p.id,
    parameter_name: p.name,
    display_name: p.display_name,
    units: p.units ?? null,
    unit: v.unit,
    observed_at: v.at.toISOString(),
    answered_at: now.toISOString(),
  };
  if (typeof v.value !== 'number') {
    // "< 15": an interval, decided three-valued like a band the clinician chose.
    const bound = v.value.max ?? v.value.min!;
    const given = givenText({ value: v.entered_value, comparator: v.comparator, unit: v.unit });
    return {
      ...base,
      value: v.value as RangeAnswer as AnswerDetailJson['value'],
      ...(converted ? { entered_value: comparatorBand(v) } : {}),
      entered_as: 'band',
      label: converted ? `${given} (${v.comparator} ${withUnit(shown(bound, p), p.units ?? null)})` : given,
    };
  }
  return {
    ...base,
    value: v.value,
    ...(converted ? { entered_value: v.entered_value } : {}),
    entered_as: 'typed',
    label: converted
      ? `${withUnit(v.entered_value, v.unit)} (${withUnit(shown(v.value, p), p.units ?? null)})`
      : withUnit(v.value, p.units ?? null),
  };
}

/** The interval as the EHR gave it, in its own unit. */
function comparatorBand(v: ObservedValue): AnswerDetailJson['entered_value'] {
  const below = v.comparator === '<' || v.comparator === '<=';
  return {
    type: 'range',
    min: below ? null : v.entered_value,
    max: below ? v.entered_value : null,
    min_inclusive: v.comparator !== '>',
    max_inclusive: v.comparator !== '<',
  };
}

/**
 * A diastolic pressure at or above the systolic is an error of the record (swapped fields, a typing
 * slip), never a crisis: both are set aside, so no card stands on either.
 */
export function implausiblePressures(
  measured: readonly Measured[],
  observed: Map<string, ObservedValue>,
  missing: Map<string, NoValue>,
): string[] {
  const out: string[] = [];
  for (const s of measured.filter((m) => m.loinc === SYSTOLIC)) {
    for (const d of measured.filter((m) => m.loinc === DIASTOLIC)) {
      const sv = observed.get(s.parameter.id);
      const dv = observed.get(d.parameter.id);
      const si = sv && readInterval(sv.value);
      const di = dv && readInterval(dv.value);
      if (!si || !di || di.lo < si.hi) continue;
      const text = (m: Measured, v: ObservedValue) =>
        `${m.parameter.display_name || m.parameter.name} ${givenText({ value: v.entered_value, comparator: v.comparator, unit: v.unit })} of ${day(v.at)}`;
      const why = 'the diastolic pressure is not below the systolic';
      out.push(`${text(s, sv!)} and ${text(d, dv!)} set aside: ${why}`);
      for (const [m, v] of [
        [s, sv!],
        [d, dv!],
      ] as const) {
        observed.delete(m.parameter.id);
        missing.set(m.parameter.id, { reason: 'set_aside', at: v.at, text: why });
      }
    }
  }
  return out;
}

function patientDetailOf(p: EngineParameter, value: string | number | boolean, now: Date): AnswerDetailJson {
  const numeric = typeof value === 'number';
  return {
    parameter_id: p.id,
    parameter_name: p.name,
    display_name: p.display_name,
    units: p.units ?? null,
    value,
    unit: numeric ? (p.units ?? null) : null,
    entered_as: numeric ? 'typed' : 'option',
    label: numeric ? withUnit(value, p.units ?? null) : String(value),
    observed_at: null,
    answered_at: now.toISOString(),
  };
}

export function prefillOf(
  p: EngineParameter,
  value: string | number | boolean,
  unit: string | null,
  observedAt: string | null,
  source: CdsPrefillValue['source'],
): CdsPrefillValue {
  return { parameter_id: p.id, parameter_name: p.name, display_name: p.display_name, value, unit, observed_at: observedAt, source };
}

const INDICATOR = { critical: 'critical', high: 'warning' } as const;

function summaryOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= SUMMARY_MAX ? flat : `${flat.slice(0, SUMMARY_MAX - 1).trimEnd()}…`;
}

/** Markdown special characters in administrator-entered text are shown, not interpreted. */
const md = (s: string) => s.replace(/([\\`*_[\]<>])/g, '\\$1');

function conditionText(b: BasisJson): string {
  const symbol = (OPERATOR_SYMBOL as Record<string, string>)[b.operator] ?? b.operator;
  const threshold = typeof b.threshold === 'number' ? withUnit(b.threshold, b.units) : JSON.stringify(b.threshold);
  return `${b.display_name ?? b.parameter_name ?? 'Value'} ${symbol} ${threshold}`;
}

function versionOf(f: FindingJson, k: Knowledge): number | undefined {
  return k.versionOfRuleSet.get(f.rule_set_id)?.version;
}

function sourceLabel(setName: string, version: number | undefined, citation: string | null): string {
  return `${setName}${version !== undefined ? ` v${version}` : ''}${citation ? ` · ${citation}` : ''}`;
}

function findingCard(f: FindingJson, k: Knowledge, observed: ReadonlyMap<string, ObservedValue>): CdsCardJson {
  const version = versionOf(f, k);
  const lead = f.actions[0]?.message ?? f.description;
  const lines = [`**${md(f.rule_name)}**${f.description ? `: ${md(f.description)}` : ''}`, '', '**Basis**', ''];
  for (const b of f.basis) {
    const o = b.parameter_id ? observed.get(b.parameter_id) : undefined;
    const value = o ? `${md(b.label ?? String(b.value))}, Observation of ${day(o.at)}` : md(b.label ?? String(b.value));
    lines.push(`- ${md(conditionText(b))}: ${value}`);
  }
  if (f.actions.length) {
    lines.push('', '**Actions**', '');
    for (const a of f.actions) lines.push(`- ${md(a.message)} (${a.severity})`);
  }
  lines.push(
    '',
    `Rule "${md(f.rule_name)}" version ${f.rule_version}, rule set ${md(f.rule_set_name)}${version !== undefined ? ` version ${version}` : ''}.`,
  );
  if (f.source) lines.push(`Source: ${md(f.source)}`);
  return {
    uuid: randomUUID(),
    summary: summaryOf(`${f.rule_name}: ${lead}`),
    indicator: (INDICATOR as Record<string, 'critical' | 'warning'>)[f.severity] ?? 'info',
    source: { label: sourceLabel(f.rule_set_name, version, f.source) },
    detail: lines.join('\n'),
    links: [],
  };
}

function missingText(reason: string, no: NoValue | undefined): string {
  if (no?.reason === 'set_aside') return `set aside: ${no.text?.replace(/^.* set aside: /, '') ?? 'unreadable'}`;
  if (no?.reason === 'stale') return `latest Observation of ${day(no.at!)} is older than ${no.lookback_days} days`;
  if (no?.reason === 'no_date') return 'the Observation has no date';
  if (no?.reason === 'no_observation') return 'no Observation found';
  return reason === 'straddles_threshold' ? 'the value given straddles the threshold' : 'not available from the EHR';
}

function undeterminedCard(rules: readonly UndeterminedRuleJson[], k: Knowledge, missing: ReadonlyMap<string, NoValue>): CdsCardJson {
  const inputs = new Map<string, string>();
  const lines = ['These rules could not be decided with the data in the record:', ''];
  for (const u of rules) {
    const names = u.unknown_parameters.map((m) => {
      const name = m.display_name ?? m.parameter_name ?? 'an input';
      const reason = (m as { reason?: string }).reason ?? 'unknown_answer';
      const text = `${name} (${missingText(reason, m.parameter_id ? missing.get(m.parameter_id) : undefined)})`;
      inputs.set(name, text);
      return md(text);
    });
    lines.push(
      `- **${md(u.rule_name)}**${u.rule_set_name ? ` (${md(u.rule_set_name)})` : ''}: needs ${names.join(', ') || 'no listed input'}`,
    );
  }
  const sets = [...new Set(rules.map((u) => u.rule_set_name).filter((n): n is string => !!n))];
  const label = sets
    .map((name) => {
      const v = [...k.versionOfRuleSet.values()].find((x) => x.name === name);
      return sourceLabel(name, v?.version, null);
    })
    .join('; ');
  return {
    uuid: randomUUID(),
    summary: summaryOf(`${rules.length} rule${rules.length === 1 ? '' : 's'} undetermined: missing ${[...inputs.keys()].join(', ')}`),
    indicator: 'info',
    source: { label: label || 'DiabetesCDS published rule sets' },
    detail: lines.join('\n'),
    links: [],
  };
}

/** One info card for everything the record held that was not used, and why: a clinician can check it in the chart. */
function setAsideCard(setAside: readonly string[], future: readonly string[]): CdsCardJson {
  const lines: string[] = [];
  if (setAside.length)
    lines.push('Set aside from the record (the rules that need these are undetermined):', '', ...setAside.map((t) => `- ${md(t)}`));
  if (future.length) {
    if (lines.length) lines.push('');
    lines.push('Results dated in the future, not used as the latest:', '', ...future.map((t) => `- ${md(t)}`));
  }
  const first = setAside[0] ?? `future-dated: ${future[0]}`;
  const total = setAside.length + future.length;
  return {
    uuid: randomUUID(),
    summary: summaryOf(total === 1 ? first : `${total} results set aside from the record: ${first}; …`),
    indicator: 'info',
    source: { label: 'DiabetesCDS reading of the record' },
    detail: lines.join('\n'),
    links: [],
  };
}
