import { Injectable } from '@nestjs/common';
import { DomainError, notFound } from '../../common/errors';
import { idFilter, ListQuery, Page, UUID } from '../../common/pagination';
import { choiceFilter, iso, oneOfFilter, textFilter } from '../../common/api-helpers';
import { CHANGE_PERIODS, CHANGE_TYPES, type ParameterChangeJson } from '@cds/contracts';
import { ParameterChangesRepository, type ParameterChangeRow } from './parameter-changes.repository';

type Period = (typeof CHANGE_PERIODS)[number];

export { CHANGE_SORTABLE } from './parameter-changes.repository';
/** The change history's filter keys; its ListQueryPipe refuses any other. */
export const CHANGE_FILTERS = ['q', 'change_type', 'period', 'parameter_id', 'id'];
const DAY_MS = 86_400_000;

/**
 * Where a period starts (UTC): today since midnight, this week = the last 7 days,
 * this month = since the first of the calendar month.
 */
export function periodStart(period: Period, now = new Date()): Date | null {
  switch (period) {
    case 'today':
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    case 'week':
      return new Date(now.getTime() - 7 * DAY_MS);
    case 'month':
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    default:
      return null;
  }
}

@Injectable()
export class ParameterChangesService {
  constructor(private readonly repo: ParameterChangesRepository) {}

  async list(q: ListQuery): Promise<Page<ParameterChangeJson>> {
    const f = q.filter;
    const ids = idFilter(f);
    const text = textFilter(f, 'q');
    const types = oneOfFilter(f, 'change_type', CHANGE_TYPES);
    const since = periodStart(choiceFilter(f, 'period', CHANGE_PERIODS) ?? 'all');
    if (f.parameter_id !== undefined && (typeof f.parameter_id !== 'string' || !UUID.test(f.parameter_id))) {
      throw new DomainError('validation_failed', 'filter.parameter_id must be a parameter id', [
        { field: 'filter.parameter_id', message: 'Not an id' },
      ]);
    }
    const { rows, total } = await this.repo.list(q, { ids, text, types, since, parameterId: f.parameter_id as string | undefined });
    return new Page('parameter-changes', rows.map(toJson), total, q.offset);
  }

  async get(id: string): Promise<ParameterChangeJson> {
    const row = await this.repo.find(id);
    if (!row) throw notFound('Parameter change');
    return toJson(row);
  }
}

function toJson(r: ParameterChangeRow): ParameterChangeJson {
  return { ...r, changed_at: iso(r.changed_at)! };
}
