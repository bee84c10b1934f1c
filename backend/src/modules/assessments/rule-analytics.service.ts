import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { validationFailed } from '../../common/errors';
import { RuleVersionsService } from '../rules/rule-versions.service';
import type { AnalyticsPeriod, AnalyticsQueryDto } from './assessments.dto';

export interface RuleFigures {
  rule_id: string;
  rule_name: string;
  matches: number;
  /** matches / completed assessments that evaluated the set; null when there were none. */
  share: number | null;
}

export interface PeriodFigures {
  start: string;
  end: string;
  /** Completed assessments that evaluated this rule set. */
  completed: number;
  /** ... that ended with a recommendation from this set. */
  matched: number;
  /** ... that ended with a recommendation from another set evaluated alongside it. */
  matched_by_other_sets: number;
  /** ... that ended with no recommendation at all. */
  no_match: number;
  no_match_rate: number | null;
  rules: RuleFigures[];
}

export interface RuleSetAnalytics {
  rule_set_id: string;
  latest_version: number | null;
  period: AnalyticsPeriod;
  from: string;
  to: string;
  totals: Omit<PeriodFigures, 'start' | 'end'>;
  periods: PeriodFigures[];
}

const MAX_PERIODS = 400;
const DAY = 86_400_000;

/** The UTC start of the period holding `t`, as date_trunc computes it (weeks start on Monday). */
function periodStart(t: Date, period: AnalyticsPeriod): Date {
  const day = Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
  if (period === 'day') return new Date(day);
  if (period === 'week') return new Date(day - ((new Date(day).getUTCDay() + 6) % 7) * DAY);
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
}

function addPeriods(t: Date, period: AnalyticsPeriod, n: number): Date {
  if (period === 'day') return new Date(t.getTime() + n * DAY);
  if (period === 'week') return new Date(t.getTime() + 7 * n * DAY);
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + n, 1));
}

const dayKey = (t: Date) => t.toISOString().slice(0, 10);
const rate = (n: number, of: number) => (of ? Math.round((n / of) * 10_000) / 10_000 : null);

/**
 * Rule analytics from the stored assessments: how often each rule of a set was the
 * recommendation, as a share of the completed assessments that evaluated the set, and how
 * often those ended with no recommendation, by period (UTC).
 */
@Injectable()
export class RuleAnalyticsService {
  constructor(@InjectDataSource() private readonly db: DataSource, private readonly versions: RuleVersionsService) {}

  async forRuleSet(ruleSetId: string, query: AnalyticsQueryDto): Promise<RuleSetAnalytics> {
    const period = query.period ?? 'month';
    const to = query.to ? new Date(query.to) : new Date();
    const from = query.from ? new Date(query.from) : addPeriods(periodStart(to, period), period, -11);
    if (from >= to) throw validationFailed([{ field: 'from', message: 'from must be before to' }]);
    const starts: Date[] = [];
    for (let s = periodStart(from, period); s < to; s = addPeriods(s, period, 1)) {
      if (starts.length === MAX_PERIODS) throw validationFailed([{ field: 'period', message: `At most ${MAX_PERIODS} periods; choose a longer period or a shorter range` }]);
      starts.push(s);
    }

    const published = await this.versions.versions(ruleSetId); // 404 for an unknown or deleted set
    const latest = published.length ? await this.versions.version(ruleSetId, published[0].number) : null;

    const where = `a.is_completed AND a.rule_set_versions @> $2::jsonb AND a.completed_at >= $3 AND a.completed_at < $4`;
    const bucket = `to_char(date_trunc($5, a.completed_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;
    const params = [ruleSetId, JSON.stringify([{ rule_set_id: ruleSetId }]), from, to, period];
    const [totals, matches]: [{ bucket: string; completed: number; matched: number; no_match: number }[], { bucket: string; rule_id: string; rule_name: string; matches: number }[]] = await Promise.all([
      this.db.query(
        `SELECT ${bucket} AS bucket, count(*)::int AS completed,
                count(*) FILTER (WHERE a.recommendation->>'rule_set_id' = $1)::int AS matched,
                count(*) FILTER (WHERE a.recommendation IS NULL)::int AS no_match
           FROM assessments a WHERE ${where} GROUP BY 1`,
        params,
      ),
      this.db.query(
        `SELECT ${bucket} AS bucket, a.recommendation->>'rule_id' AS rule_id, max(a.recommendation->>'rule_name') AS rule_name, count(*)::int AS matches
           FROM assessments a WHERE ${where} AND a.recommendation->>'rule_set_id' = $1 GROUP BY 1, 2`,
        params,
      ),
    ]);

    // The rules of the latest version, in its order, then any rule that only matched in the past.
    const names = new Map<string, string>((latest?.rules ?? []).map((r) => [r.id, r.name]));
    for (const m of matches) if (!names.has(m.rule_id)) names.set(m.rule_id, m.rule_name);

    const figures = (rows: typeof totals, ruleRows: typeof matches) => {
      const completed = rows.reduce((n, r) => n + r.completed, 0);
      const matched = rows.reduce((n, r) => n + r.matched, 0);
      const noMatch = rows.reduce((n, r) => n + r.no_match, 0);
      const byRule = new Map<string, number>();
      for (const r of ruleRows) byRule.set(r.rule_id, (byRule.get(r.rule_id) ?? 0) + r.matches);
      return {
        completed, matched, matched_by_other_sets: completed - matched - noMatch, no_match: noMatch, no_match_rate: rate(noMatch, completed),
        rules: [...names].map(([rule_id, rule_name]) => ({ rule_id, rule_name, matches: byRule.get(rule_id) ?? 0, share: rate(byRule.get(rule_id) ?? 0, completed) })),
      };
    };

    return {
      rule_set_id: ruleSetId,
      latest_version: latest?.number ?? null,
      period,
      from: from.toISOString(),
      to: to.toISOString(),
      totals: figures(totals, matches),
      periods: starts.map((start) => {
        const key = dayKey(start);
        return {
          start: start.toISOString(),
          end: addPeriods(start, period, 1).toISOString(),
          ...figures(totals.filter((r) => r.bucket === key), matches.filter((r) => r.bucket === key)),
        };
      }),
    };
  }
}
