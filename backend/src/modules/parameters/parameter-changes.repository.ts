import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ChangeType, ParameterChangeJson } from '@cds/contracts';
import type { Stored } from '../../common/stored';
import { DataSource } from 'typeorm';
import { likePattern, type ListQuery } from '../../common/pagination';

/** A change-history row with the email of who made the change. */
export type ParameterChangeRow = Stored<ParameterChangeJson, 'changed_at'>;

/** The list's filters, already checked by the service. */
export interface ParameterChangeFilter {
  ids?: string[];
  text?: string;
  types?: ChangeType[];
  since?: Date | null;
  parameterId?: string;
}

const SORT: Record<string, string> = { changed_at: 'c.changed_at', parameter_name: 'c.parameter_name', change_type: 'c.change_type' };
export const CHANGE_SORTABLE = Object.keys(SORT);

/** The parameter catalogue's audit trail (written by ParametersRepository.recordChange): its reads. */
@Injectable()
export class ParameterChangesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private base() {
    return this.db
      .createQueryBuilder()
      .from('parameter_changes', 'c')
      .leftJoin('users', 'u', 'u.id = c.changed_by')
      .leftJoin('profiles', 'pr', 'pr.id = c.changed_by')
      .select([
        'c.id AS id',
        'c.parameter_id AS parameter_id',
        'c.parameter_name AS parameter_name',
        'c.change_type AS change_type',
        'c.old_values AS old_values',
        'c.new_values AS new_values',
        'c.changed_by AS changed_by',
        'u.email AS changed_by_email',
        'c.changed_at AS changed_at',
        'c.change_reason AS change_reason',
      ]);
  }

  async list(q: ListQuery, f: ParameterChangeFilter): Promise<{ rows: ParameterChangeRow[]; total: number }> {
    const qb = this.base();
    if (f.ids) qb.andWhere('c.id IN (:...ids)', { ids: f.ids });
    if (f.text) {
      qb.andWhere(`(c.parameter_name ILIKE :q OR u.email ILIKE :q OR concat_ws(' ', pr.first_name, pr.last_name) ILIKE :q)`, {
        q: likePattern(f.text),
      });
    }
    if (f.types) qb.andWhere('c.change_type IN (:...types)', { types: f.types });
    if (f.since) qb.andWhere('c.changed_at >= :since', { since: f.since });
    if (f.parameterId) qb.andWhere('c.parameter_id = :pid', { pid: f.parameterId });
    const total = await qb.clone().getCount();
    const rows = await qb
      .orderBy(SORT[q.sort.field], q.sort.order)
      .addOrderBy('c.id', 'DESC')
      .offset(q.offset)
      .limit(q.limit)
      .getRawMany<ParameterChangeRow>();
    return { rows, total };
  }

  async find(id: string): Promise<ParameterChangeRow | null> {
    return (await this.base().where('c.id = :id', { id }).getRawOne<ParameterChangeRow>()) ?? null;
  }
}
