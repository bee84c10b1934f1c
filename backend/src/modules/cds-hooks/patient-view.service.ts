import { Injectable } from '@nestjs/common';
import {
  CDS_PREFILL_PARAM,
  type AnswerDetailJson,
  type CdsHookResponseJson,
  type CdsPrefillValue,
  type CdsServiceJson,
} from '@cds/contracts';
import { clinicalStep, type Answers } from '@cds/engine';
import { DomainError } from '../../common/errors';
import { enteredOf, toResult, type ParameterHistorySnapshot } from '../assessments';
import { nameOfPatient, ValueSets } from '../records';
import { GapMeasures } from './gap-measures';
import { HookPlans } from './hook-plan';
import { coverageOf, currentYear, measureAtCare, type SearchRead } from './measure-gaps';
import { detailOf, implausiblePressures, patientDetailOf, prefillOf } from './answer-details';
import { findingCard, setAsideCard, undeterminedCard, versionOf } from './cards';
import { ClientJwtVerifier, ReplayedJwt, type VerifiedClientJwt } from './client-jwt';
import { ageOn, sexAnswer } from './demographics';
import { fetchFailure, FetchFailed, fetchFhir } from './fhir-client';
import type { CheckedBody } from './checked-body';
import { PATIENT_VIEW, unknownService, type PatientViewRequest } from './hook-request';
import { HookSnapshots, StaleSnapshot, type HookSnapshot } from './hook-snapshot';
import { bundleResources, checkSubjects, hasNextPage, readParameterWithHistory, type NoValue, type ObservedValue } from './observations';
import { historySnapshot } from './record-context';
import { PrefillTickets } from './prefill-tickets';
import { historyQuery, onceEach, readHistoryInput, unsearchedReading, type HistoryReading, type HistorySearch } from './record-history';
import { mayHoldLess, readShared } from './search-sharing';
import { observationKey, observationQuery, patientOf, PATIENT_KEY } from './record-needs';

/** Evaluations of one call on successive copies, when publishes keep landing during it. */
const MAX_ATTEMPTS = 4;
/** Refusals a stale copy can cause (a client just registered or re-keyed, a FHIR server just allowed): checked again on a fresh one. */
const REFUSALS = new Set(['invalid_client_jwt', 'fhir_server_not_allowed']);

/** Who called: the verified client, and what it may name as fhirServer. */
export interface HookCaller {
  issuer: string;
  allowed_fhir_servers: readonly string[];
}

type Json = Record<string, unknown>;

/**
 * The patient-view service: the latest Observation per LOINC code becomes an answer (in the
 * parameter's unit), then every active published rule set is evaluated as one assessment would be,
 * and each fired rule becomes a card.
 */
@Injectable()
export class PatientViewService {
  private readonly gapMeasures = new GapMeasures();
  private readonly plans = new HookPlans();

  constructor(
    private readonly snapshots: HookSnapshots,
    private readonly jwt: ClientJwtVerifier,
    private readonly prefill: PrefillTickets,
    private readonly valueSets: ValueSets,
  ) {}

  /** The discovery entry: prefetch templates for every LOINC code the published rules use. */
  async describe(): Promise<CdsServiceJson> {
    const { knowledge: k, loincCodes, measures: published } = await this.snapshots.fresh();
    const { needs: n, measures } = await this.plans.of(k, loincCodes, published, this.valueSets);
    const { measured, histories } = n;
    const prefetch: Record<string, string> = { [PATIENT_KEY]: 'Patient/{{context.patientId}}' };
    for (const m of measured) prefetch[observationKey(m.loinc)] ??= observationQuery('{{context.patientId}}', m.loinc);
    for (const s of histories.flatMap((h) => h.searches)) prefetch[s.key] ??= historyQuery('{{context.patientId}}', s);
    // The shipped measures' inputs (gap-in-care cards), in the measures' order.
    for (const s of measures.flatMap((m) => m.inputs.flatMap((i) => i.searches)))
      prefetch[s.key] ??= historyQuery('{{context.patientId}}', s);
    return {
      hook: PATIENT_VIEW,
      id: PATIENT_VIEW,
      title: 'Diabetes decision support',
      description:
        'Evaluates the published diabetes rule sets against the latest HbA1c, glucose, blood pressure, BMI and albuminuria Observations, and returns one card per finding; and one gap-in-care card per quality measure (CMS122, CMS951, CMS165) whose goal the patient misses this calendar year.',
      prefetch,
    };
  }

