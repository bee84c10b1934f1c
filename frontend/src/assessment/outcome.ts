import type { AssessmentJson as Assessment } from '@cds/contracts';
import { findingSeverity, findingsOf } from '../components/findings/clinicalFormat';
import type { SeverityLevel } from '../components/SeverityBadge';

/** Severity of a result: the primary card's (the server ranks critical and high first), else low. */
export function resultSeverity(a: Pick<Assessment, 'recommendation' | 'findings'>): SeverityLevel {
  const top = findingsOf(a)[0];
  return top ? findingSeverity(top) : 'low';
}

export type CaseStatus = 'in_progress' | 'recommendation' | 'no_recommendation';

export function caseStatus(a: Pick<Assessment, 'is_completed' | 'recommendation'>): CaseStatus {
  if (!a.is_completed) return 'in_progress';
  return a.recommendation ? 'recommendation' : 'no_recommendation';
}

export const CASE_STATUS_LABEL: Record<CaseStatus, string> = {
  in_progress: 'In progress',
  recommendation: 'Recommendation given',
  no_recommendation: 'No recommendation',
};

export interface CaseStats {
  total: number;
  completed: number;
  helped: number;
  /** Whole percent, or null when no assessment is completed ('--'). */
  successRate: number | null;
}

/**
 * Patients Helped = completed assessments that reached a recommendation; Success Rate = their
 * share of completed assessments. Total comes from the server's Content-Range.
 */
export function caseStats(total: number, items: Array<Pick<Assessment, 'is_completed' | 'recommendation'>>): CaseStats {
  const completed = items.filter((a) => a.is_completed);
  const helped = completed.filter((a) => !!a.recommendation).length;
  return {
    total,
    completed: completed.length,
    helped,
    successRate: completed.length ? Math.round((helped / completed.length) * 100) : null,
  };
}
