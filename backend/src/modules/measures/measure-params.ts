// `$evaluate-measure`'s and the Panel's parameters, read and checked: every problem becomes a field of one 400.
import { toDay } from '@cds/engine';
import { validationFailed, type FieldError } from '../../common/errors';
import { PLAUSIBLE_YEARS } from '../../common/dates';

/** `$evaluate-measure`'s parameters, as the query (or a Parameters body) gives them. */
export interface EvaluateMeasureParams {
  periodStart?: unknown;
  periodEnd?: unknown;
  reportType?: unknown;
  subject?: unknown;
}

const REPORT_TYPES = ['subject', 'subject-list', 'population'];

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

export function readParams(p: EvaluateMeasureParams): { period: { start: string; end: string }; reportType?: string; subject?: string } {
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
