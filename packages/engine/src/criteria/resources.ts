import { effectiveTime, USABLE_STATUSES } from '../record';
import type { CriterionResourceType } from './types';

/** How each resource type is read by a criterion: its codes, its time, and the statuses that count by default. */

type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `system|code` of every coding of a CodeableConcept (or a list of them). */
export function tokensOf(concept: unknown): string[] {
  const concepts = Array.isArray(concept) ? concept : [concept];
  const out: string[] = [];
  for (const c of concepts) {
    if (!isObject(c) || !Array.isArray(c.coding)) continue;
    for (const coding of c.coding)
      if (isObject(coding) && typeof coding.system === 'string' && typeof coding.code === 'string')
        out.push(`${coding.system}|${coding.code}`);
  }
  return out;
}

/** The element of the resource that carries its code: the code a criterion's codes are matched against. */
const CODE_ELEMENT: Readonly<Record<Exclude<CriterionResourceType, 'Patient'>, string>> = {
  Observation: 'code',
  Condition: 'code',
  Encounter: 'type',
  Procedure: 'code',
  MedicationRequest: 'medicationCodeableConcept',
  ServiceRequest: 'code',
  DeviceRequest: 'codeCodeableConcept',
};

/**
 * The element that matched `codes`: the resource itself, or for an Observation one of its components
 * (a blood-pressure panel carries systolic and diastolic as components). Null when nothing matches.
 */
export function matchingElement(resource: Json, type: CriterionResourceType, codes: ReadonlySet<string>): Json | null {
  if (type === 'Patient') return resource;
  if (tokensOf(resource[CODE_ELEMENT[type]]).some((t) => codes.has(t))) return resource;
  if (type === 'Observation')
    for (const component of Array.isArray(resource.component) ? resource.component : [])
      if (isObject(component) && tokensOf(component.code).some((t) => codes.has(t))) return component;
  return null;
}

/**
 * Statuses that count when a criterion names none. Observation: a result stands only when final,
 * amended or corrected. Encounter: finished. Procedure: completed. Requests: active or completed
 * (an order that was placed). A Condition has no `status`: its `clinicalStatus` is filtered only
 * when the criterion names statuses, and a refuted or entered-in-error one never counts.
 */
export const DEFAULT_STATUSES: Readonly<Partial<Record<CriterionResourceType, readonly string[]>>> = {
  Observation: USABLE_STATUSES,
  Encounter: ['finished'],
  Procedure: ['completed'],
  MedicationRequest: ['active', 'completed'],
  ServiceRequest: ['active', 'completed'],
  DeviceRequest: ['active', 'completed'],
};

const NEVER_VERIFIED = new Set(['refuted', 'entered-in-error']);

export function statusCounts(resource: Json, type: CriterionResourceType, statuses: readonly string[] | null): boolean {
  if (type === 'Patient') return true;
  if (type === 'Condition') {
    if (tokensOf(resource.verificationStatus).some((t) => NEVER_VERIFIED.has(t.split('|')[1]))) return false;
    if (!statuses) return true;
    return tokensOf(resource.clinicalStatus).some((t) => statuses.includes(t.split('|')[1]));
  }
  return typeof resource.status === 'string' && (statuses ?? DEFAULT_STATUSES[type] ?? []).includes(resource.status);
}

const time = (raw: unknown): number => (typeof raw === 'string' ? Date.parse(raw) : NaN);
const DAY_MS = 86_400_000;

/** Days in one unit of a UCUM duration (`convert ... to days`); undefined for units that are not durations. */
const DAYS_PER: Readonly<Record<string, number>> = { s: 1 / 86400, min: 1 / 1440, h: 1 / 24, d: 1, day: 1, days: 1, wk: 7, mo: 30, a: 365 };
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const dayStart = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;

/**
 * When a medication order covers, as CQL's CumulativeMedicationDuration reads it (day precision):
 * from its dosage's bounds start, else when authored, else the dispense validity start; for the days
 * supplied (the expected supply, else quantity ÷ daily dose), times the fills (1 + refills); else to
 * the bounds' end. Neither: no span (NaN).
 */
