import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Role, StatsJson } from '@cds/contracts';
import { DataSource, EntityManager, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';
import { idFilter, likePattern, ListQuery } from '../../common/pagination';
import { Profile } from './profile.entity';
import { UserRole } from './user-role.entity';
import { User } from './user.entity';

/** A user with their role and profile names: one row per user. */
export interface UserRow {
  id: string;
  email: string;
  created_at: Date;
  email_confirmed_at: Date | null;
  role: Role | null;
  first_name: string | null;
  last_name: string | null;
  updated_at: Date | null;
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
      ]);
  }

  async findRow(id: string, m?: EntityManager): Promise<UserRow | null> {
    return (await this.base(m).where('u.id = :id', { id }).getRawOne<UserRow>()) ?? null;
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

  /** The admin overview's user counts, in one statement. */
  async counts(): Promise<Omit<StatsJson, 'pending_approvals'>> {
    const qb = this.db.createQueryBuilder();
    const pcps = qb.subQuery().select('count(*)').from(UserRole, 'r').where(`r.role = 'pcp'`).getQuery();
    const row = await qb
      .select('count(*)::int', 'total_users')
      .addSelect(`${pcps}::int`, 'active_pcps')
      .from(User, 'u')
      .getRawOne<Omit<StatsJson, 'pending_approvals'>>();
    return row!;
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

/**
 * How other modules show, search and sort by the people their rows name (an access request's requester,
 * an invitation's inviter, a change's editor, a version's publisher) without reading the users module's
 * tables themselves.
 */

/** What a list shows of a user beside another module's row. */
export interface UserLabel {
  email: string;
  first_name: string | null;
  last_name: string | null;
  role: Role | null;
}

/** The e-mail, name and role of every named user, in one query for a whole page (unknown ids are left out). */
export async function userLabels(m: EntityManager, ids: Iterable<string | null | undefined>): Promise<Map<string, UserLabel>> {
  const wanted = [...new Set([...ids].filter((id): id is string => typeof id === 'string'))];
  if (wanted.length === 0) return new Map();
  const rows = await m
    .createQueryBuilder(User, 'u')
    .leftJoin(Profile, 'p', 'p.id = u.id')
    .leftJoin(UserRole, 'r', 'r.user_id = u.id')
    .select(['u.id AS id', 'u.email AS email', 'p.first_name AS first_name', 'p.last_name AS last_name', 'r.role AS role'])
    .where('u.id IN (:...ids)', { ids: wanted })
    .getRawMany<UserLabel & { id: string }>();
  return new Map(rows.map(({ id, ...label }) => [id, label]));
}

/**
 * A condition for another module's list search: the user in `idColumn` has `pattern` (an ILIKE pattern) in
 * their e-mail or full name. Sets its own parameter on `qb`, so it can stand inside the caller's OR.
 */
export function userMatches<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, idColumn: string, pattern: string): string {
  const param = `user_match_${idColumn.replace(/\W/g, '_')}`;
  qb.setParameter(param, pattern);
  const ids = qb
    .subQuery()
    .select('mu.id')
    .from(User, 'mu')
    .leftJoin(Profile, 'mp', 'mp.id = mu.id')
    .where(`mu.email ILIKE :${param} OR concat_ws(' ', mp.first_name, mp.last_name) ILIKE :${param}`)
    .getQuery();
  return `${idColumn} IN ${ids}`;
}

/** An ORDER BY expression for another module's list sorted by the e-mail of the user in `idColumn`. */
export function userEmailOrder<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, idColumn: string): string {
  return qb.subQuery().select('ou.email').from(User, 'ou').where(`ou.id = ${idColumn}`).getQuery();
}
