/** US short date, e.g. "Jan 5, 2025" (spec section 9: dates in US short format). */
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

const OPERATORS: Record<string, string> = {
  equals: '=',
  '==': '=',
  '=': '=',
  not_equals: '≠',
  '!=': '≠',
  greater_than: '>',
  '>': '>',
  greater_equal: '≥',
  '>=': '≥',
  less_than: '<',
  '<': '<',
  less_equal: '≤',
  '<=': '≤',
  contains: 'contains',
  starts_with: 'starts with',
  ends_with: 'ends with',
  before: 'before',
  after: 'after',
  within_days: 'within days',
};

export function operatorSymbol(op: string): string {
  return OPERATORS[op] ?? op.replace(/_/g, ' ');
}

export function displayName(
  profile: { first_name?: string | null; last_name?: string | null } | null | undefined,
  email: string | null | undefined,
): string {
  const full = [profile?.first_name, profile?.last_name].filter((x) => x && x.trim()).join(' ').trim();
  return full || email || 'User';
}
