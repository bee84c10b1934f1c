import type { EntityManager } from 'typeorm';
import type { AnalyticsPeriod } from '@cds/contracts';

export interface PeriodTotalsRow {
  bucket: string;
  completed: number;
  matched: number;
  no_match: number;
}

export interface PeriodMatchesRow {
  bucket: string;
  rule_id: string;
  rule_name: string;
  matches: number;
  primary_matches: number;
}

export interface CdsFeedbackRow {
  rule_id: string;
  rule_version: number;
  cards: number;
  accepted: number;
  overridden: number;
}

const WHERE = `a.is_completed AND a.rule_set_versions @> $2::jsonb AND a.completed_at >= $3 AND a.completed_at < $4`;
const BUCKET = `to_char(date_trunc($5, a.completed_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;
// Every rule that fired: the stored findings; an assessment stored before findings were kept has only its recommendation.
const FIRED = `(CASE WHEN jsonb_array_length(a.findings) > 0 THEN a.findings
                     WHEN a.recommendation IS NOT NULL THEN jsonb_build_array(a.recommendation)
                     ELSE '[]'::jsonb END)`;

/*
 * The aggregate queries behind rule analytics (GET /api/rule-sets/:id/analytics, served by the rules module):
 * completed assessments and CDS Hooks cards of one rule set. Plain functions over an entity manager, offered
 * through assessments/content.ts: the rules module cannot import the assessments index (assessments imports rules).
 */

const params = (ruleSetId: string, from: Date, to: Date, period: AnalyticsPeriod) => [
  ruleSetId,
  JSON.stringify([{ rule_set_id: ruleSetId }]),
  from,
  to,
  period,
];

/** Per period: completed assessments that evaluated the set, those where one of its rules fired, and those with no finding. */
export function completedByPeriod(
  db: EntityManager,
  ruleSetId: string,
  from: Date,
  to: Date,
  period: AnalyticsPeriod,
): Promise<PeriodTotalsRow[]> {
  return db.query(
    `SELECT ${BUCKET} AS bucket, count(*)::int AS completed,
            count(*) FILTER (WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(${FIRED}) f WHERE f->>'rule_set_id' = $1))::int AS matched,
            count(*) FILTER (WHERE jsonb_array_length(${FIRED}) = 0)::int AS no_match
       FROM assessments a WHERE ${WHERE} GROUP BY 1`,
    params(ruleSetId, from, to, period),
  );
}

/** Per period and rule of the set: assessments where it fired, and where it was the primary recommendation. */
export function matchesByPeriod(
  db: EntityManager,
  ruleSetId: string,
  from: Date,
  to: Date,
  period: AnalyticsPeriod,
): Promise<PeriodMatchesRow[]> {
  return db.query(
    `SELECT ${BUCKET} AS bucket, f->>'rule_id' AS rule_id, max(f->>'rule_name') AS rule_name,
            count(DISTINCT a.id)::int AS matches,
            count(DISTINCT a.id) FILTER (WHERE a.recommendation->>'rule_id' = f->>'rule_id')::int AS primary_matches
       FROM assessments a CROSS JOIN LATERAL jsonb_array_elements(${FIRED}) f
      WHERE ${WHERE} AND f->>'rule_set_id' = $1 GROUP BY 1, 2`,
    params(ruleSetId, from, to, period),
  );
}

/** CDS Hooks cards issued for the set's rules in the range, with the feedback they got, per rule version. */
export function cdsFeedback(db: EntityManager, ruleSetId: string, from: Date, to: Date): Promise<CdsFeedbackRow[]> {
  return db.query(
    `SELECT c.rule_id, c.rule_version, count(*)::int AS cards,
            count(f.id) FILTER (WHERE f.outcome = 'accepted')::int AS accepted,
            count(f.id) FILTER (WHERE f.outcome = 'overridden')::int AS overridden
       FROM cds_cards c LEFT JOIN cds_feedback f ON f.card_uuid = c.uuid
      WHERE c.rule_set_id = $1 AND c.rule_id IS NOT NULL AND c.created_at >= $2 AND c.created_at < $3
      GROUP BY 1, 2 ORDER BY 1, 2`,
    [ruleSetId, from, to],
  );
}
