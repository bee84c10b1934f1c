import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ApprovalJson, ApprovalStatus, Role } from '@cds/contracts';
import { DataSource, EntityManager } from 'typeorm';
import { likePattern, ListQuery } from '../../common/pagination';
import { userEmailOrder, userLabels, userMatches, type AccessRequests, type PendingAccessRequest } from '../users';
import { UserApproval } from './user-approval.entity';

/** An access request as the API shows it, with the timestamps still as the driver reads them. */
export type ApprovalRow = Omit<ApprovalJson, 'decided_at' | 'created_at'> & { decided_at: Date | null; created_at: Date };

/** The request's own columns, before the people it names are added. */
type StoredApproval = Omit<ApprovalRow, 'email' | 'first_name' | 'last_name' | 'current_role' | 'decided_by_email'>;

export interface ApprovalFilter {
  ids?: string[];
  status?: ApprovalStatus;
  requested_role?: string;
  q?: string;
}

const SORT: Record<string, string> = { created_at: 'a.created_at', status: 'a.status', decided_at: 'a.decided_at' };
/** `email` sorts by the requester's e-mail, which the users module orders by. */
export const APPROVAL_SORTABLE = [...Object.keys(SORT), 'email'];

/** Access requests: every query on them. */
@Injectable()
export class ApprovalsRepository implements AccessRequests {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private base() {
    return this.db
      .createQueryBuilder(UserApproval, 'a')
      .select([
        'a.id AS id',
        'a.user_id AS user_id',
        'a.requested_role AS requested_role',
        'a.status AS status',
        'a.decided_by AS decided_by',
        'a.decided_at AS decided_at',
        'a.reason AS reason',
        'a.created_at AS created_at',
      ]);
  }

  /** The requester's e-mail, name and current role and the decider's e-mail, named for the whole page at once. */
  private async withPeople(rows: StoredApproval[]): Promise<ApprovalRow[]> {
    const people = await userLabels(
      this.db.manager,
      rows.flatMap((r) => [r.user_id, r.decided_by]),
    );
    return rows.map((r) => {
      const requester = people.get(r.user_id);
      return {
        ...r,
        // The request goes with its user (ON DELETE CASCADE), so the requester is always found.
        email: requester?.email ?? '',
        first_name: requester?.first_name ?? null,
        last_name: requester?.last_name ?? null,
        current_role: requester?.role ?? null,
        decided_by_email: (r.decided_by && people.get(r.decided_by)?.email) || null,
      };
    });
  }

  async findRow(id: string): Promise<ApprovalRow | null> {
    const row = await this.base().where('a.id = :id', { id }).getRawOne<StoredApproval>();
    return row ? (await this.withPeople([row]))[0] : null;
  }

  async list(q: ListQuery, filter: ApprovalFilter): Promise<{ rows: ApprovalRow[]; total: number }> {
    const qb = this.base();
    if (filter.ids) qb.andWhere('a.id IN (:...ids)', { ids: filter.ids });
    if (filter.status !== undefined) qb.andWhere('a.status = :status', { status: filter.status });
    if (filter.requested_role !== undefined) qb.andWhere('a.requested_role = :rr', { rr: filter.requested_role });
    if (filter.q) qb.andWhere(userMatches(qb, 'a.user_id', likePattern(filter.q)));
    const total = await qb.clone().getCount();
    const sort = q.sort.field === 'email' ? userEmailOrder(qb, 'a.user_id') : SORT[q.sort.field];
    const rows = await qb
      .orderBy(sort, q.sort.order, 'NULLS LAST')
      .addOrderBy('a.id')
      .offset(q.offset)
      .limit(q.limit)
      .getRawMany<StoredApproval>();
    return { rows: await this.withPeople(rows), total };
  }

  /** The user's own requests, newest first. */
  async forUser(userId: string): Promise<ApprovalRow[]> {
    return this.withPeople(
      await this.base().where('a.user_id = :userId', { userId }).orderBy('a.created_at', 'DESC').getRawMany<StoredApproval>(),
    );
  }

  async pendingAmong(userIds: string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.db
      .createQueryBuilder(UserApproval, 'a')
      .select('DISTINCT a.user_id', 'user_id')
      .where(`a.user_id IN (:...userIds) AND a.status = 'pending'`, { userIds })
      .getRawMany<{ user_id: string }>();
    return new Set(rows.map((r) => r.user_id));
  }

  async pendingOf(userId: string): Promise<PendingAccessRequest | null> {
    return this.db.manager.findOne(UserApproval, {
      select: { id: true, requested_role: true, created_at: true },
      where: { user_id: userId, status: 'pending' },
    });
  }

  pendingCount(): Promise<number> {
    return this.db.manager.count(UserApproval, { where: { status: 'pending' } });
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
