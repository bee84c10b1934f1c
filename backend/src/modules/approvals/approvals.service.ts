import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APPROVAL_STATUSES, ROLE_COVERS, type ApprovalJson, type ApprovalStatus, type Role } from '@cds/contracts';
import { isUniqueViolation, iso } from '../../common/api-helpers';
import type { AuthUser } from '../../common/auth-user';
import { conflict, DomainError, notFound, validationFailed } from '../../common/errors';
import { idFilter, ListQuery, Page } from '../../common/pagination';
import { applyRole, assertMayChangeRole, UsersRepository } from '../users';
import { ApprovalsRepository, type ApprovalRow } from './approvals.repository';

export { APPROVAL_SORTABLE } from './approvals.repository';

@Injectable()
export class ApprovalsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly approvals: ApprovalsRepository,
    private readonly users: UsersRepository,
  ) {}

  async get(id: string): Promise<ApprovalJson> {
    const row = await this.approvals.findRow(id);
    if (!row) throw notFound('Access request');
    return toJson(row);
  }

  async list(q: ListQuery): Promise<Page<ApprovalJson>> {
    const ids = idFilter(q.filter);
    const status = q.filter.status;
    if (status !== undefined && !APPROVAL_STATUSES.includes(status as never)) {
      throw new DomainError('validation_failed', 'filter.status must be pending, approved or rejected', [
        { field: 'filter.status', message: 'Unknown status' },
      ]);
    }
    const { rows, total } = await this.approvals.list(q, {
      ids,
      status: status as ApprovalStatus | undefined,
      requested_role: typeof q.filter.requested_role === 'string' ? q.filter.requested_role : undefined,
      q: typeof q.filter.q === 'string' ? q.filter.q.trim() || undefined : undefined,
    });
    return new Page('approvals', rows.map(toJson), total, q.offset);
  }

  async request(user: AuthUser, requestedRole: Role): Promise<ApprovalJson> {
    // Administrator access is asked for by clinicians already on the system, not by anyone who signs up.
    if (!user.role && requestedRole !== 'pcp') {
      throw validationFailed([{ field: 'requested_role', message: 'Without a role you may request PCP access only' }]);
    }
    if (user.role && ROLE_COVERS[requestedRole].includes(user.role)) {
      throw conflict(`You already have ${requestedRole === 'pcp' ? 'PCP' : 'administrator'} access`);
    }
    const id = await this.db
      .transaction(async (m) => {
        if (await this.approvals.hasPending(m, user.id)) throw conflict('You already have a pending access request');
        return this.approvals.insertPending(m, user.id, requestedRole);
      })
      .catch((e: unknown) => {
        // The partial unique index catches two simultaneous requests.
        if (isUniqueViolation(e)) throw conflict('You already have a pending access request');
        throw e;
      });
    return this.get(id);
  }

  /** Approving grants the role in the same transaction, and records who decided and when. */
  async approve(actor: AuthUser, id: string): Promise<ApprovalJson> {
    await this.db.transaction(async (m) => {
      const approval = await this.approvals.lock(m, id);
      if (!approval) throw notFound('Access request');
      if (approval.status !== 'pending') throw conflict(`This request was already ${approval.status}`);
      const current = await this.users.roleOf(m, approval.user_id);
      assertMayChangeRole(actor.role, current, approval.requested_role);
      await this.approvals.decide(m, id, { status: 'approved', decided_by: actor.id, decided_at: new Date() });
      // Approval never demotes: an administrator keeps their higher role.
      if (!current || !ROLE_COVERS[approval.requested_role].includes(current))
        await applyRole(m, approval.user_id, approval.requested_role, actor.id);
    });
    return this.get(id);
  }

  async reject(actor: AuthUser, id: string, reason?: string): Promise<ApprovalJson> {
    await this.db.transaction(async (m) => {
      const approval = await this.approvals.lock(m, id);
      if (!approval) throw notFound('Access request');
      if (approval.status !== 'pending') throw conflict(`This request was already ${approval.status}`);
      const current = await this.users.roleOf(m, approval.user_id);
      assertMayChangeRole(actor.role, current, approval.requested_role);
      await this.approvals.decide(m, id, {
        status: 'rejected',
        decided_by: actor.id,
        decided_at: new Date(),
        reason: reason?.trim() || null,
      });
    });
    return this.get(id);
  }

  /** The caller's own requests, newest first (the dashboard shows the latest). */
  async mine(userId: string): Promise<ApprovalJson[]> {
    return (await this.approvals.forUser(userId)).map(toJson);
  }
}

function toJson(r: ApprovalRow): ApprovalJson {
  return {
    id: r.id,
    user_id: r.user_id,
    email: r.email,
    first_name: r.first_name ?? null,
    last_name: r.last_name ?? null,
    current_role: r.current_role ?? null,
    requested_role: r.requested_role,
    status: r.status,
    decided_by: r.decided_by ?? null,
    decided_by_email: r.decided_by_email ?? null,
    decided_at: iso(r.decided_at),
    reason: r.reason ?? null,
    created_at: iso(r.created_at)!,
  };
}
