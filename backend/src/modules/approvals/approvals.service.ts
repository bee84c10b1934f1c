import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { conflict, DomainError, notFound } from '../../common/errors';
import { idFilter, likePattern, ListQuery, Page } from '../../common/pagination';
import type { AuthUser } from '../auth/auth-user';
import { UserRole } from '../users/user-role.entity';
import type { Role } from '../users/user.entity';
import { applyRole, assertMayChangeRole, iso } from '../users/users.service';
import { APPROVAL_STATUSES, UserApproval } from './user-approval.entity';

export interface ApprovalJson {
  id: string;
  user_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  current_role: Role | null;
  requested_role: Role;
  status: string;
  decided_by: string | null;
  decided_by_email: string | null;
  decided_at: string | null;
  reason: string | null;
  created_at: string;
}

const SORT: Record<string, string> = { created_at: 'a.created_at', status: 'a.status', decided_at: 'a.decided_at', email: 'u.email' };
export const APPROVAL_SORTABLE = Object.keys(SORT);

/** Roles that already include what is requested: a super_admin needs no PCP access. */
const COVERS: Record<Role, Role[]> = { pcp: ['pcp', 'admin', 'super_admin'], admin: ['admin', 'super_admin'], super_admin: ['super_admin'] };

@Injectable()
export class ApprovalsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private base() {
    return this.db.createQueryBuilder()
      .from('user_approvals', 'a')
      .innerJoin('users', 'u', 'u.id = a.user_id')
      .leftJoin('profiles', 'p', 'p.id = a.user_id')
      .leftJoin('user_roles', 'r', 'r.user_id = a.user_id')
      .leftJoin('users', 'd', 'd.id = a.decided_by')
      .select(['a.id AS id', 'a.user_id AS user_id', 'u.email AS email', 'p.first_name AS first_name', 'p.last_name AS last_name',
        'r.role AS current_role', 'a.requested_role AS requested_role', 'a.status AS status', 'a.decided_by AS decided_by',
        'd.email AS decided_by_email', 'a.decided_at AS decided_at', 'a.reason AS reason', 'a.created_at AS created_at']);
  }

  async get(id: string): Promise<ApprovalJson> {
    const row = await this.base().where('a.id = :id', { id }).getRawOne();
    if (!row) throw notFound('Access request');
    return toJson(row);
  }

  async list(q: ListQuery): Promise<Page<ApprovalJson>> {
    const qb = this.base();
    const ids = idFilter(q.filter);
    if (ids) qb.andWhere('a.id IN (:...ids)', { ids });
    const status = q.filter.status;
    if (status !== undefined) {
      if (!APPROVAL_STATUSES.includes(status as never)) {
        throw new DomainError('validation_failed', 'filter.status must be pending, approved or rejected', [{ field: 'filter.status', message: 'Unknown status' }]);
      }
      qb.andWhere('a.status = :status', { status });
    }
    if (typeof q.filter.requested_role === 'string') qb.andWhere('a.requested_role = :rr', { rr: q.filter.requested_role });
    if (typeof q.filter.q === 'string' && q.filter.q.trim()) {
      qb.andWhere(`(u.email ILIKE :q OR concat_ws(' ', p.first_name, p.last_name) ILIKE :q)`, { q: likePattern(q.filter.q.trim()) });
    }
    const total = await qb.clone().getCount();
    const rows = await qb.orderBy(SORT[q.sort.field], q.sort.order, 'NULLS LAST').addOrderBy('a.id').offset(q.offset).limit(q.limit).getRawMany();
    return new Page('approvals', rows.map(toJson), total, q.offset);
  }

  async request(user: AuthUser, requestedRole: Role): Promise<ApprovalJson> {
    if (user.role && COVERS[requestedRole].includes(user.role)) {
      throw conflict(`You already have ${requestedRole === 'pcp' ? 'PCP' : 'administrator'} access`);
    }
    const id = await this.db.transaction(async (m) => {
      const pending = await m.exists(UserApproval, { where: { user_id: user.id, status: 'pending' } });
      if (pending) throw conflict('You already have a pending access request');
      const saved = await m.save(UserApproval, m.create(UserApproval, { user_id: user.id, requested_role: requestedRole }));
      return saved.id;
    }).catch((e: unknown) => {
      // The partial unique index catches two simultaneous requests.
      if ((e as { driverError?: { code?: string } }).driverError?.code === '23505') throw conflict('You already have a pending access request');
      throw e;
    });
    return this.get(id);
  }

  /** Approving grants the role in the same transaction, and records who decided and when. */
  async approve(actor: AuthUser, id: string): Promise<ApprovalJson> {
    await this.db.transaction(async (m) => {
      const approval = await m.findOne(UserApproval, { where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!approval) throw notFound('Access request');
      if (approval.status !== 'pending') throw conflict(`This request was already ${approval.status}`);
      const current = (await m.findOne(UserRole, { where: { user_id: approval.user_id } }))?.role ?? null;
      assertMayChangeRole(actor.role, current, approval.requested_role);
      await m.update(UserApproval, { id }, { status: 'approved', decided_by: actor.id, decided_at: new Date() });
      // Approval never demotes: an administrator keeps their higher role.
      if (!current || !COVERS[approval.requested_role].includes(current)) await applyRole(m, approval.user_id, approval.requested_role, actor.id);
    });
    return this.get(id);
  }

  async reject(actor: AuthUser, id: string, reason?: string): Promise<ApprovalJson> {
    await this.db.transaction(async (m) => {
      const approval = await m.findOne(UserApproval, { where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!approval) throw notFound('Access request');
      if (approval.status !== 'pending') throw conflict(`This request was already ${approval.status}`);
      const current = (await m.findOne(UserRole, { where: { user_id: approval.user_id } }))?.role ?? null;
      assertMayChangeRole(actor.role, current, approval.requested_role);
      await m.update(UserApproval, { id }, { status: 'rejected', decided_by: actor.id, decided_at: new Date(), reason: reason?.trim() || null });
    });
    return this.get(id);
  }

  /** The caller's own requests, newest first (the dashboard shows the latest). */
  async mine(userId: string): Promise<ApprovalJson[]> {
    const rows = await this.base().where('a.user_id = :userId', { userId }).orderBy('a.created_at', 'DESC').getRawMany();
    return rows.map(toJson);
  }
}

function toJson(r: Record<string, unknown>): ApprovalJson {
  return {
    id: r.id as string,
    user_id: r.user_id as string,
    email: r.email as string,
    first_name: (r.first_name as string) ?? null,
    last_name: (r.last_name as string) ?? null,
    current_role: (r.current_role as Role) ?? null,
    requested_role: r.requested_role as Role,
    status: r.status as string,
    decided_by: (r.decided_by as string) ?? null,
    decided_by_email: (r.decided_by_email as string) ?? null,
    decided_at: iso(r.decided_at as Date),
    reason: (r.reason as string) ?? null,
    created_at: iso(r.created_at as Date)!,
  };
}
