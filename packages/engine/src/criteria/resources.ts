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

/**
 * When a medication order covers: its dosage's bounds period, else from when it was authored for the
 * expected supply (days), else the dispense validity period, else the day it was authored.
 */
function medicationSpan(r: Json): Span {
  const dosage = Array.isArray(r.dosageInstruction) && isObject(r.dosageInstruction[0]) ? r.dosageInstruction[0] : {};
  const repeat = isObject(dosage.timing) && isObject(dosage.timing.repeat) ? dosage.timing.repeat : {};
  const bounds = isObject(repeat.boundsPeriod) ? repeat.boundsPeriod : {};
  const dispense = isObject(r.dispenseRequest) ? r.dispenseRequest : {};
  const start = Number.isNaN(time(bounds.start)) ? time(r.authoredOn) : time(bounds.start);
  if (!Number.isNaN(time(bounds.end))) return { start, end: time(bounds.end) };
  const supply = isObject(dispense.expectedSupplyDuration) ? dispense.expectedSupplyDuration : {};
  if (typeof supply.value === 'number' && (supply.code === 'd' || supply.code === 'days' || supply.unit === 'days'))
    return { start, end: start + supply.value * DAY_MS };
  const validity = isObject(dispense.validityPeriod) ? time(dispense.validityPeriod.end) : NaN;
  return { start, end: Number.isNaN(validity) ? start : validity };
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
