import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  mayChangeRole,
  type MeJson,
  type ProfileJson,
  type Role,
  type StatsJson,
  type UserJson,
  type UserListItemJson,
} from '@cds/contracts';
import { DataSource } from 'typeorm';
import { iso } from '../../common/api-helpers';
import type { AuthUser } from '../../common/auth-user';
import { conflict, forbidden, notFound } from '../../common/errors';
import { ListQuery, Page } from '../../common/pagination';
import { AccessRequests } from './access-requests';
import type { Profile } from './profile.entity';
import { applyRole, UsersRepository, type UserRow } from './users.repository';

export function toProfileJson(p: Profile): ProfileJson {
  return { id: p.id, first_name: p.first_name, last_name: p.last_name, updated_at: iso(p.updated_at)! };
}

@Injectable()
export class UsersService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repo: UsersRepository,
    private readonly accessRequests: AccessRequests,
  ) {}

  async getUserJson(id: string): Promise<UserJson> {
    const row = await this.repo.findRow(id);
    if (!row) throw notFound('User');
    return toUserJson(row);
  }

  /**
   * The caller's own account, as the session check read it (SessionCache keeps it, dropped on every API process by
   * any write to the user, role, profile or sessions): no statement of its own. Read when the check did not carry it.
   */
  async ownUserJson(user: AuthUser): Promise<UserJson> {
    if (!user.account) return this.getUserJson(user.id);
    return toUserJson({ id: user.id, email: user.email, role: user.role, ...user.account, updated_at: null });
  }

  async getMe(id: string): Promise<MeJson> {
    const [row, pending] = await Promise.all([this.repo.findRow(id), this.accessRequests.pendingOf(id)]);
    if (!row) throw notFound('User');
    return {
      user: toUserJson(row),
      role: row.role,
      profile: { id: row.id, first_name: row.first_name, last_name: row.last_name, updated_at: iso(row.updated_at) },
      pending_access_request: pending
        ? { id: pending.id, requested_role: pending.requested_role, created_at: iso(pending.created_at)! }
        : null,
    };
  }

  async updateProfile(id: string, first_name: string, last_name: string): Promise<ProfileJson> {
    return toProfileJson(await this.repo.saveProfile(id, first_name, last_name));
  }

  async list(q: ListQuery): Promise<Page<UserListItemJson>> {
    const { rows, total } = await this.repo.list(q);
    const pending = await this.accessRequests.pendingAmong(rows.map((r) => r.id));
    return new Page(
      'users',
      rows.map((r) => toListItem(r, pending.has(r.id))),
      total,
      q.offset,
    );
  }

  async getListItem(id: string): Promise<UserListItemJson> {
    const row = await this.repo.findRow(id);
    if (!row) throw notFound('User');
    return toListItem(row, (await this.accessRequests.pendingAmong([id])).has(id));
  }

  /**
   * Role changes: a super_admin may grant or revoke any role; an admin may only grant
   * or revoke pcp, and only on users who are not administrators. The last super_admin
   * cannot be demoted, so an instance never loses its owner.
   */
  async setRole(actor: AuthUser, targetId: string, role: Role | null): Promise<UserListItemJson> {
    await this.db.transaction(async (m) => {
      if (!(await this.repo.exists(m, targetId))) throw notFound('User');
      const current = await this.repo.lockRole(m, targetId);
      assertMayChangeRole(actor.role, current, role);
      if (current === 'super_admin' && role !== 'super_admin') {
        const others = await this.repo.countWithRole(m, 'super_admin');
        if (others <= 1) throw conflict('The last super admin cannot be demoted');
      }
      await applyRole(m, targetId, role, actor.id);
    });
    return this.getListItem(targetId);
  }

  async stats(): Promise<StatsJson> {
    const [counts, pending_approvals] = await Promise.all([this.repo.counts(), this.accessRequests.pendingCount()]);
    return { ...counts, pending_approvals };
  }
}

/** The role policy of @cds/contracts, as the server enforces it. */
export function assertMayChangeRole(actorRole: Role | null, current: Role | null, next: Role | null): void {
  if (!mayChangeRole(actorRole, current, next)) throw forbidden('Only a super admin can grant or revoke administrator roles');
}

function toUserJson(row: UserRow): UserJson {
  return {
    id: row.id,
    email: row.email,
    created_at: iso(row.created_at)!,
    email_confirmed_at: iso(row.email_confirmed_at),
    role: row.role,
    user_metadata: { first_name: row.first_name, last_name: row.last_name, role: row.role },
  };
}

function toListItem(row: UserRow, pending: boolean): UserListItemJson {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    role: row.role,
    status: pending ? 'pending_approval' : 'active',
    created_at: iso(row.created_at)!,
  };
}
