import { CDS_PREFILL_PARAM, type CdsPrefillJson, type CdsPrefillValue, type RecordPatientJson } from '@cds/contracts';
import { formatDate } from '../components/format';

/**
 * A CDS card opens /clinical-form?prefill=<ticket>. A signed-out clinician signs in first: the
 * ticket waits in this tab's sessionStorage meanwhile, then the form redeems it (once). The values
 * redeemed are kept for this tab's assessment, and each is offered, never answered, until the
 * clinician confirms it.
 */
const TICKET_KEY = 'cds.prefill.ticket';
export const PREFILL_VALUES_KEY = 'cds.prefill.values';

function read(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    /* storage unavailable: the ticket or values are lost with the page */
  }
}

/** The ticket in a /clinical-form URL's query, if any. */
export function ticketIn(search: string): string | null {
  const t = new URLSearchParams(search).get(CDS_PREFILL_PARAM);
  return t && /^[A-Za-z0-9_-]{16,100}$/.test(t) ? t : null;
}

/** Keeps the ticket of a link opened while signed out, so the form can redeem it after sign-in. */
export function stashTicket(search: string): void {
  const t = ticketIn(search);
  if (t) write(TICKET_KEY, t);
}

export const stashedTicket = (): string | null => read(TICKET_KEY);

/** The ticket to redeem now (from the URL, else one stashed before sign-in); the stash is emptied. */
export function takeTicket(search: string): string | null {
  const t = ticketIn(search) ?? stashedTicket();
  write(TICKET_KEY, null);
  return t;
}

/** Values from the EHR or the record, and the assessment they belong to (null: the next one started). */
export interface Prefill {
  values: CdsPrefillValue[];
  assessment_id: string | null;
  /** Absent in values kept by an earlier version of the page: read as the EHR's. */
  origin?: CdsPrefillJson['origin'];
  patient?: RecordPatientJson | null;
  /** Named when the assessment starts, so it keeps the patient and the results the values came from. */
  record_context?: string | null;
}

export function rememberPrefill(p: Prefill | null): void {
  write(PREFILL_VALUES_KEY, p ? JSON.stringify(p) : null);
}

export function recalledPrefill(): Prefill | null {
  try {
    const p = JSON.parse(read(PREFILL_VALUES_KEY) ?? 'null') as Prefill | null;
    return p && Array.isArray(p.values) ? p : null;
  } catch {
    return null;
  }
}

/** "observed Nov 20, 2026" (the app's one date format), or "Patient record" for age and sex. */
export const prefillWhen = (v: CdsPrefillValue): string => (v.observed_at ? `observed ${formatDate(v.observed_at)}` : 'Patient record');

/** Where the values came from, in words: the clinic's stored record (the Panel) or the EHR (a CDS card). */
export const originWords = (origin: Prefill['origin']): string => (origin === 'record' ? 'From the record' : 'From EHR');

/** "From EHR, observed Nov 20, 2026"; "From the record, observed …" for values the Panel read from the stored record. */
export const prefillNote = (v: CdsPrefillValue, origin?: Prefill['origin']): string => `${originWords(origin)}, ${prefillWhen(v)}`;
