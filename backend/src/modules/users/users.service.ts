import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { conflict, forbidden, notFound } from '../../common/errors';
import { idFilter, likePattern, ListQuery, Page } from '../../common/pagination';
import type { AuthUser } from '../auth/auth-user';
import { Profile } from './profile.entity';
import { UserRole } from './user-role.entity';
import { ADMIN_ROLES, Role, User } from './user.entity';

export interface UserJson {
  id: string;
  email: string;
  created_at: string;
  email_confirmed_at: string | null;
  role: Role | null;
  user_metadata: { first_name: string | null; last_name: string | null; role: Role | null };
}

export interface ProfileJson {
  id: string;
  first_name: string | null;
  last_name: string | null;
  updated_at: string;
}

export interface UserListItem {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role: Role | null;
  status: 'active' | 'pending_approval';
  created_at: string;
}

interface UserRow {
  id: string;
  email: string;
  created_at: Date;
  email_confirmed_at: Date | null;
  role: Role | null;
  first_name: string | null;
  last_name: string | null;
  updated_at: Date | null;
  pending: boolean;
}

export const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export function toProfileJson(p: Profile): ProfileJson {
  return { id: p.id, first_name: p.first_name, last_name: p.last_name, updated_at: iso(p.updated_at)! };
}

const SORT_COLUMNS: Record<string, string> = {
  email: 'u.email', created_at: 'u.created_at', role: 'r.role', first_name: 'p.first_name', last_name: 'p.last_name',
};
export const USER_SORTABLE = Object.keys(SORT_COLUMNS);

@Injectable()
export class UsersService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private base(m: EntityManager = this.db.manager) {
    return m
      .createQueryBuilder(User, 'u')
      .leftJoin(UserRole, 'r', 'r.user_id = u.id')
      .leftJoin(Profile, 'p', 'p.id = u.id')
      .select(['u.id AS id', 'u.email AS email', 'u.created_at AS created_at', 'u.email_confirmed_at AS email_confirmed_at',
        'r.role AS role', 'p.first_name AS first_name', 'p.last_name AS last_name', 'p.updated_at AS updated_at'])
      .addSelect(`EXISTS (SELECT 1 FROM user_approvals a WHERE a.user_id = u.id AND a.status = 'pending')`, 'pending');
  }

  private async row(id: string, m?: EntityManager): Promise<UserRow | null> {
    return (await this.base(m).where('u.id = :id', { id }).getRawOne<UserRow>()) ?? null;
  }

  async getUserJson(id: string, m?: EntityManager): Promise<UserJson> {
    const row = await this.row(id, m);
    if (!row) throw notFound('User');
    return toUserJson(row);
  }

  async getMe(id: string) {
    const row = await this.row(id);
    if (!row) throw notFound('User');
    return {
      user: toUserJson(row),
      role: row.role,
      profile: { id: row.id, first_name: row.first_name, last_name: row.last_name, updated_at: iso(row.updated_at) },
    };
  }

  async updateProfile(id: string, first_name: string, last_name: string): Promise<ProfileJson> {
    const repo = this.db.getRepository(Profile);
    await repo.upsert({ id, first_name, last_name, updated_at: new Date() }, ['id']);
    return toProfileJson(await repo.findOneByOrFail({ id }));
  }

  async list(q: ListQuery): Promise<Page<UserListItem>> {
    const qb = this.base();
    const ids = idFilter(q.filter);
    if (ids) qb.andWhere('u.id IN (:...ids)', { ids });
    if (typeof q.filter.q === 'string' && q.filter.q.trim()) {
      qb.andWhere(`(u.email ILIKE :q OR p.first_name ILIKE :q OR p.last_name ILIKE :q
        OR concat_ws(' ', p.first_name, p.last_name) ILIKE :q)`, { q: likePattern(q.filter.q.trim()) });
    }
    if (q.filter.role !== undefined) {
      if (q.filter.role === null || q.filter.role === 'none') qb.andWhere('r.role IS NULL');
      else qb.andWhere('r.role = :role', { role: String(q.filter.role) });
    }
    const total = await qb.clone().getCount();
    const rows = await qb
      .orderBy(SORT_COLUMNS[q.sort.field], q.sort.order, 'NULLS LAST')
      .addOrderBy('u.id', 'ASC')
      .offset(q.offset)
      .limit(q.limit)
      .getRawMany<UserRow>();
    return new Page('users', rows.map(toListItem), total, q.offset);
  }

  async getListItem(id: string): Promise<UserListItem> {
    const row = await this.row(id);
    if (!row) throw notFound('User');
    return toListItem(row);
  }

  /**
   * Role changes: a super_admin may grant or revoke any role; an admin may only grant
   * or revoke pcp, and only on users who are not administrators. The last super_admin
   * cannot be demoted, so an instance never loses its owner.
   */
  async setRole(actor: AuthUser, targetId: string, role: Role | null): Promise<UserListItem> {
    await this.db.transaction(async (m) => {
      const target = await m.findOne(User, { where: { id: targetId } });
      if (!target) throw notFound('User');
      const current = (await m.findOne(UserRole, { where: { user_id: targetId }, lock: { mode: 'pessimistic_write' } }))?.role ?? null;
      assertMayChangeRole(actor.role, current, role);
      if (current === 'super_admin' && role !== 'super_admin') {
        const others = await m.count(UserRole, { where: { role: 'super_admin' } });
        if (others <= 1) throw conflict('The last super admin cannot be demoted');
      }
      await applyRole(m, targetId, role, actor.id);
    });
    return this.getListItem(targetId);
  }

  async stats() {
    const [r] = await this.db.query(`SELECT
      (SELECT count(*) FROM users)::int AS total_users,
      (SELECT count(*) FROM user_roles WHERE role = 'pcp')::int AS active_pcps,
      (SELECT count(*) FROM user_approvals WHERE status = 'pending')::int AS pending_approvals`);
    return r as { total_users: number; active_pcps: number; pending_approvals: number };
  }
}

export function assertMayChangeRole(actorRole: Role | null, current: Role | null, next: Role | null): void {
  if (actorRole === 'super_admin') return;
  const touchesAdmin = [current, next].some((r) => r !== null && ADMIN_ROLES.includes(r));
  if (actorRole === 'admin' && !touchesAdmin) return;
  throw forbidden('Only a super admin can grant or revoke administrator roles');
}

/** Writes the single role row of a user (none = no row). */
export async function applyRole(m: EntityManager, userId: string, role: Role | null, grantedBy: string | null) {
  if (role === null) {
    await m.delete(UserRole, { user_id: userId });
    return;
  }
  await m.upsert(UserRole, { user_id: userId, role, granted_by: grantedBy }, ['user_id']);
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

function toListItem(row: UserRow): UserListItem {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    role: row.role,
    status: row.pending ? 'pending_approval' : 'active',
    created_at: iso(row.created_at)!,
  };
}
