import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DomainError, notFound } from '../../common/errors';
import { idFilter, likePattern, ListQuery, Page, UUID } from '../../common/pagination';
import { assertFilterKeys, choiceFilter, iso, oneOfFilter, textFilter } from './api-helpers';
import { CHANGE_TYPES } from './parameter-change.entity';

export interface ParameterChangeJson {
  id: string;
  parameter_id: string;
  parameter_name: string;
  change_type: string;
  old_values: Record<string, unknown> | null;
  new_values: Record<string, unknown> | null;
  changed_by: string | null;
  changed_by_email: string | null;
  changed_at: string;
  change_reason: string | null;
}

export const PERIODS = ['all', 'today', 'week', 'month'] as const;
type Period = (typeof PERIODS)[number];

const SORT: Record<string, string> = { changed_at: 'c.changed_at', parameter_name: 'c.parameter_name', change_type: 'c.change_type' };
export const CHANGE_SORTABLE = Object.keys(SORT);
const FILTERS = ['q', 'change_type', 'period', 'parameter_id', 'id'];
const DAY_MS = 86_400_000;

/**
 * Where a period starts (UTC): today since midnight, this week = the last 7 days,
 * this month = since the first of the calendar month.
 */
export function periodStart(period: Period, now = new Date()): Date | null {
  switch (period) {
    case 'today': return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    case 'week': return new Date(now.getTime() - 7 * DAY_MS);
    case 'month': return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    default: return null;
  }
}

@Injectable()
export class ParameterChangesService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private base() {
    return this.db.createQueryBuilder()
      .from('parameter_changes', 'c')
      .leftJoin('users', 'u', 'u.id = c.changed_by')
      .leftJoin('profiles', 'pr', 'pr.id = c.changed_by')
      .select(['c.id AS id', 'c.parameter_id AS parameter_id', 'c.parameter_name AS parameter_name', 'c.change_type AS change_type',
        'c.old_values AS old_values', 'c.new_values AS new_values', 'c.changed_by AS changed_by', 'u.email AS changed_by_email',
        'c.changed_at AS changed_at', 'c.change_reason AS change_reason']);
  }

  async list(q: ListQuery): Promise<Page<ParameterChangeJson>> {
    const f = q.filter;
    assertFilterKeys(f, FILTERS);
    const qb = this.base();
    const ids = idFilter(f);
    if (ids) qb.andWhere('c.id IN (:...ids)', { ids });
    const text = textFilter(f, 'q');
    if (text) {
      qb.andWhere(`(c.parameter_name ILIKE :q OR u.email ILIKE :q OR concat_ws(' ', pr.first_name, pr.last_name) ILIKE :q)`, { q: likePattern(text) });
    }
    const types = oneOfFilter(f, 'change_type', CHANGE_TYPES);
    if (types) qb.andWhere('c.change_type IN (:...types)', { types });
    const since = periodStart(choiceFilter(f, 'period', PERIODS) ?? 'all');
    if (since) qb.andWhere('c.changed_at >= :since', { since });
    if (f.parameter_id !== undefined) {
      if (typeof f.parameter_id !== 'string' || !UUID.test(f.parameter_id)) {
        throw new DomainError('validation_failed', 'filter.parameter_id must be a parameter id', [{ field: 'filter.parameter_id', message: 'Not an id' }]);
      }
      qb.andWhere('c.parameter_id = :pid', { pid: f.parameter_id });
    }
    const total = await qb.clone().getCount();
    const rows = await qb.orderBy(SORT[q.sort.field], q.sort.order).addOrderBy('c.id', 'DESC').offset(q.offset).limit(q.limit).getRawMany();
    return new Page('parameter-changes', rows.map(toJson), total, q.offset);
  }

  async get(id: string): Promise<ParameterChangeJson> {
    const row = await this.base().where('c.id = :id', { id }).getRawOne();
    if (!row) throw notFound('Parameter change');
    return toJson(row);
  }
}

function toJson(r: Record<string, unknown>): ParameterChangeJson {
  return {
    id: r.id as string,
    parameter_id: r.parameter_id as string,
    parameter_name: r.parameter_name as string,
    change_type: r.change_type as string,
    old_values: (r.old_values as Record<string, unknown>) ?? null,
    new_values: (r.new_values as Record<string, unknown>) ?? null,
    changed_by: (r.changed_by as string) ?? null,
    changed_by_email: (r.changed_by_email as string) ?? null,
    changed_at: iso(r.changed_at as Date)!,
    change_reason: (r.change_reason as string) ?? null,
  };
}