function medicationSpan(r: Json): Span {
  const dosage = Array.isArray(r.dosageInstruction) && isObject(r.dosageInstruction[0]) ? r.dosageInstruction[0] : {};
  const repeat = isObject(dosage.timing) && isObject(dosage.timing.repeat) ? dosage.timing.repeat : {};
  const bounds = isObject(repeat.boundsPeriod) ? repeat.boundsPeriod : {};
  const dispense = isObject(r.dispenseRequest) ? r.dispenseRequest : {};
  const validity = isObject(dispense.validityPeriod) ? dispense.validityPeriod : {};
  const startRaw = [time(bounds.start), time(r.authoredOn), time(validity.start)].find((t) => !Number.isNaN(t));
  if (startRaw === undefined) return { start: NaN, end: NaN };
  const start = dayStart(startRaw);
  const supply = isObject(dispense.expectedSupplyDuration) ? dispense.expectedSupplyDuration : {};
  const per = DAYS_PER[String(supply.code ?? supply.unit ?? '')];
  let days = num(supply.value) !== null && per !== undefined ? num(supply.value)! * per : null;
  if (days === null) {
    const doseAndRate = Array.isArray(dosage.doseAndRate) && isObject(dosage.doseAndRate[0]) ? dosage.doseAndRate[0] : {};
    const dose = isObject(doseAndRate.doseQuantity)
      ? num(doseAndRate.doseQuantity.value)
      : isObject(doseAndRate.doseRange) && isObject(doseAndRate.doseRange.high)
        ? num(doseAndRate.doseRange.high.value)
        : null;
    const frequency = num(repeat.frequencyMax) ?? num(repeat.frequency);
    const periodDays =
      num(repeat.period) !== null && DAYS_PER[String(repeat.periodUnit)] !== undefined
        ? num(repeat.period)! * DAYS_PER[String(repeat.periodUnit)]
        : null;
    const perDay =
      frequency !== null && periodDays
        ? frequency / periodDays
        : Array.isArray(repeat.timeOfDay) && repeat.timeOfDay.length
          ? repeat.timeOfDay.length
          : 1;
    const quantity = isObject(dispense.quantity) ? num(dispense.quantity.value) : null;
    if (quantity !== null && dose) days = quantity / (dose * perDay);
  }
  if (days !== null) {
    const fills = 1 + (num(dispense.numberOfRepeatsAllowed) ?? 0);
    return { start, end: start + (days * fills - 1) * DAY_MS + DAY_MS - 1 };
  }
  const boundsEnd = time(bounds.end);
  return Number.isNaN(boundsEnd) ? { start: NaN, end: NaN } : { start, end: dayStart(boundsEnd) + DAY_MS - 1 };
}

/** A span of time, ms since the epoch; a point is a span of zero length. `end` Infinity: still going on. */
export interface Span {
  start: number;
  end: number;
}

const ACTIVE_CONDITION = new Set(['active', 'recurrence', 'relapse']);

/**
 * When the resource happened. Observation: effective[x], else issued. Encounter and Procedure: their
 * period (or performed time). Requests: when authored. Condition: its prevalence, from onset (else
 * when recorded) to abatement; an active one without abatement is still going on, and an inactive or
 * resolved one without abatement is known only at its onset. NaN start: no readable time.
 */
export function spanOf(resource: Json, type: CriterionResourceType): Span {
  const period = (p: unknown): Span => {
    const s = isObject(p) ? time(p.start) : NaN;
    const e = isObject(p) ? time(p.end) : NaN;
    return Number.isNaN(s) ? { start: e, end: e } : { start: s, end: Number.isNaN(e) ? s : e };
  };
  switch (type) {
    case 'Observation': {
      if (isObject(resource.effectivePeriod)) {
        const p = period(resource.effectivePeriod);
        if (!Number.isNaN(p.start)) return p;
      }
      const t = effectiveTime(resource);
      return { start: t, end: t };
    }
    case 'MedicationRequest':
      return medicationSpan(resource);
    case 'Encounter':
      return period(resource.period);
    case 'Procedure': {
      const t = time(resource.performedDateTime);
      return Number.isNaN(t) ? period(resource.performedPeriod) : { start: t, end: t };
    }
    case 'Condition': {
      const onset =
        resource.onsetDateTime ?? (isObject(resource.onsetPeriod) ? resource.onsetPeriod.start : undefined) ?? resource.recordedDate;
      const start = time(onset);
      const abatement = time(resource.abatementDateTime ?? (isObject(resource.abatementPeriod) ? resource.abatementPeriod.end : undefined));
      if (!Number.isNaN(abatement)) return { start: Number.isNaN(start) ? abatement : start, end: abatement };
      const active = tokensOf(resource.clinicalStatus).some((t) => ACTIVE_CONDITION.has(t.split('|')[1]));
      return { start, end: active || !tokensOf(resource.clinicalStatus).length ? Infinity : start };
    }
    default: {
      const t = time(resource.authoredOn);
      return { start: t, end: t };
    }
  }
}

/** Whether a request is marked not to be performed: `doNotPerform`, or QI-Core's modifier extension on resources without it. */
export function notToBePerformed(resource: Json): boolean {
  if (resource.doNotPerform === true) return true;
  const extensions = Array.isArray(resource.modifierExtension) ? resource.modifierExtension : [];
  return extensions.some(
    (e) => isObject(e) && typeof e.url === 'string' && /\/qicore-doNotPerform$/.test(e.url) && e.valueBoolean === true,
  );
}

/** The coded element a criterion's `has_code` reads. */
export function codedElement(resource: Json, element: 'value' | 'discharge_disposition'): unknown {
  if (element === 'value') return resource.valueCodeableConcept;
  return isObject(resource.hospitalization) ? resource.hospitalization.dischargeDisposition : undefined;
}
