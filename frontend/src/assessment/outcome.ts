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

/** How many answers a case holds (the typed details, or the answers map when it holds more). */
export function answeredCount(a: Pick<Assessment, 'answer_details' | 'answers'>): number {
  return Math.max(a.answer_details?.length ?? 0, Object.keys(a.answers ?? {}).length);
}

/**
 * A case opened and left before its first answer: nothing a clinician entered, no finding, no
 * patient. The dashboard does not count it as a case (it is not one); it stays in Case History,
 * named as such, since nothing is ever deleted on the clinician's behalf.
 */
export function isUnanswered(a: Pick<Assessment, 'is_completed' | 'answer_details' | 'answers'>): boolean {
  return !a.is_completed && answeredCount(a) === 0;
}

export interface CaseStats {
  /** Cases with at least one answer (the server's total less the unanswered ones read). */
  total: number;
  completed: number;
  /** Completed with at least one finding (a recommendation to act on). */
  withFinding: number;
  /** Completed with no rule matching: a finished assessment, not a failure. */
  noFinding: number;
  /** Answered at least once, not finished. */
  inProgress: number;
  /** Opened, never answered: not counted in `total`. */
  unanswered: number;
}

/**
 * The PCP dashboard's figures in a physician's words. An assessment that completes with no finding
 * is complete, not failed: a rate of "success" would count a healthy patient as a miss. Total comes
 * from the server's Content-Range; cases not read (past the dashboard's cap) count as cases.
 */
export function caseStats(
  serverTotal: number,
  items: Array<Pick<Assessment, 'is_completed' | 'recommendation' | 'answer_details' | 'answers'>>,
): CaseStats {
  const completed = items.filter((a) => a.is_completed);
  const withFinding = completed.filter((a) => !!a.recommendation).length;
  const unanswered = items.filter(isUnanswered).length;
  return {
    total: Math.max(serverTotal - unanswered, 0),
    completed: completed.length,
    withFinding,
    noFinding: completed.length - withFinding,
    inProgress: items.length - completed.length - unanswered,
    unanswered,
  };
}
