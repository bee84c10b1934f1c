import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { rankFindings } from '@cds/engine';
import { validationFailed } from '../../common/errors';
import type { AnalyticsPeriod, RuleSetAnalytics } from '@cds/contracts';
import { cdsFeedback, completedByPeriod, matchesByPeriod, type PeriodMatchesRow, type PeriodTotalsRow } from '../assessments/content';
import type { AnalyticsQueryDto } from './rule-analytics.dto';
import { RuleVersionsService } from './rule-versions.service';

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
 * Rule analytics from the stored assessments: how often each rule of a set fired (any finding,
 * not only the primary recommendation), as a share of the completed assessments that evaluated
 * the set, and how often those ended with no finding at all, by period (UTC). Several rules can
 * fire in one assessment, so the shares of a set may add up to more than 1.
 */
@Injectable()
export class RuleAnalyticsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly versions: RuleVersionsService,
  ) {}

  async forRuleSet(ruleSetId: string, query: AnalyticsQueryDto): Promise<RuleSetAnalytics> {
    const period = query.period ?? 'month';
    const to = query.to ? new Date(query.to) : new Date();
    const from = query.from ? new Date(query.from) : addPeriods(periodStart(to, period), period, -11);
    if (from >= to) throw validationFailed([{ field: 'from', message: 'from must be before to' }]);
    const starts: Date[] = [];
    for (let s = periodStart(from, period); s < to; s = addPeriods(s, period, 1)) {
      if (starts.length === MAX_PERIODS)
        throw validationFailed([{ field: 'period', message: `At most ${MAX_PERIODS} periods; choose a longer period or a shorter range` }]);
      starts.push(s);
    }

    const published = await this.versions.versions(ruleSetId); // 404 for an unknown or deleted set
    const latest = published.length ? await this.versions.version(ruleSetId, published[0].number) : null;

    const [feedback, totals, matches] = await Promise.all([
      cdsFeedback(this.db.manager, ruleSetId, from, to),
      completedByPeriod(this.db.manager, ruleSetId, from, to, period),
      matchesByPeriod(this.db.manager, ruleSetId, from, to, period),
    ]);

    // The rules of the latest version as its findings are ranked (critical first, then high; priority
    // within a tier), so a crisis rule heads the table; then any rule that only matched in the past.
    const names = new Map<string, string>(rankFindings(latest?.rules ?? []).map((r) => [r.id, r.name]));
    for (const m of matches) if (!names.has(m.rule_id)) names.set(m.rule_id, m.rule_name);

    // Feedback rows in the same order: the rule's rank, then its newest version first.
    const ranks = new Map([...names.keys()].map((id, i) => [id, i]));
    const rankOf = (id: string) => ranks.get(id) ?? ranks.size;

    const figures = (rows: PeriodTotalsRow[], ruleRows: PeriodMatchesRow[]) => {
      const completed = rows.reduce((n, r) => n + r.completed, 0);
      const matched = rows.reduce((n, r) => n + r.matched, 0);
      const noMatch = rows.reduce((n, r) => n + r.no_match, 0);
      const byRule = new Map<string, number>();
      const primaryByRule = new Map<string, number>();
      for (const r of ruleRows) {
        byRule.set(r.rule_id, (byRule.get(r.rule_id) ?? 0) + r.matches);
        primaryByRule.set(r.rule_id, (primaryByRule.get(r.rule_id) ?? 0) + r.primary_matches);
      }
      return {
        completed,
        matched,
        matched_by_other_sets: completed - matched - noMatch,
        no_match: noMatch,
        no_match_rate: rate(noMatch, completed),
        rules: [...names].map(([rule_id, rule_name]) => ({
          rule_id,
          rule_name,
          matches: byRule.get(rule_id) ?? 0,
          primary_matches: primaryByRule.get(rule_id) ?? 0,
          share: rate(byRule.get(rule_id) ?? 0, completed),
        })),
      };
    };

    return {
      rule_set_id: ruleSetId,
      latest_version: latest?.number ?? null,
      period,
      from: from.toISOString(),
      to: to.toISOString(),
      totals: figures(totals, matches),
      cds_feedback: [...feedback]
        .sort((a, b) => rankOf(a.rule_id) - rankOf(b.rule_id) || b.rule_version - a.rule_version)
        .map((r) => ({
          ...r,
          rule_name: names.get(r.rule_id) ?? 'Rule no longer published',
          acceptance_rate: rate(r.accepted, r.accepted + r.overridden),
          override_rate: rate(r.overridden, r.accepted + r.overridden),
        })),
      periods: starts.map((start) => {
        const key = dayKey(start);
        return {
          start: start.toISOString(),
          end: addPeriods(start, period, 1).toISOString(),
          ...figures(
            totals.filter((r) => r.bucket === key),
            matches.filter((r) => r.bucket === key),
          ),
        };
      }),
    };
  }
}
