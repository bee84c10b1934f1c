import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ApprovalJson, ApprovalStatus, Role } from '@cds/contracts';
import { DataSource, EntityManager } from 'typeorm';
import { likePattern, ListQuery } from '../../common/pagination';
import { UserApproval } from './user-approval.entity';

/** An access request as the API shows it, with the timestamps still as the driver reads them. */
export type ApprovalRow = Omit<ApprovalJson, 'decided_at' | 'created_at'> & { decided_at: Date | null; created_at: Date };

export interface ApprovalFilter {
  ids?: string[];
  status?: ApprovalStatus;
  requested_role?: string;
  q?: string;
}

const SORT: Record<string, string> = { created_at: 'a.created_at', status: 'a.status', decided_at: 'a.decided_at', email: 'u.email' };
export const APPROVAL_SORTABLE = Object.keys(SORT);

/** Access requests: every query on them. */
@Injectable()
export class ApprovalsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private base() {
    return this.db
      .createQueryBuilder()
      .from('user_approvals', 'a')
      .innerJoin('users', 'u', 'u.id = a.user_id')
      .leftJoin('profiles', 'p', 'p.id = a.user_id')
      .leftJoin('user_roles', 'r', 'r.user_id = a.user_id')
      .leftJoin('users', 'd', 'd.id = a.decided_by')
      .select([
        'a.id AS id',
        'a.user_id AS user_id',
        'u.email AS email',
        'p.first_name AS first_name',
        'p.last_name AS last_name',
        'r.role AS current_role',
        'a.requested_role AS requested_role',
        'a.status AS status',
        'a.decided_by AS decided_by',
        'd.email AS decided_by_email',
        'a.decided_at AS decided_at',
        'a.reason AS reason',
        'a.created_at AS created_at',
      ]);
  }

  async findRow(id: string): Promise<ApprovalRow | null> {
    return (await this.base().where('a.id = :id', { id }).getRawOne<ApprovalRow>()) ?? null;
  }

  async list(q: ListQuery, filter: ApprovalFilter): Promise<{ rows: ApprovalRow[]; total: number }> {
    const qb = this.base();
    if (filter.ids) qb.andWhere('a.id IN (:...ids)', { ids: filter.ids });
    if (filter.status !== undefined) qb.andWhere('a.status = :status', { status: filter.status });
    if (filter.requested_role !== undefined) qb.andWhere('a.requested_role = :rr', { rr: filter.requested_role });
    if (filter.q) {
      qb.andWhere(`(u.email ILIKE :q OR concat_ws(' ', p.first_name, p.last_name) ILIKE :q)`, { q: likePattern(filter.q) });
    }
    const total = await qb.clone().getCount();
    const rows = await qb
      .orderBy(SORT[q.sort.field], q.sort.order, 'NULLS LAST')
      .addOrderBy('a.id')
      .offset(q.offset)
      .limit(q.limit)
      .getRawMany<ApprovalRow>();
    return { rows, total };
  }

  /** The user's own requests, newest first. */
  forUser(userId: string): Promise<ApprovalRow[]> {
    return this.base().where('a.user_id = :userId', { userId }).orderBy('a.created_at', 'DESC').getRawMany<ApprovalRow>();
  }

  hasPending(m: EntityManager, userId: string): Promise<boolean> {
    return m.exists(UserApproval, { where: { user_id: userId, status: 'pending' } });
  }

  async insertPending(m: EntityManager, userId: string, requestedRole: Role): Promise<string> {
    return (await m.save(UserApproval, m.create(UserApproval, { user_id: userId, requested_role: requestedRole }))).id;
  }

  /** The request, locked until the transaction ends (two administrators deciding at once). */
  lock(m: EntityManager, id: string): Promise<UserApproval | null> {
    return m.findOne(UserApproval, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async decide(
    m: EntityManager,
    id: string,
    decision: Partial<Pick<UserApproval, 'status' | 'decided_by' | 'decided_at' | 'reason'>>,
  ): Promise<void> {
    await m.update(UserApproval, { id }, decision);
  }
}
