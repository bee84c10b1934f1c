import type { RecordPatientJson } from '@cds/contracts';
import { canonicalOperator, OPERATOR_SYMBOL } from '@cds/engine';

/** US short date, e.g. "Jan 5, 2025" (docs/product-spec.md section 9: dates in US short format). */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
}

/** Answers can be numbers, booleans or strings; show them the way a clinician reads them. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The engine's symbol for any spelling of an operator (>=, greater_equal, ...); unknown ones as words. */
export function operatorSymbol(op: string): string {
  const canonical = canonicalOperator(op);
  return canonical ? OPERATOR_SYMBOL[canonical] : op.replace(/_/g, ' ');
}

export function displayName(
  profile: { first_name?: string | null; last_name?: string | null } | null | undefined,
  email: string | null | undefined,
): string {
  const full = [profile?.first_name, profile?.last_name]
    .filter((x) => x && x.trim())
    .join(' ')
    .trim();
  return full || email || 'User';
}

/**
 * Whom a console greets: the first name given at sign-up (the profile, else the account's
 * metadata while the profile loads), else the e-mail address.
 */
export function greetingName(
  profile: { first_name?: string | null } | null | undefined,
  user: { email?: string | null; user_metadata?: { first_name?: string | null } } | null | undefined,
  fallback: string,
): string {
  return profile?.first_name?.trim() || user?.user_metadata?.first_name?.trim() || user?.email || fallback;
}

/** The patient's id where the values were read: "Patient/p1 in the clinic's records", "EHR patient p1". */
export function patientIdText(p: RecordPatientJson): string {
  return p.source === 'record' ? `${p.reference} in the clinic's records` : `EHR patient ${p.reference.replace(/^Patient\//, '')}`;
}

/**
 * Whose values these are, as a physician checks them: "Ada Hightower · Patient/p1 in the clinic's records",
 * "Ada Hightower · EHR patient p1", or the id alone when the record gave no name.
 */
export function patientLabel(p: RecordPatientJson): string {
  return p.name ? `${p.name} · ${patientIdText(p)}` : patientIdText(p);
}