  /**
   * A call of service `serviceId` (checked after the client, so an unregistered caller learns nothing):
   * the client JWT is verified, then the body (checked by its pipe) is taken or refused, and the cards returned. `audience` is the service URL at each of the server's own origins;
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
    body: CheckedBody<PatientViewRequest>,
    appUrl: string,
  ): Promise<CdsHookResponseJson> {
    let snapshot = await this.snapshots.current();
    let fresh = false;
    for (let attempt = 1; ; attempt++) {
      let caller: VerifiedClientJwt | undefined;
      try {
        caller = await this.jwt.verify(authorization, serviceId, audience, (iss) => snapshot.clients.get(iss) ?? null);
        if (serviceId !== PATIENT_VIEW) throw unknownService(serviceId);
        return await this.evaluate(body.get(), caller, appUrl, snapshot, fresh);
      } catch (e) {
        if (e instanceof ReplayedJwt) throw e;
        const stale = e instanceof StaleSnapshot;
        let again = stale || (!fresh && e instanceof DomainError && REFUSALS.has(e.code));
        if (again && attempt < MAX_ATTEMPTS) {
          const next = stale && e.moved ? await this.snapshots.refreshed(snapshot) : await this.snapshots.confirmed(snapshot);
          // A refusal on a copy confirmed current stands: deciding it again would only check the signature again.
          if (stale || next !== snapshot) {
            snapshot = next;
            fresh = true;
            continue;
          }
          again = false;
        }
        // Nothing was decided: the token stays unspent, so the EHR may send the same call again.
        if (again) throw new DomainError('service_unavailable', 'The published rules kept changing during this call; call again');
        // A verified token is spent even when its call fails, and a replayed one is refused as such, whatever its body.
        if (caller) await this.jwt.record(caller);
        throw e;
      }
    }
  }

  /** The cards for one call, on `snapshot` (`fresh`: read or confirmed current during this call); recorded with the call. */
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
    const plan = await this.plans.of(k, loincCodes, snapshot.measures, this.valueSets);
    const { needs, valueSets, measures, searches, historyGroups, cutPoints } = plan;
    const { measured, demographics } = needs;
    const patientId = req.context.patientId;
    const observed = new Map<string, ObservedValue>();
    const missing = new Map<string, NoValue>();
    /** Each measured parameter's results as read: kept with the prefill, for the assessment started from a card. */
    const results = new Map<string, ParameterHistorySnapshot | null>();
    /** What the info card lists: values set aside, inputs not fetched, results dated in the future. */
    const setAside: string[] = [];
    const future: string[] = [];
    const fetches = { tried: 0, failed: [] as FetchFailed[] };
    type Read = { resources: Json[]; truncated: boolean };
    // Searches made on the FHIR server, each once per call, by key (a shared search's key names no prefetch).
    const onServer = new Map<string, Promise<(Read & { bundle: unknown }) | FetchFailed>>();
    const fromServer = (key: string, resourceType: string, query: () => string) => {
      let read = onServer.get(key);
      if (!read) {
        read = (async () => {
          try {
            const bundle = await this.prefetched(req, key, query, fresh);
            const resources = bundleResources(key, bundle, resourceType);
            checkSubjects(key, resources, patientId);
            return { resources, truncated: hasNextPage(bundle), bundle };
          } catch (e) {
            const failed = fetchFailure(e, true);
            if (!failed) throw e;
            return failed;
          }
        })();
        onServer.set(key, read);
      }
      return read;
    };
    // Each planned search once per call, however many inputs read it: prefetched, else from the FHIR server,
    // where one search may answer several (search-sharing.ts) and a search it cannot answer is made on its own.
    const planned = new Map<string, Promise<Read | FetchFailed>>();
    const read = (key: string, resourceType: string, query: () => string) => {
      let result = planned.get(key);
      if (!result) {
        result = (async () => {
          const prefetchedHere = key in req.prefetch;
          if (!prefetchedHere) fetches.tried++;
          let own: Read | FetchFailed;
          if (prefetchedHere) {
            try {
              const bundle = req.prefetch[key];
              const resources = bundleResources(key, bundle, resourceType);
              checkSubjects(key, resources, patientId);
              own = { resources, truncated: hasNextPage(bundle) };
            } catch (e) {
              const failed = fetchFailure(e, false);
              if (!failed) throw e;
              own = failed;
            }
          } else {
            const shared = req.fhirServer ? plan.shared.get(key) : undefined;
            const from =
              shared && !shared.members.some((k) => k in req.prefetch)
                ? await fromServer(shared.search.key, 'Observation', () => historyQuery(patientId, shared.search))
                : null;
            const mine =
              from && !(from instanceof FetchFailed)
                ? readShared(from.resources, mayHoldLess(from.bundle, from.resources.length, shared!.asked), shared!)
                : null;
            own = mine ?? (await fromServer(key, resourceType, query));
          }
          if (own instanceof FetchFailed) fetches.failed.push(own);
          return own;
        })();
        // Awaited where it is read; a stale copy's refusal is never an unhandled rejection meanwhile.
        result.catch(() => undefined);
        planned.set(key, result);
      }
      return result;
    };
    const search = (s: HistorySearch) => read(s.key, s.resourceType, () => historyQuery(patientId, s));
    // The shipped measures' inputs: read only when the EHR offers them (every search prefetched, or a
    // FHIR server to fetch from); the searches are the history's, each fetched once per call.
    const offered = measures.filter(
      (m) =>
        !!req.fhirServer ||
        m.inputs.every((i) => i.searches.every((s) => s.key in req.prefetch) && (!i.patient || PATIENT_KEY in req.prefetch)),
    );
    const measureSearches = [...new Map(offered.flatMap((m) => m.inputs.flatMap((i) => i.searches)).map((s) => [s.key, s])).values()];
    // Every search starts at once, the Patient too: one round of the FHIR server, but for a search a shared one could not answer.
    const patientWanted = demographics.length > 0 || PATIENT_KEY in req.prefetch || offered.some((m) => m.inputs.some((i) => i.patient));
    const patientFetch = patientWanted ? this.prefetched(req, PATIENT_KEY, () => `Patient/${patientId}`, fresh) : null;
    patientFetch?.catch(() => undefined);
    const latestReads = searches.map(([key, group]) => read(key, 'Observation', () => observationQuery(patientId, group[0].loinc)));
    const historyReads = historyGroups.map((group) => Promise.all(group[0].searches.map(search)));
    const measureReads = Promise.all(measureSearches.map(async (s) => [s.key, await search(s)] as const));
    measureReads.catch(() => undefined); // awaited below; a stale copy's refusal is never an unhandled rejection meanwhile
    for (const r of historyReads) r.catch(() => undefined);
    // Each search's notes are kept in its own slot, so the info card lists them in one order whatever answers first.
    const notes = await Promise.all(
      searches.map(async ([, group], i) => {
        const out = { setAside: [] as string[], future: [] as { id: string | null; text: string }[] };
        const got = await latestReads[i];
        if (got instanceof FetchFailed) {
          const names = group.map((m) => m.parameter.display_name || m.parameter.name).join(', ');
          out.setAside.push(`${names} not read: ${got.message}`);
          for (const m of group) missing.set(m.parameter.id, { reason: 'set_aside', text: got.message });
          return out;
        }
        for (const m of group) {
          const { reading, history } = readParameterWithHistory(got.resources, m.parameter, m.loinc, now, cutPoints.get(m.parameter.id)!);
          const { outcome, future: later } = reading;
          results.set(m.parameter.id, history);
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
    // Parameters read from the patient's history by a criterion, grouped by the searches that read them
    // (one search per list of codes, or per type); each search is fetched once, fail-soft like the others.
    const historyAnswers = new Map<string, HistoryReading>();
    const historyNotes = await Promise.all(
      historyGroups.map(async (group, i) => {
        const out = { setAside: [] as string[], future: [] as { id: string | null; text: string }[] };
        const parts = await historyReads[i];
        const failed = parts.find((p) => p instanceof FetchFailed);
        if (failed) {
          out.setAside.push(`${group.map((h) => h.parameter.display_name || h.parameter.name).join(', ')} not read: ${failed.message}`);
          for (const h of group) missing.set(h.parameter.id, { reason: 'set_aside', text: failed.message });
          return out;
        }
        const read = parts as { resources: Json[]; truncated: boolean }[];
        const resources = onceEach(read.flatMap((p) => p.resources));
        const truncated = read.some((p) => p.truncated);
        for (const h of group) {
          const reading = h.unsearchable ? unsearchedReading(h) : readHistoryInput(resources, h, now, valueSets, truncated);
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
    let patientName: string | null = null;
    // Demographics are never measured parameters (needsOf puts each parameter in one list), so all are wanted.
    const wanted = demographics;
    const measureRead = await measureReads;
    let patientRead = false;
    let patientResource: Json | null = null;
    if (patientWanted) {
      const fromServer = !(PATIENT_KEY in req.prefetch);
      let patient: Json | null = null;
      try {
        if (fromServer) fetches.tried++;
        patient = patientOf(await patientFetch, patientId);
        patientName = nameOfPatient(patient);
        patientRead = true;
        patientResource = patient;
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
    // Gap-in-care cards: the measures as published over the record this call read, for the current calendar year.
    const period = currentYear(now);
    const reads = new Map<string, SearchRead>();
    const record: Json[] = patientResource ? [patientResource] : [];
    const failures = new Map<string, string>();
    for (const [key, r] of measureRead) {
      if (r instanceof FetchFailed) {
        reads.set(key, 'failed');
        failures.set(key, r.message);
      } else {
        reads.set(key, r.truncated ? 'partial' : 'whole');
        record.push(...r.resources);
      }
    }
    const whole = onceEach(record);
    for (const m of offered) {
      // A patient outside a measure gets nothing from it: its other inputs are not read.
      const outcome = this.gapMeasures
        .preparedOf(m.measure, valueSets)
        .evaluate(whole, period, now.getTime(), coverageOf(m, reads, patientRead), {
          stopOutside: true,
        });
      const atCare = measureAtCare(m.measure, outcome, whole, period);
      if (atCare && 'card' in atCare) cards.push(atCare.card);
      else if (atCare) {
        const why = m.inputs.flatMap((i) => i.searches).find((s) => failures.has(s.key));
        setAside.push(why ? `${atCare.undetermined} (${failures.get(why.key)})` : atCare.undetermined);
      }
    }
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
      // The EHR's own patient id: the record context names the patient as the EHR does.
      { patient: { source: 'ehr', reference: `Patient/${patientId}`, name: patientName }, history: historySnapshot(k, results, now) },
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
   * only on a copy read, or confirmed current, during this call (the server must still be one the client is allowed).
   */
  private async prefetched(req: PatientViewRequest, key: string, query: () => string, fresh: boolean): Promise<unknown> {
    if (key in req.prefetch) return req.prefetch[key];
    if (!req.fhirServer) throw new FetchFailed('not prefetched, and no fhirServer was given to fetch it from');
    if (!fresh) throw new StaleSnapshot(false);
    return fetchFhir(req.fhirServer, req.fhirAuthorization?.access_token ?? null, query());
  }
}
