import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ChangeType, ParameterChangeJson } from '@cds/contracts';
import type { Stored } from '../../common/stored';
import { DataSource } from 'typeorm';
import { likePattern, type ListQuery } from '../../common/pagination';
import { userLabels, userMatches } from '../users';
import { ParameterChange } from './parameter-change.entity';

/** A change-history row with the email of who made the change. */
export type ParameterChangeRow = Stored<ParameterChangeJson, 'changed_at'>;

type StoredChange = Omit<ParameterChangeRow, 'changed_by_email'>;

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
      .from(ParameterChange, 'c')
      .select([
        'c.id AS id',
        'c.parameter_id AS parameter_id',
        'c.parameter_name AS parameter_name',
        'c.change_type AS change_type',
        'c.old_values AS old_values',
        'c.new_values AS new_values',
        'c.changed_by AS changed_by',
        'c.changed_at AS changed_at',
        'c.change_reason AS change_reason',
      ]);
  }

  async list(q: ListQuery, f: ParameterChangeFilter): Promise<{ rows: ParameterChangeRow[]; total: number }> {
    const qb = this.base();
    if (f.ids) qb.andWhere('c.id IN (:...ids)', { ids: f.ids });
    if (f.text) {
      const q = likePattern(f.text);
      qb.andWhere(`(c.parameter_name ILIKE :q OR ${userMatches(qb, 'c.changed_by', q)})`, { q });
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
      .getRawMany<StoredChange>();
    return { rows: await this.withEditors(rows), total };
  }

  async find(id: string): Promise<ParameterChangeRow | null> {
    const row = await this.base().where('c.id = :id', { id }).getRawOne<StoredChange>();
    return row ? (await this.withEditors([row]))[0] : null;
  }

  /** The editors' e-mails, named for the whole page at once. */
  private async withEditors(rows: StoredChange[]): Promise<ParameterChangeRow[]> {
    const editors = await userLabels(
      this.db.manager,
      rows.map((r) => r.changed_by),
    );
    return rows.map((r) => ({ ...r, changed_by_email: (r.changed_by && editors.get(r.changed_by)?.email) || null }));
  }
}
