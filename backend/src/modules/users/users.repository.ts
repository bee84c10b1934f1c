import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Role, StatsJson } from '@cds/contracts';
import { DataSource, EntityManager } from 'typeorm';
import { idFilter, likePattern, ListQuery } from '../../common/pagination';
import { Profile } from './profile.entity';
import { UserRole } from './user-role.entity';
import { User } from './user.entity';

/** A user with their role, profile names and whether an access request is pending: one row per user. */
export interface UserRow {
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

const SORT_COLUMNS: Record<string, string> = {
  email: 'u.email',
  created_at: 'u.created_at',
  role: 'r.role',
  first_name: 'p.first_name',
  last_name: 'p.last_name',
};
export const USER_SORTABLE = Object.keys(SORT_COLUMNS);

/** The users aggregate (user, role row, profile): every query on it. */
@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private base(m: EntityManager = this.db.manager) {
    return m
      .createQueryBuilder(User, 'u')
      .leftJoin(UserRole, 'r', 'r.user_id = u.id')
      .leftJoin(Profile, 'p', 'p.id = u.id')
      .select([
        'u.id AS id',
        'u.email AS email',
        'u.created_at AS created_at',
        'u.email_confirmed_at AS email_confirmed_at',
        'r.role AS role',
        'p.first_name AS first_name',
        'p.last_name AS last_name',
        'p.updated_at AS updated_at',
      ])
      .addSelect(`EXISTS (SELECT 1 FROM user_approvals a WHERE a.user_id = u.id AND a.status = 'pending')`, 'pending');
  }

  async findRow(id: string, m?: EntityManager): Promise<UserRow | null> {
    return (await this.base(m).where('u.id = :id', { id }).getRawOne<UserRow>()) ?? null;
  }

  /** The user's one pending access request (a partial unique index allows at most one), or null. */
  async findPendingAccessRequest(userId: string): Promise<{ id: string; requested_role: Role; created_at: Date } | null> {
    const row = await this.db
      .createQueryBuilder()
      .from('user_approvals', 'a')
      .select(['a.id AS id', 'a.requested_role AS requested_role', 'a.created_at AS created_at'])
      .where(`a.user_id = :userId AND a.status = 'pending'`, { userId })
      .getRawOne<{ id: string; requested_role: Role; created_at: Date }>();
    return row ?? null;
  }

  async list(q: ListQuery): Promise<{ rows: UserRow[]; total: number }> {
    const qb = this.base();
    const ids = idFilter(q.filter);
    if (ids) qb.andWhere('u.id IN (:...ids)', { ids });
    if (typeof q.filter.q === 'string' && q.filter.q.trim()) {
      qb.andWhere(
        `(u.email ILIKE :q OR p.first_name ILIKE :q OR p.last_name ILIKE :q
        OR concat_ws(' ', p.first_name, p.last_name) ILIKE :q)`,
        { q: likePattern(q.filter.q.trim()) },
      );
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
    return { rows, total };
  }

  async saveProfile(id: string, first_name: string, last_name: string): Promise<Profile> {
    const repo = this.db.getRepository(Profile);
    await repo.upsert({ id, first_name, last_name, updated_at: new Date() }, ['id']);
    return repo.findOneByOrFail({ id });
  }

  exists(m: EntityManager, id: string): Promise<boolean> {
    return m.exists(User, { where: { id } });
  }

  /** The user's role, with the role row locked until the transaction ends. */
  async lockRole(m: EntityManager, userId: string): Promise<Role | null> {
    return (await m.findOne(UserRole, { where: { user_id: userId }, lock: { mode: 'pessimistic_write' } }))?.role ?? null;
  }

  async roleOf(m: EntityManager, userId: string): Promise<Role | null> {
    return (await m.findOne(UserRole, { where: { user_id: userId } }))?.role ?? null;
  }

  countWithRole(m: EntityManager, role: Role): Promise<number> {
    return m.count(UserRole, { where: { role } });
  }

  async stats(): Promise<StatsJson> {
    const [r] = await this.db.query(`SELECT
      (SELECT count(*) FROM users)::int AS total_users,
      (SELECT count(*) FROM user_roles WHERE role = 'pcp')::int AS active_pcps,
      (SELECT count(*) FROM user_approvals WHERE status = 'pending')::int AS pending_approvals`);
    return r as StatsJson;
  }
}

/** Writes the single role row of a user (none = no row), inside the caller's transaction. */
export async function applyRole(m: EntityManager, userId: string, role: Role | null, grantedBy: string | null) {
  if (role === null) {
    await m.delete(UserRole, { user_id: userId });
    return;
  }
  await m.upsert(UserRole, { user_id: userId, role, granted_by: grantedBy }, ['user_id']);
}
